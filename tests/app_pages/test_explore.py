"""Explore through AppTest on the fixture corpus: seed, columns, reseed, trail, k, blend, URL, bad input."""
import re

import pytest

from app_views.view_session import VIEW_KEY
from app_views.view_state import ExploreView
from explore.mix import DEFAULT_LINKS_SHARE
from tests.app_pages.conftest import (cards, crumbs, grid, grid_text, headings, mix_pills, mix_weights, panel,
                                      map_settings, panel_event, panel_notes)


def shown(markdown: str) -> str:
    """Escaped Markdown as the reader sees it (backslash escapes removed)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def seed_title(at) -> str:
    return panel(at)["seed_card"]["title"]


def test_seed_from_url_shows_card_and_all_columns(app):
    at = app(seed="Person 7")
    card = panel(at)["seed_card"]
    assert card["title"] == "Person 7" and card["read_label"] == "Read “Person 7” on Wikipedia"
    assert {"text": "country: Japan", "inferred": False, "help": ""} in card["labels"]
    assert card["url"].startswith("https://en.wikipedia.org/wiki/Person_7")
    assert headings(at)[:5] == ["**Wikipedia links**", "**generic**", "**your mix**", "**country space**",
                                "**occupation space**"]
    links = [b.label for b in cards(at, "links")]  # ordered by generic similarity (explore/links_column.py)
    assert sorted(links) == ["Person 12", "Person 27", "Person 8"]
    notes = grid_text(at)
    assert "ordered by similarity to the seed" in notes
    assert len(cards(at, "aspect:country")) == 5
    assert "approximation of the lead's hyperlinks" in notes
    assert any("CC BY-SA" in c.value for c in at.sidebar.caption)
    # Country neighbours share Person 7's country, and the chip says so.
    assert all({"text": "country: Japan", "inferred": False, "help": ""} in card.data["shared"]
               for card in cards(at, "aspect:country") if not card.data["missing"])
    assert "Similar overall" in notes and "ranked up when they share its country label" in notes
    columns = grid(at)["columns"]
    assert all(column["score_name"] in ("similarity", "mix score") for column in columns)
    assert all(card["score"] is not None and 0 <= card["bar"] <= 1 for column in columns[1:] for card in column["cards"])
    # Each card links to its own Explore address and, for an http(s) article, to the article itself.
    first = columns[1]["cards"][0]
    assert first["href"].startswith("?corpus=fixture&seed=") and first["read_label"] == "Read on Wikipedia"


def test_clicking_a_card_reseeds_and_back_returns(app):
    at = app(seed="Person 7")
    cards(at, "links")[0].click().run()
    assert seed_title(at) == "Person 8" and at.query_params["seed"] == "Person 8"
    assert crumbs(at) == ["Person 7", "*Person 8*"]
    panel_event(at, "nav", "back").run()
    assert seed_title(at) == "Person 7" and at.query_params["seed"] == "Person 7"
    assert crumbs(at) == ["*Person 7*", "(Person 8)"] and panel(at)["trail"]["forward"]


def test_k_and_blend_change_columns_and_url(app):
    at = app(seed="Person 3")
    panel_event(at, "layout", {"k": 8}).run()
    assert len(cards(at, "generic")) == 8 and at.query_params["k"] == "8"
    panel_event(at, "mix", {"weight": "links", "value": 0}).run()
    panel_event(at, "mix", {"weight": "country", "value": 0.7}).run()
    panel_event(at, "mix", {"weight": "occupation", "value": 0.3}).run()
    panel_event(at, "mix", {"weight": "generic", "value": 0}).run()
    assert "Your mix: 70% country similarity + 30% occupation similarity" in grid_text(at)
    blended = cards(at, "blend:country:0.7,occupation:0.3")
    assert len(blended) == 8
    assert at.query_params["blend"] == "country:0.7,occupation:0.3"


def test_the_mix_starts_from_the_seeds_aspects_and_its_links(app):
    at = app(seed="Person 3")
    assert mix_pills(at) == ["country", "occupation", "generic"]  # relevant first: generic's share (explore/mix.py)
    assert panel(at)["mix"]["links"]["share"] == DEFAULT_LINKS_SHARE  # explore/mix.py, measured
    assert headings(at)[2] == "**your mix**" and "blend" not in at.query_params  # the default is not written
    assert len(cards(at, "blend:links:0.05,country:0.19,occupation:0.19,generic:0.57")) == 5


def test_the_mix_pills_and_links_weight_rerank_the_column_on_the_same_rerun(app):
    at = app(seed="Person 3")
    panel_event(at, "mix", {"spaces": ["occupation"]}).run()
    assert at.query_params["blend"] == "links:0.05,occupation:0.95"
    assert len(cards(at, "blend:links:0.05,occupation:0.95")) == 5
    panel_event(at, "mix", {"links": 1.0}).run()
    assert at.query_params["blend"] == "links:1"
    linked = [b.label for b in cards(at, "blend:links:1")]
    assert linked == [b.label for b in cards(at, "links")]  # links alone: the links, in their order
    panel_event(at, "mix", {"links": 0.0}).run()
    assert at.query_params["blend"] == "country:0.2,occupation:0.2,generic:0.6"  # the seed's own aspects, generic


def test_a_seed_without_labels_leaves_its_aspect_spaces_out_in_one_line(app):
    at = app(seed="Person 105")
    assert headings(at) == ["**Wikipedia links**", "**generic**", "**your mix**"]
    assert panel_notes(at) == ["Person 105 has no country or occupation label, so the country and occupation spaces "
                               "are left out."]
    assert len(cards(at, "blend:links:0.05,generic:0.95")) == 5  # no aspect: links and overall similarity


def test_cards_shown_in_several_columns_say_where_else(app):
    at = app(seed="Person 7")
    assert any(card["also_in"] for column in grid(at)["columns"] for card in column["cards"])
    assert re.search(r"also in: [a-z ,]+", grid_text(at))


def test_blend_in_the_url_is_restored(app):
    at = app(seed="Person 3", blend="occupation:1", k="4")
    assert len(cards(at, "blend:occupation:1")) == 4
    assert mix_weights(at)["occupation"] == 1.0 and mix_weights(at)["links"] == 0
    assert mix_pills(at) == ["occupation"]


def test_a_url_weight_above_the_sliders_is_lowered_and_said(app):
    at = app(seed="Person 3", blend="occupation:2,country:0.5")
    warning = shown(at.warning[0].value)
    assert mix_weights(at)["occupation"] == 1.0
    assert mix_weights(at)["country"] == 0.5
    assert "occupation:2 lowered to 1" in warning
    assert at.query_params["blend"] == "occupation:1,country:0.5"
    assert len(cards(at, "blend:occupation:1,country:0.5")) == 5


def test_free_text_without_an_encoder_says_so_per_column(app):
    at = app(text="a Japanese painter")
    assert seed_title(at).startswith("Free text")
    notes = " ".join(panel_notes(at)) + grid_text(at)
    assert "Links need an article seed" in notes and "Free text cannot be encoded" in notes


def test_free_text_shows_readers_no_shell_command_and_maintainers_the_training(hostile, app, monkeypatch):
    """Issue #54 item 1: free-text Explore showed every reader "python -m training train …"."""
    monkeypatch.setenv("ASPECTNAV_STUDY_PASSWORD", "maintainers only")
    at = app(text="a painter", corpus=hostile.name)
    notes = " ".join(panel_notes(at))
    assert "No space yet for aspects" in notes and "python -m" not in notes and "Train" not in notes
    at.session_state["maintainer_unlocked"] = True  # what the maintainers' password leaves in the session
    at.run()
    assert "python -m training train" in " ".join(panel_notes(at))


