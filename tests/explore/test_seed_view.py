"""The engine's one answer for a seed (explore/seed_view.py): its columns in reading order with their cards, the mix,
and why each column not drawn is absent, as typed values (fixture corpus and engine)."""
from explore.query import LINKS, MORELIKE, Blend, Kind, Query
from explore.seed_view import ViewSettings, absences, seed_view
from tests.app_pages.conftest import fixture_engine
from tests.fixture_corpora import fixture_corpus

CORPUS = fixture_corpus()
ENGINE = fixture_engine(CORPUS)


def test_an_article_seed_gets_links_generic_its_mix_then_its_aspect_spaces_each_with_k_cards():
    view = seed_view(ENGINE, CORPUS["p3"], settings=ViewSettings(k=3, read_more=True))
    assert [str(column.query) for column in view.columns][:4] == ["links", "morelike", "generic",
                                                                    f"blend:{view.mix}"]
    assert [column.query.name for column in view.columns[4:]] == ["country", "occupation"]
    assert all(len(column.cards) <= 3 and not column.problem for column in view.columns)
    assert {c.query.name: c.aspects for c in view.columns if c.query.kind is Kind.ASPECT} == {
        "country": ("country",), "occupation": ("occupation",)}
    assert view.mix is not None and "links" in view.mix.names and view.links_weighable
    assert view.mixable[-1] == "generic" and view.weighable[0] == "links"
    assert view.absent.lacking == () and view.text is None


def test_a_reader_mix_is_the_mix_and_what_the_corpus_cannot_weigh_is_dropped():
    view = seed_view(ENGINE, CORPUS["p3"], settings=ViewSettings(blend=Blend.of({"country": 1, "elsewhere": 1})))
    assert str(view.mix) == "country:1"


def test_absences_say_which_spaces_a_seed_lacks_and_what_free_text_cannot_have():
    lacking = absences(ENGINE, CORPUS["p105"])  # no labels
    assert [q.name for q in lacking.lacking] == ["country", "occupation"]
    assert lacking.lacking_aspects == ("country", "occupation") and lacking.need_article == ()
    free = seed_view(ENGINE, None, "a painter", ViewSettings(read_more=True))
    assert free.absent.need_article == (LINKS, MORELIKE) and free.seed is None and free.text == "a painter"
    assert LINKS not in [column.query for column in free.columns] and not free.links_weighable


def test_a_column_that_cannot_answer_is_kept_empty_with_the_engines_reason():
    view = seed_view(ENGINE, None, "a painter")  # the fixture's spaces have no encoder for a typed text
    assert [str(column.query) for column in view.columns] == ["generic", "aspect:country", "aspect:occupation"]
    for column in view.columns:
        assert column.cards == () and column.problem.startswith("Free text cannot be encoded for: generic")
