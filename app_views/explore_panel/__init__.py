"""Explore's panel: the trail, the seed's card, the mix and every column and card drawn as one element (a
Streamlit v2 component, explore_panel.js). A click sends one element instead of dozens of widgets, so the page
settles as fast as a plain one; the data is plain JSON (panel_data.py) and the script draws it with textContent
only, so corpus text stays text. What the reader does comes back as typed events (events.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from app_views.component_input import install_component_bounds
from app_views.explore_panel.events import TRIGGERS, PanelEvent, parse_event

HERE = Path(__file__).resolve().parent
PANEL_KEY = "explore-panel"
COMPONENT_NAME = "aspectnav_explore_panel"

_component = None


def _mount():
    global _component
    if _component is None:
        import streamlit as st

        install_component_bounds()  # what the browser sends back is bounded before it is parsed
        _component = st.components.v2.component(
            COMPONENT_NAME, css=(HERE / "explore_panel.css").read_text(encoding="utf-8"),
            js=(HERE / "explore_panel.js").read_text(encoding="utf-8"), isolate_styles=False)
    return _component


def explore_panel(data: dict, on_event: Callable[[PanelEvent], None]) -> None:
    """Mount the panel; a reader's action calls `on_event(event)` before the page reruns."""
    import streamlit as st

    def received(trigger: str) -> None:
        event = parse_event(trigger, (st.session_state.get(PANEL_KEY) or {}).get(trigger))
        if event is not None:
            on_event(event)

    callbacks = {f"on_{trigger}_change": (lambda trigger=trigger: received(trigger)) for trigger in TRIGGERS}
    _mount()(data=data, key=PANEL_KEY, **callbacks)
