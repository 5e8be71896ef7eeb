"""Maps' plots, each drawn by its own 2-D canvas renderer (map_view.js, map_chart.js) in the Maps page's panel
(app_views/maps_panel) and kept across reruns: a changed figure is drawn by the same view, so the reader's zoom, tool
and hidden labels stay while the figure's `uirevision` does. The figure is the plotly figure app_views/figures.py
builds (its tests and the page's events read it); the renderer draws the part of it these maps use. Plotly.js's WebGL
made three contexts per map, and without a GPU (software WebGL) their set-up and first draws cost more than the rest
of the page. Clicks and selections come back as typed events (events.py).
"""
from __future__ import annotations

from pathlib import Path

import plotly.graph_objects as go

from app_views.map_chart.layer_store import layers_served, publish
from app_views.map_chart.payload import MapLayer, figure_json

HERE = Path(__file__).resolve().parent
SCRIPTS = (HERE / "map_view.js", HERE / "map_chart.js")  # the renderer, then drawMap, which uses it
CSS = HERE / "map_chart.css"


def map_data(figure: go.Figure, dense: bool = False, under: MapLayer | None = None, inline: bool = False) -> dict:
    """What map_chart.js draws: `figure` over the traces of `under` (a page's labelled points: the figure then holds
    only what marks the seed; a legend index counts `under`'s traces first); a `dense` map (drawn by density) also
    sends its zoom or pan. Where the server serves map layers, `under` goes as an address the browser fetches once,
    unless `inline` (the browser said it could not load one: events.PointsUnserved)."""
    address = publish(under.json, under.digest, under.key) if under and layers_served() and not inline else ""
    return {"spec": figure_json(figure), "height": figure.layout.height or 640, "dense": dense,
            "under": "" if address else under.json if under else "[]", "underUrl": address,
            "underKey": under.key if under else ""}
