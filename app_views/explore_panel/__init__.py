"""Explore's panel: the trail, the seed's card, the mix and every column and card drawn as one element (a
Streamlit v2 component, explore_panel.js). A click sends one element instead of dozens of widgets, so the page
settles as fast as a plain one; the data is plain JSON (panel_data.py) and the script draws it with textContent
only, so corpus text stays text. What the reader does comes back as typed events (events.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from app_views.event_component import mount_event_component
from app_views.explore_panel.events import TRIGGERS, PanelEvent, parse_event
from app_views.rich_line import RICH_LINE_JS

HERE = Path(__file__).resolve().parent
PANEL_KEY = "explore-panel"
COMPONENT_NAME = "aspectnav_explore_panel"


def explore_panel(data: dict, on_event: Callable[[PanelEvent], None]) -> None:
    """Mount the panel; a reader's action calls `on_event(event)` before the page reruns."""
    mount_event_component(COMPONENT_NAME, (RICH_LINE_JS, HERE / "explore_panel.js"), data, PANEL_KEY, TRIGGERS,
                          parse_event, on_event, css=HERE / "explore_panel.css")
