"""Every article of a large corpus on a map: its points aggregated into an image by datashader (one pixel's colour
the mix of its points' label colours, its alpha their density), and a box or lasso selecting from all of them by
its shape in map coordinates.

Why datashader (benchmarks/million_map.py, 1,000,000 points, 12 labels, two busy cores): it colours each pixel by its
points' labels, shades by density (histogram-equalised) and grows lone points, which a hand-written numpy count would
have to add; its numba aggregation takes 0.05-0.16 s once compiled (2 s the first time in a process), a bare numpy
`bincount` of the same pixels 0.03-0.19 s as the machine's load varied. A browser is sent one PNG per map (about
0.3-1.5 MB) instead of a million markers.
"""
from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

IMAGE_PX = (900, 700)  # the aggregate's pixels: about a map's size on the page, so a pixel is a screen pixel
MIN_ALPHA = 150  # the faintest occupied pixel's alpha (0-255): a lone article stays visible
SPREAD_PX = 2  # sparse pixels are grown up to this many pixels (datashader's dynspread), dense ones are not
# How far past the data a view may reach, in shares of the data's extent on either side: room to pan a little past
# the edge. A view asking for more (a range of ±1e308 cost seconds of aggregation and overflow warnings) is cut here.
VIEW_MARGIN = 0.5
# A view narrower than this share of the data's extent is widened round its centre: its pixels would be finer than
# the coordinates can tell apart.
MIN_VIEW_SHARE = 1e-6


@dataclass(frozen=True)
class DensityImage:
    """A map's points as a PNG (`data_uri`) covering `x_range` × `y_range` in map coordinates, and how many
    points it represents."""

    data_uri: str
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    points: int


def padded_range(values: np.ndarray, pad: float = 0.02) -> tuple[float, float]:
    """The extent of `values` widened by `pad` of it on either side (a single value gets a unit width)."""
    low, high = float(np.min(values)), float(np.max(values))
    margin = (high - low) * pad or 0.5
    return low - margin, high + margin


def bounded_range(requested: tuple[float, float], low: float, high: float) -> tuple[float, float] | None:
    """`requested` cut to the data's extent [`low`, `high`] widened by VIEW_MARGIN of it on either side, and at least
    MIN_VIEW_SHARE of it wide; None when it misses that altogether (nothing of the data to see there)."""
    extent = (high - low) or 1.0
    first, last = max(float(requested[0]), low - VIEW_MARGIN * extent), min(float(requested[1]), high + VIEW_MARGIN * extent)
    if not first < last:
        return None
    if last - first < MIN_VIEW_SHARE * extent:
        middle, half = first / 2 + last / 2, MIN_VIEW_SHARE * extent / 2
        first, last = middle - half, middle + half
    return first, last


