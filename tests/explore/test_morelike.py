"""Wikipedia's Read more (explore/morelike.py): tantivy's more-like-this over a real on-disk index, rescored by
incoming links; the seed, disambiguation pages and copies of its text left out; a reason for every empty answer."""
import pytest

from explore.corpus.model import Article, Corpus, Provenance
from explore.errors import AspectNavError, InvalidQueryError
from explore.morelike import MoreLikeIndex, index_directory, is_disambiguation, morelike_index
from explore.neighbours import Neighbourhood
from explore.query import MORELIKE, Kind, Query

FILLER = [Article(f"f{i}", f"Filler {i}", f"Filler article number {i} about gardening, soil and {w} weather.")
          for i, w in enumerate(["rainy", "sunny", "windy", "cold", "warm", "dry", "humid", "mild"] * 3)]


def corpus_of(*articles: Article, name: str = "tiny") -> Corpus:
    return Corpus(name, [*articles, *FILLER], Provenance("test", "2026-01-01"))


VOLCANO = Article("Vesuvius", "Mount Vesuvius", "Mount Vesuvius is a volcano near Naples whose eruption in AD 79 "
                  "buried Pompeii and Herculaneum under volcanic ash.")
POMPEII = Article("Pompeii", "Pompeii", "Pompeii was a Roman city near Naples buried under volcanic ash by the "
                  "eruption of Mount Vesuvius in AD 79.")
HERCULANEUM = Article("Herculaneum", "Herculaneum", "Herculaneum was a Roman town buried under volcanic ash by the "
                      "eruption of Mount Vesuvius in AD 79, near Pompeii.")
ETNA = Article("Etna", "Mount Etna", "Mount Etna is an active volcano in Sicily whose eruption and volcanic ash reach "
               "Catania.")


def titles(corpus: Corpus, read_more) -> list[str]:
    return [corpus.articles[card.row].title for card in read_more.cards]


def test_the_seeds_closest_texts_come_first_and_never_the_seed_itself():
    corpus = corpus_of(VOLCANO, POMPEII, HERCULANEUM, ETNA)
    shown = morelike_index(corpus).read_more(VOLCANO, 3)
    assert set(titles(corpus, shown)) == {"Pompeii", "Herculaneum", "Mount Etna"}
    assert all(corpus.articles[card.row].id != VOLCANO.id for card in shown.cards)
    assert sorted(card.bm25_rank for card in shown.cards) == [1, 2, 3]
    assert shown.left_out == ""


def test_popularity_reorders_equal_matches_as_cirrussearch_rescores_by_incoming_links():
    twin_a = Article("A", "Twin A", "Roman city buried by the eruption of Vesuvius under volcanic ash.")
    twin_b = Article("B", "Twin B", "Roman city buried by the eruption of Vesuvius under volcanic ash.")
    fans = [Article(f"fan{i}", f"Fan {i}", f"A page about gardening number {i}.", links=("B",)) for i in range(30)]
    corpus = corpus_of(VOLCANO, twin_a, twin_b, *fans)
    shown = morelike_index(corpus).read_more(VOLCANO, 2)
    assert titles(corpus, shown) == ["Twin B", "Twin A"]  # B is linked from 30 pages, A from none
    # without links to tell them apart, text alone decides (ties as the index stores them)
    plain = corpus_of(VOLCANO, twin_a, twin_b, name="plain")
    assert set(titles(plain, morelike_index(plain).read_more(VOLCANO, 2))) == {"Twin A", "Twin B"}


def test_disambiguation_pages_and_copies_of_the_seed_are_left_out_with_a_line_saying_so():
    lists = Article("Vesuvius_(disambiguation)", "Vesuvius (disambiguation)",
                    "Vesuvius may refer to: Mount Vesuvius, a volcano near Naples; the eruption of AD 79 that buried "
                    "Pompeii; a ship.")
    copy = Article("Vesuvius_copy", "Vesuvio", VOLCANO.text)
    assert is_disambiguation(lists) and not is_disambiguation(POMPEII)
    corpus = corpus_of(VOLCANO, lists, copy, POMPEII, HERCULANEUM, ETNA)
    shown = morelike_index(corpus).read_more(VOLCANO, 3)
    assert set(titles(corpus, shown)) == {"Pompeii", "Herculaneum", "Mount Etna"}
    assert "1 article with the same text as this one left out" in shown.left_out
    assert "1 disambiguation page left out" in shown.left_out


