"""Where a map's region names go: inside what the map shows (never cut at an edge), apart from each other and from
the seed's label. Plotly places an annotation where it is told and lets names pile up, so the page estimates each
name's box from the plot's size in pixels (measured, below) and places the names itself."""
from __future__ import annotations

import re
from collections.abc import Sequence

from app_views.markdown import escape_html
from explore.map_regions import Region
from explore.maps import MapPoints

# How big a region's name is on screen, for placing names apart, as measured in headless Chromium at the issue's
# 1600x1200 window: the Maps page's main pane and the gap between its columns, the plot area of a map (its
# column less 20 px of margins, 640 px high less title, toolbar and legend), a character and a line of the names'
# 12 px font on their box (5.0 and 21 px measured; a little more, so a name never touches the edge or another).
MAIN_PX, COLUMN_GAP_PX, PLOT_MARGIN_PX = 1130, 16, 20
PLOT_PX = (537, 422)  # a map in one of two equal columns
CHAR_PX, LINE_PX, EDGE_PX = 5.3, 23, 6
AUTORANGE_PAD = 0.04  # plotly pads an autoranged axis by about this share of the data's span


def plot_width(weights: Sequence[float], index: int) -> int:
    """The plot area's width, in px, of a map drawn in column `index` of `st.columns(weights)`."""
    column = (MAIN_PX - COLUMN_GAP_PX * (len(weights) - 1)) * weights[index] / sum(weights)
    return int(column - PLOT_MARGIN_PX)


def visible_range(points: MapPoints, view: dict | None) -> tuple[tuple[float, float], tuple[float, float]]:
    """The x and y ranges a map shows: `view`'s (centred_view), else the whole map with plotly's padding."""
    if view is not None:
        return tuple(view["xaxis"]["range"]), tuple(view["yaxis"]["range"])
    low, high = points.coords.min(axis=0), points.coords.max(axis=0)
    pad = (high - low) * AUTORANGE_PAD
    return (float(low[0] - pad[0]), float(high[0] + pad[0])), (float(low[1] - pad[1]), float(high[1] + pad[1]))


Box = tuple[float, float, float, float]  # x0, x1, y0, y1 in the map's coordinates


def pointer_boxes(pointer: dict, x_range: tuple[float, float], y_range: tuple[float, float],
                  plot_px: tuple[int, int] = PLOT_PX) -> list[Box]:
    """Where a pointer label (_pointer) covers the map: its text box, `ax`/`ay` px from the point it names, and the
    point's mark itself."""
    per_px = ((x_range[1] - x_range[0]) / plot_px[0], (y_range[1] - y_range[0]) / plot_px[1])
    x, y = pointer["x"], pointer["y"]
    text = re.sub(r"&\w+;", "_", str(pointer["text"]))  # an escaped character takes one place
    half_w, half_h = (CHAR_PX * len(text) + 10) * per_px[0] / 2, LINE_PX * per_px[1] / 2
    cx, cy = x + pointer["ax"] * per_px[0], y - pointer["ay"] * per_px[1]  # screen px: ay > 0 is down
    mark = 14 * per_px[0], 14 * per_px[1]
    return [(cx - half_w, cx + half_w, cy - half_h, cy + half_h), (x - mark[0], x + mark[0], y - mark[1], y + mark[1])]


def placed_regions(regions: Sequence[Region], x_range: tuple[float, float], y_range: tuple[float, float],
                   plot_px: tuple[int, int] = PLOT_PX, avoid: Sequence[Box] = ()) -> list[tuple[Region, float, float]]:
    """Where each region's name goes: at its most central point, moved inside the visible ranges so it is never cut
    at an edge, or a line up or down when it would cover a name placed before it or a box of `avoid` (the seed's
    label); the regions with more articles are placed first, and a name with no free place near its region (or a
    region outside the ranges) is left out. Returns (region, x, y) of the names kept."""
    (x0, x1), (y0, y1) = x_range, y_range
    per_px = ((x1 - x0) / plot_px[0], (y1 - y0) / plot_px[1])
    line = LINE_PX * per_px[1]
    edge = EDGE_PX * per_px[0], EDGE_PX * per_px[1]
    boxes: list[Box] = list(avoid)
    kept = []
    for region in sorted(regions, key=lambda r: -len(r.rows)):
        if not (x0 <= region.x <= x1 and y0 <= region.y <= y1):
            continue  # not on screen: its name would point nowhere
        half_w = (CHAR_PX * len(region.name) + 8) * per_px[0] / 2
        if 2 * (half_w + edge[0]) > x1 - x0:
            continue
        x = min(max(region.x, x0 + half_w + edge[0]), x1 - half_w - edge[0])
        for shift in (0, 1, -1, 2, -2):
            y = min(max(region.y + shift * line, y0 + line / 2 + edge[1]), y1 - line / 2 - edge[1])
            box = (x - half_w, x + half_w, y - line / 2, y + line / 2)
            if not any(box[0] < b[1] and b[0] < box[1] and box[2] < b[3] and b[2] < box[3] for b in boxes):
                boxes.append(box)
                kept.append((region, x, y))
                break
    return kept


def region_annotations(placed: Sequence[tuple[Region, float, float]]) -> list[dict]:
    """Each region's name where `placed_regions` put it, on a pale box, no arrow: a place name, not a pointer."""
    return [dict(x=x, y=y, text=escape_html(region.name), showarrow=False, name="region",
                 bgcolor="rgba(255,255,255,0.8)", borderpad=2, font=dict(size=12, color="#222"))
            for region, x, y in placed]
