"""Bar charts of mean rank per source with their bootstrap intervals (plotly, no Streamlit)."""
from __future__ import annotations

import plotly.graph_objects as go

from explore.study.analysis import StudyReport


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
