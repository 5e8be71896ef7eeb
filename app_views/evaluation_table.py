"""The Evaluation page's table for one report column (an aspect or a group): spaces as rows, every
metric as a column named in full (mean ± sd for a report over seeds), the best value of each column in bold
(with every value within the spread of the best), `n/a: why` where a space has
no value, and a column that no space has left out with its reason (Markdown cells, for st.table)."""
from __future__ import annotations

from dataclasses import dataclass

from app_views.markdown import escape_markdown
from training.report import METRICS, EvaluationReport, metric_header

TABLE_METRICS = (*METRICS, "agts", "overlap")


@dataclass(frozen=True)
class MetricTable:
    rows: list[dict[str, str]]  # one per space: header -> Markdown cell
    left_out: list[str]  # "<metric header>: n/a: <why>" for metrics no space has a value of


def metric_table(report: EvaluationReport, column: str, pool: str) -> MetricTable:
    spaces = list(report.spaces)
    # A non-breaking hyphen keeps `occupation-fn` on one line (the headers wrap instead).
    rows: list[dict[str, str]] = [{"space": escape_markdown(space).replace("\\-", "\u2011")} for space in spaces]
    left_out = []
    for metric in TABLE_METRICS:
        header = metric_header(metric, report.k, report.overlap_k)
        values = [report.value(space, column, metric, pool) for space in spaces]
        if all(value is None for value in values):
            left_out.append(f"{header}: {report.missing_reason(spaces[0], column, metric, pool)}" if spaces else header)
            continue
        best = report.best_spaces(column, metric, pool)
        for row, space, value in zip(rows, spaces, values):
            if value is None:
                row[header] = f"_{escape_markdown(report.missing_reason(space, column, metric, pool))}_"
            else:
                sd = report.sd(space, column, metric, pool)
                text = f"{value:.3f}" + (f"\u00a0±\u00a0{sd:.3f}" if sd is not None else "")  # one line per figure
                row[header] = f"**{text}**" if space in best else text
    return MetricTable(rows, left_out)
