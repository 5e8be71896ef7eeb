"""Map figures as the JSON the renderer (map_view.js) reads: plotly's own figure format, numbers of long arrays as
base64 float32 (Plotly's typed-array form, a fifth of the text), no template. A page's labelled points, the same for
every seed, are a `MapLayer`, made into JSON once and sent beside each figure: the browser parses them again only when
their key changes."""
from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from app_views.map_chart.layer_store import content_digest

PLAIN_UP_TO = 64  # float arrays up to this long stay JSON numbers (the seed's, a neighbour's place: exact and legible)


def plain(value: object) -> object:
    """`value` (a plotly property) as JSON values: numpy arrays as lists, long float ones as base64 float32."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and len(value) > PLAIN_UP_TO and value.ndim == 1:
            return {"dtype": "f4", "bdata": base64.b64encode(value.astype("<f4").tobytes()).decode("ascii")}
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def traces_json(traces: Sequence[go.Scattergl]) -> str:
    """The traces as a JSON array."""
    return json.dumps([plain(trace.to_plotly_json()) for trace in traces], separators=(",", ":"))


def figure_json(figure: go.Figure) -> str:
    """The figure's traces and layout (without plotly's template, which the renderer does not read)."""
    layout = plain(figure.layout.to_plotly_json())
    layout.pop("template", None)
    return json.dumps({"data": [plain(trace.to_plotly_json()) for trace in figure.data], "layout": layout},
                      separators=(",", ":"))


@dataclass(frozen=True)
class MapLayer:
    """Traces drawn under a figure's own (a map's labelled points), kept by a page across reruns with their JSON.
    `key` names what they show: the same key, the same traces."""
    key: str
    traces: tuple[go.Scattergl, ...]
    json: str
    digest: str  # of `json` (layer_store.content_digest), made once: a page publishes the layer on every run

    @classmethod
    def of(cls, key: str, traces: Sequence[go.Scattergl]) -> "MapLayer":
        text = traces_json(traces)
        return cls(key, tuple(traces), text, content_digest(text))
