"""Every plotly figure the pages draw: embedding maps and study mean ranks (the Corpus and Evaluation bars are HTML,
app_views/bar_chart.py)."""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import numpy as np
import plotly.express as px
import plotly.graph_objects as go

from app_views.markdown import escape_html
from app_views.one_line_title import one_line_title
from app_views.region_names import PLOT_PX, placed_regions, pointer_boxes, region_annotations, visible_range
from explore.corpus.model import Corpus
from explore.map_density import DensityImage
from explore.map_regions import Region
from explore.maps import FAINT, FILTERED_OUT, NO_LABEL, OTHER, MapPoints
from study.analysis import Comparison, StudyReport

# One distinct colour per ranked label (explore.maps.TOP_LABELS); "other" and "no label" are greys.
PALETTE = px.colors.qualitative.Bold[:10]
GREYS = {OTHER: "#9e9e9e", NO_LABEL: "#d9d9d9", FILTERED_OUT: "#d9d9d9"}


def _title_layout(title: str, height: int, bottom: int = 10) -> dict:
    """The title sits just above the plot, below the hover toolbar (plotly's and Streamlit's) that
    covers the figure's top 40 px, so the two never overlap."""
    return dict(title=dict(text=title, x=0, xanchor="left", xref="container", y=1, yref="paper", yanchor="bottom",
                           pad=dict(b=10, l=10), font=dict(size=15, weight=600)),
                height=height, margin=dict(l=10, r=10, t=80, b=bottom))


def colour_map(ranks: dict[str, int]) -> dict[str, str]:
    """Label → colour from the label's corpus-wide rank (explore.maps.label_ranks): the same label
    has the same colour in both maps and for every seed; "other" and "no label" are greys."""
    return {label: PALETTE[rank % len(PALETTE)] for label, rank in ranks.items()} | GREYS


def _pointer(points: MapPoints, x: float, y: float, text: str, colour: str, away_from: dict | None = None) -> dict:
    """A label beside the point at (x, y) with an arrow to it, on a white box, offset towards the middle of the
    map so it stays inside the plot and never hides the point it names; `away_from` (another label) sends this
    one to the other side vertically, so two labels on nearby points do not cover each other."""
    middle_x, middle_y = (float(v) for v in (points.coords.min(axis=0) + points.coords.max(axis=0)) / 2)
    ay = -50 if y < middle_y else 50  # screen pixels: negative is up
    if away_from is not None:
        ay = -away_from["ay"]
    return dict(x=x, y=y, text=text, showarrow=True, arrowhead=2, arrowwidth=1.5, arrowcolor=colour,
                ax=60 if x < middle_x else -60, ay=ay, standoff=9, bgcolor="rgba(255,255,255,0.9)",
                bordercolor=colour, borderwidth=1, borderpad=3, font=dict(size=12, color="#111"))


ZOOM = 2.5  # a found article's map is shown this much closer, centred on it (a double-click shows it whole)
CENTRE_FROM = 1000  # points: a smaller map is read whole at a glance, so it is not zoomed
DENSE_FROM = 3000  # points: from here markers are drawn smaller, so clusters stay readable


def zooms_in(points: MapPoints) -> bool:
    """Whether a map centred on its seed is drawn closer in (a map of many points) or whole (a small one)."""
    return len(points.ids) >= CENTRE_FROM


def centred_view(points: MapPoints, x: float, y: float, zoom: float = ZOOM,
                 include: Sequence[tuple[float, float]] = ()) -> dict:
    """Axis ranges that put (x, y) in the middle of the plot, `zoom` times closer than the whole map, widened so
    every point of `include` (a marked article) stays in view with a margin."""
    low, high = points.coords.min(axis=0), points.coords.max(axis=0)
    half = (high - low) / (2 * zoom)
    for px, py in include:
        half = np.maximum(half, 1.15 * np.abs(np.array([px - x, py - y])))
    return dict(xaxis=dict(range=[x - half[0], x + half[0]]), yaxis=dict(range=[y - half[1], y + half[1]]))


