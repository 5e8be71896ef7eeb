"""Every plotly figure the pages draw: label distributions, embedding maps, evaluation bars, study mean ranks."""
from __future__ import annotations

import plotly.express as px
import plotly.graph_objects as go

from app_views.markdown import escape_html
from explore.corpus.model import Corpus
from explore.maps import NO_LABEL, OTHER, MapPoints
from study.analysis import StudyReport

# 15 distinct colours for the top labels; "other" and "no label" are greys.
PALETTE = px.colors.qualitative.Dark24
GREYS = {OTHER: "#9e9e9e", NO_LABEL: "#d9d9d9"}


def label_distribution_figure(corpus: Corpus, aspect: str, top: int = 15) -> go.Figure:
    all_counts = corpus.label_counts(aspect)
    counts = all_counts.most_common(top)
    labels = [escape_html(label) for label, _ in counts][::-1]
    values = [count for _, count in counts][::-1]
    figure = go.Figure(go.Bar(x=values, y=labels, orientation="h", marker_color="#4c78a8"))
    figure.update_layout(title=f"{escape_html(aspect)}: top {len(labels)} of {len(all_counts)} labels "
                               f"({corpus.coverage(aspect):.0%} of articles labelled)",
                         height=120 + 18 * len(labels), margin=dict(l=10, r=10, t=40, b=10),
                         xaxis_title="articles")
    return figure


def metric_bar_figure(rows: list[dict], column: str, title: str) -> go.Figure:
    """One bar per space for a 0..1 retrieval metric; missing values are shown as a dash."""
    figure = go.Figure(go.Bar(x=[r["space"] for r in rows], y=[r[column] for r in rows], marker_color="#4c78a8",
                              text=[f"{r[column]:.3f}" if r[column] is not None else "–" for r in rows],
                              textposition="outside"))
    figure.update_layout(title=escape_html(title), height=360, margin=dict(l=10, r=10, t=40, b=10),
                         yaxis=dict(range=[0, 1]))
    return figure


def colour_map(legend: list[str]) -> dict[str, str]:
    named = [label for label in legend if label not in GREYS]
    return {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(named)} | GREYS


def map_figure(points: MapPoints, title: str, colours: dict[str, str]) -> go.Figure:
    """Sample points coloured by label (one trace per label, so the legend filters), then the
    neighbours and the seed on top. customdata carries the article id for click-to-reseed. Plotly renders
    tags in names and text, so labels and titles are escaped here; `points.hover` comes escaped (map_side),
    and without it the hover shows the escaped title."""
    hover = points.hover or [escape_html(title) for title in points.titles]
    figure = go.Figure()
    by_label: dict[str, list[int]] = {}
    for index, label in enumerate(points.colour):
        by_label.setdefault(label, []).append(index)
    for label in points.legend:
        rows = by_label[label]
        figure.add_trace(go.Scattergl(
            x=points.coords[rows, 0], y=points.coords[rows, 1], mode="markers",
            name=f"{escape_html(label)} ({len(rows)})",
            marker=dict(size=5, color=colours.get(label, "#777"), opacity=0.75),
            customdata=[points.ids[i] for i in rows], hovertext=[hover[i] for i in rows],
            hoverinfo="text",
        ))
    for role, style in (("neighbour", dict(size=11, symbol="diamond", color="rgba(0,0,0,0)",
                                           line=dict(width=2, color="#111"))),
                        ("seed", dict(size=18, symbol="star", color="#ffd400", line=dict(width=1.5, color="#111")))):
        rows = [i for i, r in enumerate(points.role) if r == role]
        if rows:
            figure.add_trace(go.Scatter(
                x=points.coords[rows, 0], y=points.coords[rows, 1],
                mode="markers+text" if role == "seed" else "markers",
                name=role, marker=style,
                text=[escape_html(points.titles[i]) for i in rows] if role == "seed" else None,
                textposition="top center", customdata=[points.ids[i] for i in rows],
                hovertext=[hover[i] for i in rows], hoverinfo="text",
            ))
    figure.update_layout(title=escape_html(title), height=620, margin=dict(l=10, r=10, t=40, b=10),
                         legend=dict(font=dict(size=10)),
                         xaxis=dict(visible=False), yaxis=dict(visible=False), dragmode="pan")
    return figure


def selected_article(selection) -> str | None:
    """The article id of the first clicked point of a plotly selection (customdata), if any."""
    for point in (selection or {}).get("points", []):
        chosen = point.get("customdata")
        if isinstance(chosen, (list, tuple)):
            chosen = chosen[0] if chosen else None
        if chosen:
            return str(chosen)
    return None


def mean_rank_figure(report: StudyReport, task_type: str) -> go.Figure:
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
