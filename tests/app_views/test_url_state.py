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


def test_the_maps_part_of_the_url_round_trips_and_leaves_defaults_out():
    from app_views.url_state import MapState, map_query, parse_map_query

    state = MapState(left="generic", right="country", colour="topic", mark="Paris", regions=False)
    query = map_query(state)
    assert query == {"left": "generic", "right": "country", "colour": "topic", "mark": "Paris", "regions": "off"}
    back = parse_map_query(query)
    assert (back.left, back.right, back.colour, back.mark, back.regions, back.problems) == \
        ("generic", "country", "topic", "Paris", False, [])
    assert map_query(MapState()) == {}  # regions on is the default


def test_the_projection_choice_round_trips_through_the_url_and_a_bad_one_is_reported():
    from app_views.url_state import MapState, map_query, parse_map_query
    from explore.maps import Projector

    query = map_query(MapState(left="generic", projector=Projector.UMAP))
    assert query == {"left": "generic", "proj": "umap"}
    assert parse_map_query(query).projector is Projector.UMAP and parse_map_query(query).problems == []
    assert "proj" not in map_query(MapState(projector=Projector.TSNE))  # the default is left out
    bad = parse_map_query({"proj": "pca"})
    assert bad.projector is Projector.TSNE and len(bad.problems) == 1 and "proj='pca'" in bad.problems[0]


def test_a_bad_regions_value_is_reported_and_regions_stay_on():
    from app_views.url_state import parse_map_query

    state = parse_map_query({"regions": "maybe", "left": "  ", "mark": " Tokyo "})
    assert state.regions and state.left is None and state.mark == "Tokyo"
    assert len(state.problems) == 1 and "regions='maybe'" in state.problems[0]


def test_the_explore_view_ignores_the_maps_part_of_the_url():
    """A Maps URL (?seed=..&left=..) is the seed's URL plus the map's own part: the view must not read the map's
    part as a typed URL on every rerun."""
    from app_views.view_state import ExploreView
    from tests.fixture_corpora import fixture_corpus

    corpus = fixture_corpus()
    view = ExploreView(corpus="fixture")
    assert view.adopt({"seed": "Person 7", "left": "generic", "mark": "Person 9"}, corpus) == []
    assert view.seed_id == "p7"
    assert view.url_written == {"seed": "Person 7"}
    view.set_seed("p9")
    assert view.adopt({"seed": "Person 7", "left": "country"}, corpus) == [] and view.seed_id == "p9"  # unchanged URL


def test_the_read_more_column_is_kept_in_the_url_and_a_bad_value_is_named():
    assert to_query(ViewState(seed="Jazz", read_more=True)) == {"seed": "Jazz", "readmore": "1"}
    assert parse_query({"seed": "Jazz", "readmore": "1"}).read_more
    assert not parse_query({"seed": "Jazz", "readmore": "off"}).read_more
    state = parse_query({"readmore": "maybe"})
    assert not state.read_more and state.problems == ["readmore='maybe' ignored: say readmore=1 to show Wikipedia's "
                                                      "Read more"]
