"""ExploreView without Streamlit: URL adoption, corpus switches, the trail, blend weights."""
from app_views.url_state import DEFAULT_K
from app_views.view_state import ExploreView, fit_to_sliders
from explore.query import Blend
from tests.fixture_corpora import fixture_corpus

CORPUS = fixture_corpus()


def test_a_loaded_url_sets_seed_k_and_blend_once():
    view = ExploreView(corpus="fixture")
    url = {"corpus": "fixture", "seed": "person 7", "k": "8", "blend": "country:0.5"}
    assert view.adopt(url, CORPUS) == []
    assert (view.seed_id, view.k, view.blend, view.trail.seeds) == ("p7", 8, Blend.of({"country": 0.5}), ["p7"])
    view.set_seed("p8")  # the user moves on; the same URL again (not yet rewritten) changes nothing
    assert view.adopt(url, CORPUS) == [] and view.seed_id == "p8"
    assert view.url_query(CORPUS) == {"seed": "Person 8", "k": "8", "blend": "country:0.5"}


def test_a_url_the_view_wrote_is_not_adopted_again_but_a_new_one_is():
    view = ExploreView(corpus="fixture")
    view.set_seed("p3")
    view.url_written = view.url_query(CORPUS)
    view.set_seed("p4")
    assert view.adopt({"seed": "Person 3"}, CORPUS) == [] and view.seed_id == "p4"
    assert view.adopt({"text": "a painter", "k": "2"}, CORPUS) == []
    assert (view.seed_id, view.text, view.k) == (None, "a painter", 2)
    assert view.url_query(CORPUS) == {"text": "a painter", "k": "2"}


def test_an_empty_url_keeps_the_view():
    view = ExploreView(corpus="fixture", k=9)
    view.set_seed("p3")
    assert view.adopt({"corpus": "fixture"}, CORPUS) == [] and (view.seed_id, view.k) == ("p3", 9)


def test_problems_are_reported_and_the_rest_adopted():
    view = ExploreView(corpus="fixture")
    problems = view.adopt({"seed": "Persn 4", "k": "many", "blend": "occupation:3,country:0.5"}, CORPUS)
    assert view.seed_id is None and view.k == DEFAULT_K
    assert view.blend == Blend.of({"occupation": 1, "country": 0.5})
    assert any("'many'" in p for p in problems) and any("occupation:3 lowered to 1" in p for p in problems)
    # the unknown seed is no problem line: the seed picker offers the closest titles, and the URL keeps it
    assert view.missing_seed == "Persn 4" and not any("Persn" in p for p in problems)
    assert view.url_query(CORPUS)["seed"] == "Persn 4"
    view.set_seed("p4")
    assert view.missing_seed is None and view.url_query(CORPUS)["seed"] == "Person 4"


def test_a_url_seed_in_another_case_or_without_accents_is_found():
    view = ExploreView(corpus="fixture")
    assert view.adopt({"seed": "PERSON 7"}, CORPUS) == [] and view.seed_id == "p7"


def test_switching_corpus_drops_seed_and_trail_and_keeps_k_and_blend():
    view = ExploreView(corpus="fixture", k=8, blend=Blend.of({"country": 0.5}))
    view.set_seed("p3")
    view.url_written = view.url_query(CORPUS)
    view.switch_corpus("plain")
    assert (view.corpus, view.seed_id, view.text, view.trail.seeds, view.url_written) == ("plain", None, None, [], None)
    assert view.k == 8 and view.blend == Blend.of({"country": 0.5})
    view.set_seed("p1")
    view.switch_corpus("plain")  # the same corpus: nothing is forgotten
    assert view.seed_id == "p1"


def test_trail_back_and_jump_move_the_seed():
    view = ExploreView(corpus="fixture")
    for seed in ("p1", "p2", "p3"):
        view.set_seed(seed)
    view.back()
    assert view.seed_id == "p2" and view.trail.seeds == ["p1", "p2", "p3"]
    view.forward()
    assert view.seed_id == "p3"
    view.jump(0)
    assert view.seed_id == "p1" and view.trail.seeds == ["p1", "p2", "p3"]
    view.back()  # nothing before the first seed
    assert view.seed_id == "p1"
    view.set_seed("p5")  # a new seed from an earlier place drops the forward part
    assert view.trail.seeds == ["p1", "p5"]
    view.set_seed(None, "free text")  # a free-text seed leaves the trail as it is
    assert (view.seed_id, view.text, view.trail.seeds) == (None, "free text", ["p1", "p5"])


def test_switching_mode_leaves_nothing_of_the_other_mode():
    view = ExploreView(corpus="fixture")
    view.set_seed("p3")
    view.switch_mode(text_mode=True)
    assert (view.text_mode, view.seed_id, view.text) == (True, None, None)
    view.set_seed(None, "a painter")
    assert view.text_mode and view.text == "a painter"
    view.switch_mode(text_mode=False)  # back to the article the trail stands on; the free text is gone
    assert (view.text_mode, view.seed_id, view.text) == (False, "p3", None)
    view.switch_mode(text_mode=False)  # the same mode: nothing changes
    assert view.seed_id == "p3"


def test_slider_weights_make_and_unmake_the_blend():
    view = ExploreView()
    view.set_weight("country", 0.7)
    view.set_weight("occupation", 0.3)
    assert str(view.blend) == "country:0.7,occupation:0.3"
    view.set_weight("country", 0)
    assert str(view.blend) == "occupation:0.3"
    view.set_weight("occupation", 0)
    assert view.blend is None


def test_fit_to_sliders_leaves_weights_in_range_alone():
    blend = Blend.of({"country": 1, "occupation": 0.2})
    assert fit_to_sliders(blend) == (blend, []) and fit_to_sliders(None) == (None, [])


def test_a_link_to_another_seed_keeps_k_and_blend():
    view = ExploreView(corpus="fixture", k=8, blend=Blend.of({"country": 0.5}), text="painters")
    assert view.url_query(CORPUS, seed_id="p11") == {"seed": "Person 11", "k": "8", "blend": "country:0.5"}


def test_the_browsers_back_and_forward_move_along_the_trail_instead_of_adding_to_it():
    view = ExploreView(corpus="fixture")
    for article_id in ("p1", "p2", "p3"):  # card clicks: each writes its URL
        view.set_seed(article_id)
        view.url_written = view.url_query(CORPUS)
    for title, position in (("Person 2", 1), ("Person 1", 0), ("Person 2", 1)):  # Back, Back, Forward
        view.adopt({"seed": title}, CORPUS)
        view.url_written = view.url_query(CORPUS)
        assert (view.trail.seeds, view.trail.position) == (["p1", "p2", "p3"], position)
    assert view.trail.forward_part == ["p3"]


def test_columns_per_row_live_in_the_url_beside_k():
    view = ExploreView(corpus="fixture")
    assert view.adopt({"seed": "Person 3", "k": "8", "cols": "6"}, CORPUS) == []
    assert (view.k, view.per_row) == (8, 6)
    assert view.url_query(CORPUS) == {"seed": "Person 3", "k": "8", "cols": "6"}
    view.per_row = 4  # the default is left out of the URL
    assert "cols" not in view.url_query(CORPUS)
    assert view.adopt({"seed": "Person 3", "cols": "x"}, CORPUS) == ["cols='x' ignored: not a whole number"]
    assert view.adopt({"seed": "Person 3", "cols": "99"}, CORPUS) == [] and view.per_row == 10
