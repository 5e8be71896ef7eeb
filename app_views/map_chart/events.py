"""What a reader does on a map, as typed events: the map's script (map_chart.js) sends a trigger with a JSON value,
`parse_map_event` turns it into one of the types below, or None for anything malformed (logged and ignored).
Streamlit-free, so tests drive the same code the page's callback runs."""
from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Union

import numpy as np
import plotly.graph_objects as go

from explore.map_density import bounded_view, rows_in_box, rows_in_polygon

CLICK, AREA, CLEAR, VIEW = "click", "area", "clear", "view"  # the map's triggers (map_chart.js sends these)
UNSERVED = "unserved"  # the map's points did not load from their address
TRIGGERS = (CLICK, AREA, CLEAR, VIEW, UNSERVED)
MAX_SHAPES = 16  # boxes and lassos in one selection (a reader draws one; shift adds a few)
log = logging.getLogger("aspectnav.map_chart")


@dataclass(frozen=True)
class PointClicked:
    """A point clicked: that article is marked in both maps."""
    article_id: str


@dataclass(frozen=True)
class AreaChosen:
    """A box or lasso dragged: the articles inside it are chosen in both maps, except those of labels the reader
    hid in the legend (`hidden`: the figure's trace indices)."""
    boxes: tuple[tuple[float, float, float, float], ...]
    lassos: tuple[tuple[tuple[float, float], ...], ...]
    hidden: frozenset[int] = frozenset()

    def rows_in(self, coords: np.ndarray) -> np.ndarray:
        """The rows of `coords` inside any of the shapes, each once, in row order."""
        found = [rows_in_box(coords, (x0, x1), (y0, y1)) for x0, x1, y0, y1 in self.boxes]
        found += [rows_in_polygon(coords, [x for x, _ in lasso], [y for _, y in lasso]) for lasso in self.lassos]
        return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)

    def ids_on_map(self, ids: Sequence[str], coords: np.ndarray, traces: Sequence[go.Scattergl]) -> list[str]:
        """The ids of a map's points (`ids` at `coords`) inside the shapes, but those of the `traces` (the map's, in
        the renderer's order) hidden in the legend (a reader who hid a label does not choose its points)."""
        hidden = set()
        for index in self.hidden:
            if index < len(traces) and traces[index].customdata is not None:
                hidden.update(traces[index].customdata)
        return [ids[row] for row in self.rows_in(coords) if ids[row] not in hidden]


@dataclass(frozen=True)
class Unmarked:
    """A click on nothing (or a double-click in a selection tool): the marked article is unmarked."""


@dataclass(frozen=True)
class ViewChanged:
    """A density map zoomed or panned by hand (map_chart.js sends it only for those): the image of what it now
    shows is aggregated anew, so a closer look is drawn at the screen's resolution, not the whole image enlarged.
    `x_range`/`y_range` None: the whole map again."""
    x_range: tuple[float, float] | None
    y_range: tuple[float, float] | None

    def looked_at(self, coords: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The ranges worth keeping and drawing for a map of `coords`: any finite range can arrive, so it is cut to
        the data and a margin (map_density.bounded_view) before any work; None for the whole map."""
        return bounded_view(self.x_range, self.y_range, coords) if self.x_range and self.y_range else None


@dataclass(frozen=True)
class PointsUnserved:
    """The map's labelled points did not load from the address they were given (another server process behind a
    proxy that spreads requests, a layer no longer kept): the page sends them in the map's data from then on."""
    status: int


MapEvent = Union[PointClicked, AreaChosen, Unmarked, ViewChanged, PointsUnserved]


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and \
        math.isfinite(value) else None


def _box(value: object) -> tuple[float, float, float, float] | None:
    numbers = [_number(v) for v in value] if isinstance(value, list) and len(value) == 4 else [None]
    return tuple(numbers) if None not in numbers else None  # type: ignore[return-value]


def _lasso(value: object) -> tuple[tuple[float, float], ...] | None:
    if not isinstance(value, list) or len(value) < 3:
        return None
    vertices = [tuple(_number(v) for v in vertex) if isinstance(vertex, list) and len(vertex) == 2 else (None,)
                for vertex in value]
    return tuple(vertices) if all(None not in vertex for vertex in vertices) else None  # type: ignore[return-value]


def _area(value: dict) -> AreaChosen | None:
    boxes, lassos, hidden = value.get("boxes", []), value.get("lassos", []), value.get("hidden", [])
    if not all(isinstance(v, list) for v in (boxes, lassos, hidden)) or not 0 < len(boxes) + len(lassos) <= MAX_SHAPES:
        return None
    parsed_boxes, parsed_lassos = [_box(b) for b in boxes], [_lasso(shape) for shape in lassos]
    if None in parsed_boxes or None in parsed_lassos or not all(isinstance(i, int) and i >= 0 for i in hidden):
        return None
    return AreaChosen(tuple(parsed_boxes), tuple(parsed_lassos), frozenset(hidden))  # type: ignore[arg-type]


def _range(value: object) -> tuple[float, float] | None:
    low, high = (_number(v) for v in value) if isinstance(value, list) and len(value) == 2 else (None, None)
    return (low, high) if low is not None and high is not None and low < high else None


def _view(value: dict) -> ViewChanged | None:
    if value.get("whole") is True:
        return ViewChanged(None, None)
    x_range, y_range = _range(value.get("x")), _range(value.get("y"))
    return ViewChanged(x_range, y_range) if x_range and y_range else None


def parse_map_event(trigger: str, value: object) -> MapEvent | None:
    """The event a trigger's value stands for; None when the value is not one the map sends."""
    if trigger == CLICK and isinstance(value, str) and value:
        return PointClicked(value)
    if trigger == AREA and isinstance(value, dict) and (area := _area(value)) is not None:
        return area
    if trigger == CLEAR and value is True:
        return Unmarked()
    if trigger == VIEW and isinstance(value, dict) and (view := _view(value)) is not None:
        return view
    if trigger == UNSERVED and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1000:
        return PointsUnserved(value)
    log.warning("Ignored a map event the page does not send: %s=%r", trigger, value)
    return None
