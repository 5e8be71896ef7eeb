from app_views.url_state import DEFAULT_K, ViewState, parse_blend, parse_query, to_query
from explore.query import Blend


def test_round_trip():
    state = ViewState(seed="Marie Curie", k=8, blend=Blend.of({"occupation": 0.7, "country": 0.3}))
    query = to_query(state)
    assert query == {"seed": "Marie Curie", "k": "8", "blend": "occupation:0.7,country:0.3"}
    back = parse_query(query)
    assert (back.seed, back.k, back.blend, back.problems) == ("Marie Curie", 8, state.blend, [])


def test_defaults_stay_out_of_the_url_and_free_text_is_kept():
    assert to_query(ViewState()) == {}
    assert to_query(ViewState(text="french painters")) == {"text": "french painters"}
    assert parse_query({"text": " french painters "}).text == "french painters"


def test_bad_values_fall_back_with_a_problem_naming_the_bad_part():
    state = parse_query({"seed": "X", "k": "many", "blend": "country:2,occupation,generic:0.5"})
    assert state.k == DEFAULT_K and state.blend is None and len(state.problems) == 2
    assert "'occupation'" in state.problems[1]
    assert parse_query({"k": "1000"}).k == 50
    assert parse_blend("a:0,b:0.4") == (Blend.of({"b": 0.4}), [])


def test_the_old_blend_spelling_is_read_with_a_deprecation_notice():
    blend, problems = parse_blend("occupation=0.7")
    assert blend == Blend.of({"occupation": 0.7})
    assert len(problems) == 1 and "occupation:0.7" in problems[0]
