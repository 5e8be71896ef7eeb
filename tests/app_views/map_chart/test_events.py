"""What a map's script sends, read as typed events: a click, a box or lasso (the rows inside it), a click on
nothing, a density map zoomed or panned; anything else ignored."""
import numpy as np

from app_views.figures import colour_map, map_figure
from app_views.map_chart.events import (AREA, CLEAR, CLICK, VIEW, AreaChosen, PointClicked, Unmarked, ViewChanged,
                                        parse_map_event)


def test_a_click_a_click_on_nothing_and_malformed_values():
    assert parse_map_event(CLICK, "p9") == PointClicked("p9")
    assert parse_map_event(CLEAR, True) == Unmarked()
    for trigger, value in ((CLICK, ""), (CLICK, 3), (CLEAR, "yes"), ("zoom", {}), (AREA, None), (AREA, {}),
                           (AREA, {"boxes": [[0, 1, 0]]}), (AREA, {"boxes": [[0, 1, 0, float("nan")]]}),
                           (AREA, {"lassos": [[[0, 0], [1, 1]]]}), (AREA, {"boxes": [[0, 1, 0, 1]], "hidden": [-1]}),
                           (AREA, {"boxes": [[0, 1, 0, 1]] * 17}), (AREA, {"boxes": [[True, 1, 0, 1]]})):
        assert parse_map_event(trigger, value) is None, (trigger, value)


def test_a_box_and_a_lasso_choose_every_row_inside_them():
    coords = np.array([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0], [9.0, 1.0]])
    box = parse_map_event(AREA, {"boxes": [[1.5, -0.5, -0.5, 1.5]], "lassos": [], "hidden": [2]})
    assert isinstance(box, AreaChosen) and box.hidden == frozenset({2})
    assert box.rows_in(coords).tolist() == [0, 1]
    both = parse_map_event(AREA, {"boxes": [[1.5, -0.5, -0.5, 1.5]],
                                  "lassos": [[[4, 0], [10, 0], [10, 6]]]})  # a triangle round (9, 1), not (5, 5)
    assert both.rows_in(coords).tolist() == [0, 1, 3]
    assert AreaChosen((), ()).rows_in(coords).tolist() == []


def test_on_a_map_the_points_of_a_label_hidden_in_the_legend_are_not_chosen():
    from tests.app_views.test_figures import points_of

    ranks = {"France": 0, "Japan": 1}
    points = points_of(["France", "Japan", "France", "Japan"], ["seed", "sample", "sample", "sample"], ranks)
    figure = map_figure(points, "map", colour_map(ranks))
    japan = next(index for index, trace in enumerate(figure.data) if trace.name.startswith("Japan"))
    everything = AreaChosen(((-1, 10, -1, 10),), ())  # points_of places point i at (2i, 2i + 1)
    assert everything.ids_on_map(points.ids, points.coords, figure.data) == ["a0", "a1", "a2", "a3"]
    assert AreaChosen(everything.boxes, (), frozenset({japan, 99})).ids_on_map(
        points.ids, points.coords, figure.data) == ["a0", "a2"]


def test_a_density_map_zoomed_or_shown_whole_and_views_it_does_not_send():
    assert parse_map_event(VIEW, {"x": [-1.5, 2], "y": [0, 3.25]}) == ViewChanged((-1.5, 2.0), (0.0, 3.25))
    assert parse_map_event(VIEW, {"whole": True}) == ViewChanged(None, None)
    for value in ({}, {"whole": "yes"}, {"x": [2, 1], "y": [0, 1]}, {"x": [0, 1]}, {"x": [0, 1], "y": [0, "1"]},
                  {"x": [0, float("inf")], "y": [0, 1]}, {"x": [0, 1, 2], "y": [0, 1]}, [0, 1, 0, 1], None):
        assert parse_map_event(VIEW, value) is None, value


def test_a_view_of_finite_but_absurd_ranges_is_kept_only_as_far_as_the_data_reaches():
    coords = np.array([[0.0, 0.0], [4.0, 2.0]])
    absurd = parse_map_event(VIEW, {"x": [-1.79e308, 1.79e308], "y": [-1.79e308, 1.79e308]})
    assert absurd.looked_at(coords) == ((-2.0, 6.0), (-1.0, 3.0))  # the data and half its size round it
    assert parse_map_event(VIEW, {"x": [1, 2], "y": [0, 1]}).looked_at(coords) == ((1.0, 2.0), (0.0, 1.0))
    assert parse_map_event(VIEW, {"x": [1e300, 1e301], "y": [0, 1]}).looked_at(coords) is None  # off the map
    assert ViewChanged(None, None).looked_at(coords) is None  # the whole map



def test_a_map_whose_points_did_not_load_says_so_with_the_answer_s_status():
    from app_views.map_chart.events import UNSERVED, PointsUnserved

    assert parse_map_event(UNSERVED, 404) == PointsUnserved(404)
    assert parse_map_event(UNSERVED, 0) == PointsUnserved(0)  # no answer at all
    assert parse_map_event(UNSERVED, True) is None and parse_map_event(UNSERVED, "404") is None
    assert parse_map_event(UNSERVED, 10_000) is None