def seed_title(points: MapPoints, title: str) -> str:
    """The seed's label on a map: its title, and the aspects of this map it has no label of (its place then
    says nothing about them)."""
    lacks = f" · no {' or '.join(points.seed_lacks)} label" if points.seed_lacks else ""
    return f"★ {escape_html(one_line_title(title))}{escape_html(lacks)}"  # the marker's hover has it whole


def _texts(values: list[str], rows: list[int]) -> np.ndarray:
    """Per-point strings as a numpy object array: plotly checks a list item by item (0.3 s for 10,000 points),
    an array at once."""
    return np.asarray([values[i] for i in rows], dtype=object)


def label_traces(points: MapPoints, colours: dict[str, str]) -> list[go.Scattergl]:
    """The map's points, one WebGL trace per label (faint ones first): what a seed change leaves as it is, so a page
    may keep them (their 10,000 points' validation is most of a map's server time) and hand them to map_figure."""
    hover = points.hover or [escape_html(title) for title in points.titles]
    by_label: dict[str, list[int]] = {}
    for index, label in enumerate(points.colour):
        by_label.setdefault(label, []).append(index)
    dense = len(points.ids) >= DENSE_FROM
    faint = dict(size=3 if dense else 4, opacity=0.35)
    traces = []
    for label in [label for label in FAINT if label in by_label] + points.legend:
        rows = by_label[label]
        style = faint if label in FAINT else dict(size=4 if dense else 6, opacity=0.8 if dense else 0.85)
        traces.append(go.Scattergl(
            x=points.coords[rows, 0], y=points.coords[rows, 1], mode="markers",
            name=f"{escape_html(label)} ({len(rows)})", showlegend=label not in FAINT,
            marker=dict(color=colours.get(label, "#777"), **style),
            unselected=dict(marker=dict(opacity=style["opacity"])),  # a click marks one point, dims none
            customdata=_texts(points.ids, rows), hovertext=_texts(hover, rows), hoverinfo="text",
        ))
    return traces


SELECTED_DRAWN = 2000  # selected articles ringed on a density map: more rings would hide the map under them


def density_traces(points: MapPoints, colours: dict[str, str]) -> list[go.Scattergl]:
    """What a density map (every article, drawn as an image) keeps of label_traces: one legend entry per label
    (a marker of its colour, no points), and the sample's points invisible, so hovering names an article and a
    click marks it."""
    hover = points.hover or [escape_html(title) for title in points.titles]
    legend = [go.Scattergl(x=[None], y=[None], mode="markers", name=escape_html(label), showlegend=True,
                           marker=dict(color=colours.get(label, "#777"), size=6), hoverinfo="skip")
              for label in points.legend]
    rows = list(range(len(points.ids)))
    hidden = go.Scattergl(x=points.coords[:, 0], y=points.coords[:, 1], mode="markers", name="articles",
                          showlegend=False, marker=dict(size=5, opacity=0, color="#000"),
                          selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0)),
                          customdata=_texts(points.ids, rows), hovertext=_texts(hover, rows), hoverinfo="text")
    return [hidden] + legend


def _density_background(image: DensityImage) -> dict:
    """The image of every article as a layout image: under the marks, stretched over the map coordinates it was
    drawn for."""
    (x0, x1), (y0, y1) = image.x_range, image.y_range
    return dict(source=image.data_uri, xref="x", yref="y", x=x0, y=y1, sizex=x1 - x0, sizey=y1 - y0,
                sizing="stretch", layer="below", opacity=1)


