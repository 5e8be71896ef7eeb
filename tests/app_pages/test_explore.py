"""Explore through AppTest on the fixture corpus: seed, columns, reseed, trail, k, blend, URL, bad input."""
import re

from app_views.view_session import VIEW_KEY
from app_views.view_state import ExploreView


def shown(markdown: str) -> str:
    """Escaped Markdown as the reader sees it (backslash escapes removed)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def headings(at):
    return [shown(m.value) for m in at.markdown if m.value.startswith("**")]


def cards(at, kind):
    return [b for b in at.button if b.key and b.key.startswith(f"card-{kind}-")]


def test_seed_from_url_shows_card_and_all_columns(app):
    at = app(seed="Person 7")
    assert at.subheader[0].value == "Person 7"
    body = " ".join(m.value for m in at.markdown)
    assert "country: Japan" in body and "en.wikipedia.org/wiki/Person_7" in body
    assert headings(at)[:4] == ["**Wikipedia links**", "**generic**", "**country space**", "**occupation space**"]
    assert [b.label for b in cards(at, "links")] == ["Person 8", "Person 12", "Person 27"]
    assert len(cards(at, "aspect:country")) == 5
    assert any("approximation of the lead's hyperlinks" in c.value for c in at.caption)
    assert any("CC BY-SA" in c.value for c in at.sidebar.caption)
    # Country neighbours share Person 7's country, and the chip says so.
    assert "green-badge[country: Japan]" in body


def test_clicking_a_card_reseeds_and_back_returns(app):
    at = app(seed="Person 7")
    cards(at, "links")[0].click().run()
    assert at.subheader[0].value == "Person 8" and at.query_params["seed"] == "Person 8"
    assert [b.label for b in at.button if b.key and b.key.startswith("crumb-")] == ["Person 7", "Person 8"]
    at.button(key="back").click().run()
    assert at.subheader[0].value == "Person 7" and at.query_params["seed"] == "Person 7"


def test_picking_a_seed_with_the_type_ahead(app):
    at = app()
    assert "Pick a seed" in at.info[0].value
    at.selectbox(key="seed_picker").select("p42").run()
    assert at.subheader[0].value == "Person 42" and at.query_params["seed"] == "Person 42"


def test_k_and_blend_change_columns_and_url(app):
    at = app(seed="Person 3")
    at.sidebar.slider(key="k").set_value(8).run()
    assert len(cards(at, "generic")) == 8 and at.query_params["k"] == "8"
    at.sidebar.slider(key="blend_country").set_value(0.7).run()
    at.sidebar.slider(key="blend_occupation").set_value(0.3).run()
    assert any(h.startswith("**custom blend: 0.7 country + 0.3 occupation") for h in headings(at))
    blended = cards(at, "blend:country:0.7,occupation:0.3")
    assert len(blended) == 8
    assert at.query_params["blend"] == "country:0.7,occupation:0.3"


def test_blend_in_the_url_is_restored(app):
    at = app(seed="Person 3", blend="occupation:1", k="4")
    assert len(cards(at, "blend:occupation:1")) == 4
    assert at.sidebar.slider(key="blend_occupation").value == 1.0


def test_a_url_weight_above_the_sliders_is_lowered_and_said(app):
    at = app(seed="Person 3", blend="occupation:2,country:0.5")
    assert at.sidebar.slider(key="blend_occupation").value == 1.0
    assert at.sidebar.slider(key="blend_country").value == 0.5
    assert "occupation:2 lowered to 1" in shown(at.warning[0].value)
    assert at.query_params["blend"] == "occupation:1,country:0.5"
    assert len(cards(at, "blend:occupation:1,country:0.5")) == 5


def test_unknown_seed_suggests_titles(app):
    at = app(seed="Persn 4")
    assert "No article titled 'Persn 4'" in at.warning[0].value and "Person 4" in at.warning[0].value


def test_free_text_without_an_encoder_says_so_per_column(app):
    at = app(text="a Japanese painter")
    assert at.subheader[0].value.startswith("Free text")
    notes = " ".join(c.value for c in at.caption)
    assert "Links need an article seed" in notes and "Free text cannot be encoded" in notes


def test_url_text_is_shown_escaped(app):
    at = app(text="[click](https://example.org) *now*")
    # The word joiner (U+2060) after "https" keeps GFM from linking the bare address the escapes leave.
    assert at.subheader[0].value == "Free text: “\\[click\\]\\(https\u2060\\://example\\.org\\) \\*now\\*”"


def test_corpus_without_aspects_shows_links_and_generic_only(app):
    at = app(corpus="plain", seed="Person 2")
    assert headings(at) == ["**Wikipedia links**", "**generic**"]


def test_k_and_blend_survive_a_visit_to_maps(app):
    at = app(seed="Person 3")
    at.sidebar.slider(key="k").set_value(8).run()
    at.sidebar.slider(key="blend_country").set_value(0.5).run()
    at.sidebar.slider(key="columns_per_row").set_value(3).run()
    at.switch_page("app_pages/maps.py").run()
    at.run()  # a second rerun on Maps, which draws k but no blend sliders
    assert at.sidebar.slider(key="k").value == 8
    assert at.query_params["k"] == "8" and at.query_params["blend"] == "country:0.5"
    at.switch_page("app_pages/explore.py").run()
    assert at.sidebar.slider(key="k").value == 8 and at.sidebar.slider(key="blend_country").value == 0.5
    assert at.sidebar.slider(key="columns_per_row").value == 3
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
    at.selectbox(key="seed_picker").select("p4").run()
    assert at.sidebar.slider(key="blend_country").value == 0.5 and len(cards(at, "generic")) == 8


def test_the_view_is_one_typed_object_in_session_state(app):
    at = app(seed="Person 7")
    cards(at, "links")[0].click().run()
    assert isinstance(at.session_state[VIEW_KEY], ExploreView)
    assert at.session_state[VIEW_KEY].trail.seeds == ["p7", "p8"]
    for loose in ("seed_id", "seed_text", "trail", "view_k", "view_blend", "url_written", "corpus"):
        assert loose not in at.session_state


def test_jumping_back_along_the_trail(app):
    at = app(seed="Person 7")
    cards(at, "links")[0].click().run()
    cards(at, "links")[0].click().run()
    assert [b.label for b in at.button if b.key and b.key.startswith("crumb-")] == ["Person 7", "Person 8",
                                                                                     "Person 9"]
    at.button(key="crumb-0").click().run()
    assert at.subheader[0].value == "Person 7" and at.query_params["seed"] == "Person 7"
    assert not [b for b in at.button if b.key and b.key.startswith("crumb-")]


def test_a_url_typed_later_in_the_session_is_adopted(app):
    at = app(seed="Person 7")
    at.query_params["seed"] = "Person 11"
    at.query_params["k"] = "3"
    at.run()
    assert at.subheader[0].value == "Person 11" and len(cards(at, "generic")) == 3
    assert at.session_state[VIEW_KEY].trail.seeds == ["p7", "p11"]
