"""The Maps panel's events: a map's trigger names the map it came from; the list's and the marked row's choices
are the neighbour list's events; anything else is ignored."""
from __future__ import annotations

from app_views.map_chart.events import AreaChosen, PointClicked, Unmarked
from app_views.maps_panel.events import MAX_MAPS, OnMap, parse_panel_event
from app_views.neighbour_list.events import ExploreFrom, MapFrom


def test_a_map_s_trigger_comes_with_the_map_it_happened_on():
    assert parse_panel_event("click", {"map": 1, "value": "Pierre_Curie"}) == OnMap(1, PointClicked("Pierre_Curie"))
    assert parse_panel_event("clear", {"map": 0, "value": True}) == OnMap(0, Unmarked())
    area = parse_panel_event("area", {"map": 0, "value": {"boxes": [[0, 1, 0, 1]], "lassos": [], "hidden": [2]}})
    assert area == OnMap(0, AreaChosen(((0.0, 1.0, 0.0, 1.0),), (), frozenset({2})))


def test_map_from_and_explore_from_are_the_list_s_events():
    assert parse_panel_event("map_from", "Pierre_Curie") == MapFrom("Pierre_Curie")
    assert parse_panel_event("explore_from", "Pierre_Curie") == ExploreFrom("Pierre_Curie")


def test_what_the_panel_never_sends_is_ignored():
    for trigger, value in (("click", "Pierre_Curie"),  # a map's trigger without its map
                           ("click", {"map": MAX_MAPS, "value": "x"}), ("click", {"map": -1, "value": "x"}),
                           ("click", {"map": True, "value": "x"}), ("click", {"map": "0", "value": "x"}),
                           ("click", {"map": 0, "value": "x", "more": 1}), ("click", {"map": 0, "value": ""}),
                           ("pick", {"map": 0, "value": "x"}), ("map_from", {"map": 0, "value": "x"})):
        assert parse_panel_event(trigger, value) is None, (trigger, value)
