"""The one title search: case, accents, typos and word order forgiven; exact and prefix matches first."""
from explore.corpus.title_search import TitleSearch, fold

TITLES = {title: [f"id-{n}"] for n, title in enumerate([
    "Marie Curie", "Pierre Curie", "Marie Antoinette", "Pelé", "Mount Pelée", "Ur", "Paris", "Paris Commune",
    "Notre-Dame de Paris", "Albert Einstein", "William Shakespeare", "São Paulo", "Crime"])}
TITLES["Mercury"] = ["planet", "god"]
SEARCH = TitleSearch(TITLES)


def titles(query, **options):
    return [match.title for match in SEARCH.search(query, **options)]


def test_fold_drops_case_accents_and_punctuation():
    assert fold("  Pelé ") == fold("PELE") == "pele"
    assert fold("Saint-Étienne") == "saint etienne"
    assert fold("東京") == "東京"  # scripts without accents are kept as they are


def test_typos_accents_and_case_find_the_title():
    assert titles("Marie Cury")[0] == "Marie Curie"
    assert titles("pele")[0] == "Pelé"
    assert titles("MARIE curie")[0] == "Marie Curie"
    assert titles("sao paulo")[0] == "São Paulo"
    assert titles("Albert Einstien")[0] == "Albert Einstein"
    assert titles("curie marie")[0] == "Marie Curie"  # words in another order


def test_a_short_title_inside_the_query_is_not_a_match():
    assert "Ur" not in titles("Marie Cury")


def test_exact_then_prefix_then_containing_then_near():
    assert titles("paris")[:3] == ["Paris", "Paris Commune", "Notre-Dame de Paris"]
    assert titles("Curie")[:2] == ["Marie Curie", "Pierre Curie"]
    assert SEARCH.search("paris")[0].exact and not SEARCH.search("paris")[1].exact
    assert titles("shakespear") == ["William Shakespeare"]


def test_noise_and_empty_queries_find_nothing():
    assert titles("xyzzy") == [] and titles("   ") == [] and titles("a French painter of water lilies") == []


def test_without_near_spellings_only_containing_titles():
    assert titles("Marie Cury", near=False) == []
    assert titles("marie", near=False) == ["Marie Curie", "Marie Antoinette"]


def test_exact_keeps_every_article_of_a_shared_title_and_limit_caps():
    assert [match.ids for match in SEARCH.exact("mercury")] == [("planet", "god")]
    assert SEARCH.exact("merc") == []
    assert len(SEARCH.search("a", limit=3)) == 3
    assert SEARCH.closest("Marie Cury", 1) == ["Marie Curie"]