def test_url_text_is_shown_escaped(app):
    at = app(text="[click](https://example.org) *now*")
    # The panel draws text with textContent: the title arrives as written, never as Markdown or markup.
    assert seed_title(at) == "Free text: “[click](https://example.org) *now*”"
    assert panel(at)["grid"]["seed"] == "[click](https://example.org) *now*"


def test_corpus_without_aspects_shows_links_and_generic_only(app):
    at = app(corpus="plain", seed="Person 2")
    assert headings(at) == ["**Wikipedia links**", "**generic**", "**your mix**"]


def test_k_and_blend_survive_a_visit_to_maps(app):
    at = app(seed="Person 3")
    panel_event(at, "layout", {"k": 8}).run()
    panel_event(at, "mix", {"weight": "country", "value": 0.5}).run()
    panel_event(at, "layout", {"per_row": 3}).run()
    at.switch_page("app_pages/maps.py").run()
    at.run()  # a second rerun on Maps, which draws k (among the maps' settings) but no mix
    assert map_settings(at)["k"]["value"] == 8
    # moving one weight starts from the mix on screen: the seed's default (links 0.05, its two aspects)
    assert at.query_params["k"] == "8" and at.query_params["blend"] == "links:0.05,country:0.5,occupation:0.19,generic:0.57"
    at.switch_page("app_pages/explore.py").run()
    assert grid(at)["k"] == 8 and mix_weights(at)["country"] == 0.5
    assert grid(at)["per_row"] == 3
    assert len(cards(at, "generic")) == 8