def bounded_view(x_range: tuple[float, float], y_range: tuple[float, float],
                 coords: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The part of a requested view of `coords` (n × 2) worth drawing, by `bounded_range` on each axis; None (the
    whole map) when either misses the data. Cheap next to an aggregation: two passes for the extent."""
    x, y = (bounded_range(wanted, float(np.min(coords[:, axis])), float(np.max(coords[:, axis])))
            for axis, wanted in enumerate((x_range, y_range)))
    return (x, y) if x is not None and y is not None else None


def hex_colour(colour: str) -> str:
    """A CSS colour as "#rrggbb" (datashader reads hex): "#abc", "#aabbcc" or "rgb(r, g, b)" (plotly's palettes)."""
    text = colour.strip().lower()
    if text.startswith("rgb(") and text.endswith(")"):
        parts = [int(float(part)) for part in text[4:-1].split(",")]
        if len(parts) == 3 and all(0 <= part <= 255 for part in parts):
            return "#" + "".join(f"{part:02x}" for part in parts)
    elif text.startswith("#") and len(text) in (4, 7):
        return text if len(text) == 7 else "#" + "".join(c * 2 for c in text[1:])
    raise ValueError(f"Cannot read the colour {colour!r}: say #rrggbb or rgb(r, g, b).")


def density_image(coords: np.ndarray, codes: np.ndarray, colours: Sequence[str],
                  x_range: tuple[float, float] | None = None, y_range: tuple[float, float] | None = None,
                  size: tuple[int, int] = IMAGE_PX, background: str | None = None) -> DensityImage:
    """`coords` (n × 2) aggregated into a `size` image of `x_range` × `y_range` (default: all of them), each point
    counted under its colour `codes[i]` (an index into `colours`, hex_colour's forms); a pixel takes the mean colour of
    its points, its opacity their number (histogram-equalised, so sparse and dense regions both read). With a
    `background` colour the image is opaque: laid over another, it hides it."""
    import datashader as ds
    import datashader.transfer_functions as tf
    import pandas as pd

    coords = np.asarray(coords)
    codes = np.asarray(codes)
    if coords.ndim != 2 or coords.shape[1] != 2:
        raise ValueError(f"A density map needs n × 2 coordinates, not an array of shape {coords.shape}.")
    if len(codes) != len(coords):
        raise ValueError(f"{len(coords):,} points but {len(codes):,} colour codes: one each.")
    if len(coords) == 0:
        raise ValueError("A density map needs at least one point.")
    if not colours or int(codes.min()) < 0 or int(codes.max()) >= len(colours):
        raise ValueError(f"Colour codes run from {int(codes.min())} to {int(codes.max())}, but there are "
                         f"{len(colours)} colours.")
    wanted = bounded_view(x_range, y_range, coords) if x_range and y_range else None
    x_range, y_range = wanted or (padded_range(coords[:, 0]), padded_range(coords[:, 1]))
    names = [str(i) for i in range(len(colours))]
    frame = pd.DataFrame({"x": coords[:, 0], "y": coords[:, 1],
                          "c": pd.Categorical.from_codes(codes.astype(np.int32), names)})
    canvas = ds.Canvas(plot_width=size[0], plot_height=size[1], x_range=x_range, y_range=y_range)
    counts = canvas.points(frame, "x", "y", ds.count_cat("c"))
    image = tf.shade(counts, color_key=dict(zip(names, map(hex_colour, colours))), how="eq_hist", min_alpha=MIN_ALPHA)
    image = tf.dynspread(image, threshold=0.5, max_px=SPREAD_PX)
    if background is not None:
        image = tf.set_background(image, hex_colour(background) if background.startswith(("#", "rgb")) else background)
    stream = io.BytesIO()
    image.to_pil().save(stream, format="PNG", optimize=False)
    uri = "data:image/png;base64," + base64.b64encode(stream.getvalue()).decode("ascii")
    return DensityImage(uri, tuple(map(float, x_range)), tuple(map(float, y_range)), len(coords))


def rows_in_box(coords: np.ndarray, x: Sequence[float], y: Sequence[float]) -> np.ndarray:
    """The rows of `coords` inside the box spanning `x` and `y` (each two values, any order), edges included."""
    if len(x) != 2 or len(y) != 2:
        raise ValueError(f"A box has two x and two y values, not {len(x)} and {len(y)}.")
    (x0, x1), (y0, y1) = sorted(map(float, x)), sorted(map(float, y))
    inside = (coords[:, 0] >= x0) & (coords[:, 0] <= x1) & (coords[:, 1] >= y0) & (coords[:, 1] <= y1)
    return np.flatnonzero(inside)


def rows_in_polygon(coords: np.ndarray, x: Sequence[float], y: Sequence[float]) -> np.ndarray:
    """The rows of `coords` inside the polygon with vertices (`x[i]`, `y[i]`) (a lasso; closed implicitly).
    Only the points inside its bounding box are tested against the shape: a small lasso on a million points
    costs little."""
    if len(x) != len(y):
        raise ValueError(f"A lasso has as many x as y values, not {len(x)} and {len(y)}.")
    if len(x) < 3:
        raise ValueError(f"A lasso needs at least three vertices, not {len(x)}.")
    from matplotlib.path import Path

    vertices = np.column_stack([np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)])
    candidates = rows_in_box(coords, (vertices[:, 0].min(), vertices[:, 0].max()),
                             (vertices[:, 1].min(), vertices[:, 1].max()))
    if len(candidates) == 0:
        return candidates
    inside = Path(vertices).contains_points(np.asarray(coords[candidates], dtype=np.float64))
    return candidates[inside]
