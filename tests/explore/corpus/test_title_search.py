"""The one title search: case, accents, typos and word order forgiven; exact and prefix matches first."""
import random

from explore.corpus.title_search import MIN_SHOWN_SCORE, TitleSearch, fold, numbered_acronyms

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
    assert len(SEARCH.search("p", limit=3)) == 3
    assert SEARCH.closest("Marie Cury", 1) == ["Marie Curie"]


# A small corpus shaped like the cases readers hit: partial names, word order, aliases, acronyms, ties.
NAMED = TitleSearch(
    {title: [title.replace(" ", "_")] for title in [
        "Wolfgang Amadeus Mozart", "Symphony No. 41 (Mozart)", "Moat", "World War II", "World War I",
        "Second Boer War", "Mahatma Gandhi", "Tokyo", "Theatre"]},
    aliases={"World_War_II": ["Second World War"], "Mahatma_Gandhi": ["Mohandas Karamchand Gandhi"],
             "Tokyo": ["Tokyo Metropolis", "Edo"], "Theatre": ["theater"], "unknown-id": ["Ghost"]},
    weights={"Wolfgang_Amadeus_Mozart": 120, "Symphony_No._41_(Mozart)": 3, "World_War_II": 300},
)


def named(query, **options):
    return [(match.title, match.alias) for match in NAMED.search(query, **options)]


def test_partial_names_and_word_order_find_the_article():
    assert named("wolfgang mozart")[0] == ("Wolfgang Amadeus Mozart", "")
    assert named("mozart wolfgang")[0] == ("Wolfgang Amadeus Mozart", "")
    assert named("wolfgang mozrat")[0] == ("Wolfgang Amadeus Mozart", "")  # a transposed letter in one word


def test_equally_good_matches_go_to_the_better_linked_article_and_typos_only_when_nothing_is_spelled_right():
    assert [title for title, _ in named("mozart")] == ["Wolfgang Amadeus Mozart", "Symphony No. 41 (Mozart)"]
    assert named("moazrt")[0] == ("Wolfgang Amadeus Mozart", "")  # no title has the word: its typo is forgiven


def test_an_alias_finds_the_article_and_says_which_alias_matched():
    match = NAMED.search("second world war")[0]
    assert (match.title, match.alias, match.ids, match.exact) == ("World War II", "Second World War",
                                                                   ("World_War_II",), True)
    assert named("gandhi mohandas")[0] == ("Mahatma Gandhi", "Mohandas Karamchand Gandhi")
    assert named("edo")[0] == ("Tokyo", "Edo")
    assert [title for title, _ in named("tokyo")] == ["Tokyo"]  # one match per article, by its title
    assert named("theat")[0] == ("Theatre", "")  # the title, when it matches as well as an alias
    assert named("ghost") == []  # an alias of an id not in the corpus is left out


def test_numbered_titles_are_found_by_their_acronyms():
    assert numbered_acronyms("World War II") == ("WWII", "WW2")
    assert numbered_acronyms("Final Fantasy 7") == ("FFVII", "FF7")
    assert numbered_acronyms("Elizabeth II") == numbered_acronyms("War of 1812") == numbered_acronyms("Paris") == ()
    assert named("ww2")[0] == ("World War II", "WW2") and named("WWII")[0] == ("World War II", "WWII")
    assert named("ww1")[0] == ("World War I", "WW1")


def test_unknown_titles_still_offer_the_closest_and_aliases_resolve_only_when_asked():
    assert named("tokio")[0] == ("Tokyo", "")
    assert NAMED.closest("Mahatma Ghandi", 1) == ["Mahatma Gandhi"]
    assert NAMED.exact("second world war") == []
    assert [match.ids for match in NAMED.exact("second world war", aliases=True)] == [("World_War_II",)]


def test_a_few_letters_inside_a_word_are_no_match_and_nothing_under_the_floor_is_offered():
    titles = ["Jerusalem", "Crusades", "Usain Bolt", "United States", "London"]
    search = TitleSearch({title: [title] for title in titles}, aliases={"United States": ["USA"]})
    assert [match.title for match in search.search("usa")] == ["United States", "Usain Bolt"]
    assert [match.title for match in search.search("ondo")] == ["London"]  # two thirds of the word: offered


def test_no_suggestion_scores_under_the_floor_for_any_query():
    rng = random.Random(7)
    queries = [title[start:start + size] for title in TITLES for start in range(3) for size in (2, 3, 5)]
    queries += ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(rng.randint(2, 9)))
                for _ in range(300)]
    for search in (SEARCH, NAMED):
        for query in queries:
            assert all(match.score >= MIN_SHOWN_SCORE for match in search.search(query)), query


QUALIFIED = TitleSearch(
    {"Paris": ["paris"], "Paris Commune": ["commune"], "Georgia (country)": ["georgia"], "London": ["london"],
     "Wolfgang Amadeus Mozart": ["mozart"], "Mozart family": ["family"]},
    qualifiers={"paris": ["Capital of France", "France", "city"], "commune": ["Revolutionary government", "France"],
                "georgia": ["Country in Eastern Europe and West Asia", "country"],
                "london": ["Capital of England and the United Kingdom", "United Kingdom"],
                "mozart": ["Composer and musician (1756–1791)", "composer", "Austria"], "family": ["Austria"]},
    weights={"paris": 10.0, "commune": 1.0})


def qualified(query, **options):
    return [match.title for match in QUALIFIED.search(query, **options)]


def test_a_title_with_its_country_or_qualifier_finds_the_title():
    assert qualified("paris france") == ["Paris", "Paris Commune"]  # the better-linked Paris first
    assert qualified("France Paris")[0] == "Paris"  # in any order, any case
    assert qualified("paris city") == ["Paris"]
    assert qualified("paris fr")[0] == "Paris"  # the qualifier still being typed
    assert qualified("london uk") == qualified("london united kingdom") == ["London"]  # a name's initials
    assert qualified("mozart composer") == ["Wolfgang Amadeus Mozart"]
    assert qualified("mozrat composer", near=True) == ["Wolfgang Amadeus Mozart"]  # a typo in the title's word
    assert qualified("georgia country") == ["Georgia (country)"]  # the qualifier in the title itself, as before
    assert QUALIFIED.search("paris france")[0].score < 100 and not QUALIFIED.search("paris france")[0].exact


def test_a_qualifier_alone_or_one_the_article_lacks_finds_nothing():
    assert qualified("paris germany") == [] and qualified("france") == [] and qualified("france uk") == []
    assert qualified("paris", near=True)[0] == "Paris"  # a plain title search is as it was


def test_the_shipped_corpus_finds_a_city_by_its_name_and_country(vital_corpus):
    for query, title in (("paris france", "Paris"), ("tokyo japan", "Tokyo"), ("berlin germany", "Berlin"),
                         ("georgia country", "Georgia (country)"), ("new york city usa", "New York City")):
        assert vital_corpus.title_search.search(query)[0].title == title, query
    assert vital_corpus.search_titles("paris france")[0].title == "Paris"  # the Corpus page's search too