def test_switching_corpus_drops_the_seed_and_keeps_k_and_blend(app):
    at = app(seed="Person 3", k="8", blend="country:0.5")
    at.sidebar.selectbox(key="corpus_picker").select("plain").run()
    assert "seed" not in at.query_params and "Pick a seed" in at.info[0].value
    assert at.query_params["corpus"] == "plain"
    assert at.query_params["k"] == "8" and at.query_params["blend"] == "country:0.5"
    view = at.session_state[VIEW_KEY]
    assert (view.corpus, view.seed_id, view.trail.seeds, view.k) == ("plain", None, [], 8)
    at.sidebar.selectbox(key="corpus_picker").select("fixture").run()
    at.text_input(key="seed_picker").input("Person 4").run()
    at.button(key="suggestion-p4").click().run()
    assert mix_weights(at)["country"] == 0.5 and len(cards(at, "generic")) == 8


def test_the_view_is_one_typed_object_in_session_state(app):
    at = app(seed="Person 7")
    cards(at, "links")[0].click().run()
    assert isinstance(at.session_state[VIEW_KEY], ExploreView)
    assert at.session_state[VIEW_KEY].trail.seeds == ["p7", "p8"]
    for loose in ("seed_id", "seed_text", "trail", "view_k", "view_blend", "url_written", "corpus"):
        assert loose not in at.session_state


def test_a_url_typed_later_in_the_session_is_adopted(app):
    at = app(seed="Person 7")
    at.query_params["seed"] = "Person 11"
    at.query_params["k"] = "3"
    at.run()
    assert seed_title(at) == "Person 11" and len(cards(at, "generic")) == 3
    assert at.session_state[VIEW_KEY].trail.seeds == ["p7", "p11"]


LONG_TITLE = "Person 0 " + "and an endless title " * 500  # over 10,000 characters


@pytest.fixture
def long_titled(app):
    """The fixture corpus, its first article titled with LONG_TITLE, stored as `longtitle`."""
    from dataclasses import replace

    from explore.corpus import store_corpus
    from explore.corpus.model import Corpus
    from tests.fixture_corpora import fixture_corpus

    base = fixture_corpus("longtitle")
    articles = [replace(base.articles[0], title=LONG_TITLE), *base.articles[1:]]
    store_corpus(Corpus("longtitle", articles, base.provenance))
    return app


def test_a_10000_character_title_is_one_short_line_in_the_trail_and_the_suggestions(long_titled):
    """Issue #49 item 8: the title filled the first screen through the trail; now each one-line place cuts it, the
    whole title on hover, and the seed's card shows it in full."""
    at = long_titled(seed="p0", corpus="longtitle")
    assert panel(at)["seed_card"]["title"] == LONG_TITLE  # the card itself: in full
    cards(at, "links")[0].click().run()
    crumb = panel(at)["trail"]["crumbs"][0]
    assert len(crumb["title"]) <= 64 and crumb["title"].endswith("…") and crumb["full"] == LONG_TITLE
    at.text_input(key="seed_picker").input("endless title").run()
    suggestion = at.button(key="suggestion-p0")
    assert len(suggestion.label) <= 64 and LONG_TITLE.strip()[:40] in suggestion.help.replace("\\", "")
