"""Maps' plots as a Streamlit v2 component that draws each map with its own 2-D canvas renderer (map_view.js) and
keeps it across reruns: a changed figure is drawn by the same view, so the reader's zoom, tool and hidden labels stay
while the figure's `uirevision` does. The figure is the plotly figure app_views/figures.py builds (its tests and the
page's events read it); the renderer draws the part of it these maps use. Plotly.js's WebGL made three contexts per
map, and without a GPU (software WebGL) their set-up and first draws cost more than the rest of the page. Clicks and
selections come back as typed events (events.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import plotly.graph_objects as go

from app_views.event_component import mount_event_component
from app_views.map_chart.events import TRIGGERS, MapEvent, parse_map_event
from app_views.map_chart.layer_store import layers_served, publish
from app_views.map_chart.payload import MapLayer, figure_json

HERE = Path(__file__).resolve().parent
COMPONENT_NAME = "aspectnav_map_chart"
SCRIPTS = (HERE / "map_view.js", HERE / "map_chart.js")  # the renderer, then the component that uses it


def map_chart(figure: go.Figure, key: str, on_event: Callable[[MapEvent], None], dense: bool = False,
              under: MapLayer | None = None, inline: bool = False) -> None:
    """Draw `figure` in the map called `key` (the same key keeps the same view), over the traces of `under` (a
    page's labelled points: the figure then holds only what marks the seed; a legend index counts `under`'s traces
    first); a reader's click or selection calls `on_event(event)` before the page reruns, and on a `dense` map
    (drawn by density) a zoom or pan too. Where the server serves map layers, `under` goes as an address the
    browser fetches once, unless `inline` (the browser said it could not load one: events.PointsUnserved)."""
    address = publish(under.json, under.digest, under.key) if under and layers_served() and not inline else ""
    data = {"spec": figure_json(figure), "height": figure.layout.height or 640, "dense": dense,
            "under": "" if address else under.json if under else "[]", "underUrl": address,
            "underKey": under.key if under else ""}
    mount_event_component(COMPONENT_NAME, SCRIPTS, data, key, TRIGGERS, parse_map_event, on_event,
                          css=HERE / "map_chart.css")