def map_figure(points: MapPoints, title: str, colours: dict[str, str], highlight: str | None = None,
               centre: bool = False, regions: Sequence[Region] = (), selected: Collection[str] = (),
               width_px: int = PLOT_PX[0], labelled: Sequence[go.Scattergl] | None = None,
               density: DensityImage | None = None, selected_at: np.ndarray | None = None,
               detail: Callable[[tuple[float, float], tuple[float, float]], DensityImage] | None = None,
               looked_at: tuple[tuple[float, float], tuple[float, float]] | None = None,
               ui_revision: str | None = None, selection_revision: str | None = None) -> go.Figure:
    """Sample points coloured by label (one trace per label, so the legend filters; unlabelled points
    faint and out of the legend), the neighbours and the seed on top (a free-text seed where it was placed),
    the seed's title and the `highlight`ed (clicked) article's title pointed at from beside, `regions` named.
    With `centre` a map of many points (zooms_in) is centred on the seed, closer in; `selected` articles (a box or lasso in either map)
    are ringed in orange; `width_px` the plot's width on the page (plot_width), for placing region names apart.
    customdata carries the article id for clicks.
    Every marker trace is WebGL, which plotly draws above SVG traces: so the seed stays on top.
    Plotly renders tags in names and text, so labels and titles are escaped here; `points.hover`
    comes escaped (map_side), and without it the hover shows the escaped title. `labelled`: label_traces(points,
    colours) made earlier (a page keeps them across seeds). With `density` (every article of a large corpus as an
    image, explore/map_density.py) the points are drawn by it and only marked ones as markers; `selected_at` then
    gives the selected articles' coordinates (the selection may hold articles outside `points`): the first
    SELECTED_DRAWN are ringed; `detail(x_range, y_range)`, the image of the range a centred map shows, is laid over
    the whole one so the view around the seed is drawn at full resolution (the whole image, enlarged, is blurred);
    `looked_at` (x and y range), where the reader zoomed or panned a density map to, is drawn so instead.
    `ui_revision` and `selection_revision` go into the layout as plotly's uirevision and selectionrevision.
    The layout is made as one dict and validated once: each update_layout call walks plotly's property paths again
    (a third of a Maps page's server time went there)."""
    hover = points.hover or [escape_html(title) for title in points.titles]
    traces = labelled if labelled is not None else (density_traces(points, colours) if density is not None
                                                     else label_traces(points, colours))
    data = list(traces)
    images = [_density_background(density)] if density is not None else []
    seed_style = dict(size=20, symbol="star", color="#ffd400", line=dict(width=1.5, color="#111"))
    marks = [("◇ neighbours", [i for i, r in enumerate(points.role) if r == "neighbour"],
              dict(size=11, symbol="diamond-open", color="#111", line=dict(width=2))),
             ("★ seed", [i for i, r in enumerate(points.role) if r == "seed"], seed_style)]
    if density is not None and selected_at is not None and len(selected_at):
        drawn = np.asarray(selected_at)[:SELECTED_DRAWN]
        data.append(go.Scattergl(x=drawn[:, 0], y=drawn[:, 1], mode="markers", name="selected",
                                 showlegend=False, hoverinfo="skip",
                                 marker=dict(size=6, symbol="circle-open", color="#ff7f0e", opacity=0.6,
                                             line=dict(width=1))))
    elif selected:
        chosen = set(selected)
        marks.insert(0, ("selected", [i for i, article_id in enumerate(points.ids) if article_id in chosen],
                         dict(size=9, symbol="circle-open", color="#ff7f0e", line=dict(width=2))))
    if highlight in points.ids:
        marks.append(("clicked", [points.ids.index(highlight)],
                      dict(size=22, symbol="circle-open", color="#d62728", line=dict(width=3))))
    for name, rows, style in marks:  # the caption and the labels explain these: no legend entries
        if rows:
            data.append(go.Scattergl(
                x=points.coords[rows, 0], y=points.coords[rows, 1], mode="markers", name=name, showlegend=False,
                marker=style, unselected=dict(marker=dict(opacity=1)), customdata=_texts(points.ids, rows),
                hovertext=_texts(hover, rows), hoverinfo="text",
            ))
    seed_at, seed_label = None, None
    placed = points.text_placement
    if placed is not None:
        words = f"“{escape_html(points.text_seed or '')}” (placed by its neighbours)"
        data.append(go.Scattergl(x=[placed.x], y=[placed.y], mode="markers", name="★ seed", showlegend=False,
                                 marker=seed_style, unselected=dict(marker=dict(opacity=1)), customdata=[""],
                                 hovertext=[words], hoverinfo="text"))
        seed_at = (placed.x, placed.y)
        seed_label = _pointer(points, *seed_at, f"★ {words}", "#111")
    elif seed_rows := next(rows for name, rows, _ in marks if name == "★ seed"):
        row = seed_rows[0]
        seed_at = tuple(float(v) for v in points.coords[row])
        seed_label = _pointer(points, *seed_at, seed_title(points, points.titles[row]), "#111")
    marked = [tuple(float(v) for v in points.coords[points.ids.index(highlight)])] if highlight in points.ids else []
    view = centred_view(points, *seed_at, include=marked) if centre and seed_at is not None and zooms_in(points) \
        else None
    pointers = [seed_label] if seed_label else []
    if highlight in points.ids:
        row = points.ids.index(highlight)
        pointers.append(_pointer(points, *(float(v) for v in points.coords[row]),
                                 escape_html(one_line_title(points.titles[row])), "#d62728", seed_label))
    # names inside what is shown (closer in, a region named at the edge would be cut), apart from each other and
    # from the seed's and the clicked article's labels and marks
    ranges = visible_range(points, view)
    plot_px = (width_px, PLOT_PX[1])
    named = placed_regions(regions, *ranges, plot_px=plot_px,
                           avoid=[box for pointer in pointers for box in pointer_boxes(pointer, *ranges, plot_px)])
    shown = looked_at or ((tuple(view["xaxis"]["range"]), tuple(view["yaxis"]["range"])) if view is not None else None)
    if density is not None and detail is not None and shown is not None:
        images.append(_density_background(detail(*shown)))
    legend = dict(orientation="h", x=0, xanchor="left", y=-0.01, yanchor="top", font=dict(size=10),
                  itemsizing="constant", itemwidth=30, tracegroupgap=0)
    if images:  # a density map's legend names colours: there is no trace of a label to hide
        legend.update(itemclick=False, itemdoubleclick=False)
    layout = dict(annotations=region_annotations(named) + list(pointers), legend=legend,
                  xaxis=dict(visible=False, **(view or {}).get("xaxis", {})),
                  yaxis=dict(visible=False, **(view or {}).get("yaxis", {})), dragmode="pan", plot_bgcolor="white",
                  **_title_layout(escape_html(title), 640, bottom=70))
    if images:
        layout["images"] = images
    if ui_revision is not None:
        layout["uirevision"] = ui_revision
    if selection_revision is not None:
        layout["selectionrevision"] = selection_revision
    return go.Figure(data=data, layout=layout)


def mean_rank_figure(report: "StudyReport | Comparison", task_type: str) -> go.Figure:
    """One bar per source; lower is better, so the best source is the shortest bar."""
    rows = [row for row in report.summaries if row.task_type == task_type]
    figure = go.Figure(
        go.Bar(
            x=[row.source for row in rows],
            y=[row.mean_rank for row in rows],
            error_y={"type": "data", "symmetric": False,
                     "array": [row.ci_high - row.mean_rank for row in rows],
                     "arrayminus": [row.mean_rank - row.ci_low for row in rows]},
            text=[f"{row.mean_rank:.2f}" for row in rows],
            hovertext=[f"95% CI {row.ci_low:.2f}–{row.ci_high:.2f}, n={row.participants}" for row in rows],
        )
    )
    figure.update_layout(title=f"{task_type} tasks: mean rank (lower is better)", yaxis_title="mean rank",
                         xaxis_title="source", height=360, margin={"t": 50, "b": 40})
    return figure
