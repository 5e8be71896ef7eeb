"""Maps' plots as a Streamlit v2 component (map_chart.js) that keeps its Plotly graph, and so its WebGL scene, across
reruns: a changed figure is drawn into the same graph with Plotly.react. st.plotly_chart keys its element by a hash
of the figure, so every new seed, mark or selection mounted a new graph with new WebGL contexts (most of a seed
change's time in the browser). Plotly.js is the plotly package's own copy, served from the app's static folder
(static_script.py); clicks and selections come back as typed events (events.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import plotly.graph_objects as go
import plotly.io as pio

from app_views.event_component import mount_event_component
from app_views.map_chart.events import TRIGGERS, MapEvent, parse_map_event
from app_views.map_chart.static_script import plotly_script_url

HERE = Path(__file__).resolve().parent
COMPONENT_NAME = "aspectnav_map_chart"


def map_chart(figure: go.Figure, key: str, on_event: Callable[[MapEvent], None], dense: bool = False) -> None:
    """Draw `figure` in the map called `key` (the same key keeps the same graph); a reader's click or selection
    calls `on_event(event)` before the page reruns, and on a `dense` map (drawn by density) a zoom or pan too."""
    data = {"spec": pio.to_json(figure, validate=False), "plotly": plotly_script_url(),
            "height": figure.layout.height or 640, "dense": dense}
    mount_event_component(COMPONENT_NAME, HERE / "map_chart.js", data, key, TRIGGERS, parse_map_event, on_event)
