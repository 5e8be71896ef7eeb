from explore.url_state import DEFAULT_K, ViewState, parse_blend, parse_query, to_query


def test_round_trip():
    state = ViewState(seed="Marie Curie", k=8, blend={"aspect:occupation": 0.7, "aspect:country": 0.3})
    query = to_query(state)
    assert query == {"seed": "Marie Curie", "k": "8", "blend": "aspect:occupation:0.7,aspect:country:0.3"}
    back = parse_query(query)
    assert (back.seed, back.k, back.blend, back.problems) == ("Marie Curie", 8, state.blend, [])


def test_defaults_stay_out_of_the_url_and_free_text_is_kept():
    assert to_query(ViewState()) == {}
    assert to_query(ViewState(text="french painters")) == {"text": "french painters"}
    assert parse_query({"text": " french painters "}).text == "french painters"


def test_bad_values_fall_back_with_a_problem():
    state = parse_query({"seed": "X", "k": "many", "blend": "country:2,occupation,generic:0.5"})
    assert state.k == DEFAULT_K and state.blend == {"generic": 0.5} and len(state.problems) == 3
    assert parse_query({"k": "1000"}).k == 50
    assert parse_blend("a:0,b:0.4") == ({"b": 0.4}, [])
