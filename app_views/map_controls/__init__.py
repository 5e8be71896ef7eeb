"""The Maps page's settings (the two spaces, the colouring, k, the sample's size, region names, the projection) as one
element: a Streamlit v2 component (map_controls.js) with the browser's own select, number and switch controls. As seven
Streamlit widgets they were most of what the browser did on a Maps open before the maps could draw. What the reader
sets comes back as one typed change (events.py) that the page keeps in its session state under the control's key."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

from app_views.event_component import mount_event_component
from app_views.map_controls.events import TRIGGERS, Choice, Control, ControlChange, Count, Switch, change_parser

HERE = Path(__file__).resolve().parent
COMPONENT_NAME = "aspectnav_map_controls"
KEY = "map-controls"

__all__ = ["COMPONENT_NAME", "KEY", "Choice", "ControlChange", "Count", "Switch", "controls_data", "map_controls"]


def controls_data(controls: Sequence[Control]) -> dict:
    """What the element draws: each control as plain JSON, in order, with its kind."""
    return {"controls": [{"kind": type(control).__name__.lower(), **asdict(control)} for control in controls]}


def map_controls(controls: Sequence[Control], on_change: Callable[[ControlChange], None]) -> None:
    """Mount the controls; a reader's change calls `on_change(change)` (checked against `controls`) before the page
    reruns."""
    mount_event_component(COMPONENT_NAME, HERE / "map_controls.js", controls_data(controls), KEY, TRIGGERS,
                          change_parser(controls), on_change, css=HERE / "map_controls.css")