@pytest.mark.parametrize("text, why", [
    ("", "its text is empty"),
    ("Zyxxq.", "its text has 1 word"),
    ("the of and to in is was it for on with as by at", "common words"),
])
def test_a_seed_with_nothing_to_match_gets_a_line_saying_why_never_a_traceback(text, why):
    seed = Article("odd", "Qqqzz", text)
    corpus = corpus_of(seed, VOLCANO, POMPEII)
    shown = morelike_index(corpus).read_more(seed, 3)
    assert shown.cards == ()
    assert shown.left_out.startswith("No Read more for this article:") and why in shown.left_out


def test_a_huge_seed_and_titles_in_other_scripts_are_answered():
    huge = Article("huge", "Vesuvius everywhere", ("volcanic ash eruption Naples Pompeii " * 40_000)[:1_000_000])
    tokyo = Article("Tokyo", "東京", "東京は日本の首都である。 Tokyo is the capital of Japan.")
    osaka = Article("Osaka", "大阪", "大阪は日本の都市である。 Osaka is a city of Japan.")
    corpus = corpus_of(huge, tokyo, osaka, VOLCANO, POMPEII)
    index = morelike_index(corpus)
    assert "Pompeii" in titles(corpus, index.read_more(huge, 3))  # read as its first 40,000 characters
    assert titles(corpus, index.read_more(tokyo, 1)) == ["大阪"]


def test_the_index_is_kept_on_disk_and_a_changed_corpus_gets_its_own():
    corpus = corpus_of(VOLCANO, POMPEII, HERCULANEUM)
    index = morelike_index(corpus)
    assert index.directory == index_directory(corpus) and index.size_bytes > 0
    reopened = MoreLikeIndex(corpus, index.directory)  # opened, not built again
    assert titles(corpus, reopened.read_more(VOLCANO, 1)) == titles(corpus, index.read_more(VOLCANO, 1))
    changed = corpus_of(VOLCANO, POMPEII, ETNA)
    assert index_directory(changed) != index_directory(corpus)
    linked = Corpus("tiny", [*corpus.articles[:3], Article("x", "X", "gardening", links=("Pompeii",)), *FILLER],
                    corpus.provenance)
    assert index_directory(linked) != index_directory(corpus)  # popularity is in the index: new links, new index


def test_a_damaged_index_says_which_folder_to_delete():
    corpus = corpus_of(VOLCANO, POMPEII)
    directory = morelike_index(corpus).directory
    (directory / "meta.json").write_text("{not json")
    with pytest.raises(AspectNavError, match="delete that folder"):
        MoreLikeIndex(corpus, directory)


def test_the_engine_serves_read_more_as_a_query_with_ranks_and_no_similarity():
    corpus = corpus_of(VOLCANO, POMPEII, HERCULANEUM, ETNA)
    engine = Neighbourhood(corpus, {})
    assert Query.parse("morelike") == MORELIKE and str(MORELIKE) == "morelike"
    with pytest.raises(InvalidQueryError, match="takes no name"):
        Query.parse("morelike:generic")
    assert engine.baseline_queries() == [MORELIKE]
    assert MORELIKE not in engine.query_kinds(seed=VOLCANO)  # Explore draws it only when a reader asks
    cards = engine.neighbours("Mount Vesuvius", "morelike", 2)
    assert len(cards) == 2 and all(card.score is None and card.bm25_rank >= 1 for card in cards)
    with pytest.raises(InvalidQueryError, match="Read more needs an article seed"):
        engine.neighbours_for_text("volcanic ash", MORELIKE, 3)
    with pytest.raises(InvalidQueryError, match="not by a space"):
        engine.resolve(MORELIKE)
    assert Kind.MORELIKE.value == "morelike"


def test_evaluation_ranks_read_more_inside_a_pool_in_its_order():
    import numpy as np

    from training.rankings import QueryRanking

    corpus = corpus_of(VOLCANO, POMPEII, HERCULANEUM, ETNA)
    ranking = QueryRanking(Neighbourhood(corpus, {}), "morelike")
    served = [card.row for card in Neighbourhood(corpus, {}).read_more(VOLCANO, 3).cards]
    assert list(ranking.rows_for(0, None, 3)) == served
    pool = np.array(sorted(served[1:]))
    assert list(ranking.rows_for(0, pool, 3)) == served[1:]
    assert ranking.pair_scores(np.array([0]), np.array([1])) is None
