"""The panel's events: what the script sends is parsed into one typed event or refused, and each event changes the
reader's view as the matching control did (fixture corpus and engine, no Streamlit)."""
import pytest

from app_views.explore_panel.events import (Back, CardsPerColumn, Forward, Jump, LinksShare, MixSpaces, PerRow, Pick,
                                            ReadMoreShown, Weight, apply_event, parse_event)
from app_views.view_state import ExploreView
from tests.app_pages.conftest import fixture_engine
from tests.fixture_corpora import fixture_corpus


@pytest.mark.parametrize("trigger, value, event", [
    ("pick", "p7", Pick("p7")),
    ("nav", "back", Back()),
    ("nav", "forward", Forward()),
    ("nav", 2, Jump(2)),
    ("mix", {"spaces": ["country"]}, MixSpaces(("country",))),
    ("mix", {"links": 0.4}, LinksShare(0.4)),
    ("mix", {"links": 7}, LinksShare(1.0)),  # clamped to the slider's range
    ("mix", {"weight": "country", "value": 0.3}, Weight("country", 0.3)),
    ("mix", {"weight": "country", "value": -1}, Weight("country", 0.0)),
    ("layout", {"per_row": 6}, PerRow(6)),
    ("layout", {"per_row": 40}, PerRow(10)),  # the choices run from 2 to 10
    ("layout", {"k": 8}, CardsPerColumn(8)),
    ("layout", {"k": 0}, CardsPerColumn(1)),
    ("layout", {"read_more": True}, ReadMoreShown(True)),
    ("layout", {"read_more": False}, ReadMoreShown(False)),
])
def test_what_the_panel_sends_becomes_one_typed_event(trigger, value, event):
    assert parse_event(trigger, value) == event


@pytest.mark.parametrize("trigger, value", [
    ("pick", ""), ("pick", 3), ("nav", "up"), ("nav", -1), ("nav", True), ("mix", {"spaces": [1]}),
    ("mix", {"links": "0.5"}), ("mix", {"links": float("nan")}), ("mix", {"weight": "country"}), ("mix", []),
    ("other", "p7"), ("pick", None), ("layout", 6), ("layout", {"per_row": "6"}), ("layout", {"k": True}),
    ("layout", {"k": 3, "per_row": 3}), ("layout", {"rows": 3}), ("layout", {"read_more": 1}),
    ("layout", {"read_more": "yes"}),
])
def test_anything_else_is_refused(trigger, value):
    assert parse_event(trigger, value) is None


@pytest.fixture(scope="module")
def fixture():
    corpus = fixture_corpus()
    return corpus, fixture_engine(corpus)


def test_picks_and_steps_move_along_the_trail(fixture):
    corpus, engine = fixture
    view = ExploreView(corpus="fixture")
    for event in (Pick("p7"), Pick("p8"), Pick("p9"), Jump(0)):
        apply_event(view, corpus, engine, view.seed_article(corpus), event)
    assert view.seed_id == "p7" and view.trail.seeds == ["p7", "p8", "p9"]
    apply_event(view, corpus, engine, None, Forward())
    assert view.seed_id == "p8"
    apply_event(view, corpus, engine, None, Back())
    assert view.seed_id == "p7"
    apply_event(view, corpus, engine, None, PerRow(7))
    apply_event(view, corpus, engine, None, CardsPerColumn(9))
    assert (view.per_row, view.k) == (7, 9)
    for ignored in (Pick("no-such-article"), Jump(12)):  # a stale page's click changes nothing
        apply_event(view, corpus, engine, None, ignored)
        assert view.seed_id == "p7" and view.trail.seeds == ["p7", "p8", "p9"]


def test_mix_changes_start_from_the_mix_on_screen(fixture):
    corpus, engine = fixture
    view = ExploreView(corpus="fixture")
    view.set_seed("p3")
    seed = view.seed_article(corpus)
    apply_event(view, corpus, engine, seed, MixSpaces(("occupation",)))
    assert str(view.blend) == "links:0.05,occupation:0.95"
    apply_event(view, corpus, engine, seed, LinksShare(0.0))
    assert str(view.blend) == "occupation:1"
    apply_event(view, corpus, engine, seed, MixSpaces(()))  # nothing left to rank by: the mix stays
    assert str(view.blend) == "occupation:1"
    apply_event(view, corpus, engine, seed, LinksShare(1.0))
    assert str(view.blend) == "links:1"
    apply_event(view, corpus, engine, seed, Weight("country", 0.5))
    assert str(view.blend) == "links:1,country:0.5"
    apply_event(view, corpus, engine, seed, Weight("no-such-space", 0.5))
    assert str(view.blend) == "links:1,country:0.5"


def test_the_read_more_switch_is_kept_in_the_view_and_its_url(fixture):
    corpus, engine = fixture
    view = ExploreView(corpus=corpus.name)
    apply_event(view, corpus, engine, None, ReadMoreShown(True))
    assert view.read_more and view.url_query(corpus)["readmore"] == "1"
    apply_event(view, corpus, engine, None, ReadMoreShown(False))
    assert not view.read_more and "readmore" not in view.url_query(corpus)
