import json

import pytest

from app_views.map_controls import Choice, Count, Switch, controls_data
from app_views.map_controls.events import CHANGE, ControlChange, change_parser, control_of

CONTROLS = [Choice("map_left", "Left space", (("generic", "generic"), ("country", "country (aspect)")), "generic"),
            Choice("map_colour", "Colour by", (("", "(none)"),), "", disabled=True),
            Count("map_sample", "Points at most", 20_000, 50, 100_000, step=500, help="A sample."),
            Switch("map_regions", "Name regions", True)]
parse = change_parser(CONTROLS)


def test_the_drawn_json_names_each_kind_and_reads_back_as_the_same_controls():
    drawn = json.loads(json.dumps(controls_data(CONTROLS)))["controls"]
    assert [c["kind"] for c in drawn] == ["choice", "choice", "count", "switch"]
    assert drawn[0]["options"] == [["generic", "generic"], ["country", "country (aspect)"]]
    assert [control_of(c) for c in drawn] == CONTROLS


@pytest.mark.parametrize("key, value", [("map_left", "country"), ("map_sample", 60), ("map_sample", 100_000.0),
                                        ("map_regions", False)])
def test_a_change_the_controls_send_is_read(key, value):
    assert parse(CHANGE, {"key": key, "value": value}) == ControlChange(key, value)
    assert type(parse(CHANGE, {"key": key, "value": value}).value) is type(value if key != "map_sample" else 1)


@pytest.mark.parametrize("trigger, value", [
    (CHANGE, {"key": "map_left", "value": "<b>x</b>"}),  # not an option
    (CHANGE, {"key": "map_colour", "value": ""}),  # a disabled choice
    (CHANGE, {"key": "map_sample", "value": 49}), (CHANGE, {"key": "map_sample", "value": 100_001}),
    (CHANGE, {"key": "map_sample", "value": 60.5}), (CHANGE, {"key": "map_sample", "value": True}),
    (CHANGE, {"key": "map_sample", "value": float("nan")}), (CHANGE, {"key": "map_sample", "value": "60"}),
    (CHANGE, {"key": "map_regions", "value": 1}), (CHANGE, {"key": "map_right", "value": "generic"}),
    (CHANGE, {"key": ["map_left"], "value": "country"}), (CHANGE, {"value": "country"}), (CHANGE, "map_left"),
    (CHANGE, None), ("click", {"key": "map_left", "value": "country"}),
])
def test_anything_else_is_ignored_and_logged(trigger, value, caplog):
    assert parse(trigger, value) is None
    assert "Ignored a map-settings change" in caplog.text
