"""The Evaluation page's table for one report column (an aspect or a group): rows named as Explore names its
columns, every metric as a column named in full (mean ± sd for a report over seeds), the best score of each
column in bold (with every value within the spread of the best; never a metric that only describes), `n/a: why`
where a row has no value, and a column that no row has left out with its reason (typed cells, for html_table)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from app_views.columns import column_heading
from app_views.html_table import Cell
from explore.errors import InvalidQueryError
from explore.mix import DEFAULT_LINKS_SHARE
from explore.query import Kind, Query
from explore.ranking import LINKS_COMPONENT
from training.rankings import DefaultMix
from training.report import DESCRIPTIVE, METRICS, EvaluationReport, metric_header

TABLE_METRICS = (*METRICS, "agts", *DESCRIPTIVE)
EXPLORE_KINDS = (Kind.LINKS, Kind.MORELIKE, Kind.GENERIC, Kind.ASPECT, Kind.UNION, Kind.INTERSECTION)


def row_heading(report: EvaluationReport, row: str) -> str:
    """A report row under the name of the Explore column it measures ("Wikipedia links", "country space",
    "your mix", ...); a row that is no Explore column (an alternative space, a fixed blend) keeps its label."""
    spelt = report.notes.get(row) or row
    if DefaultMix.spelt(spelt):
        share = DefaultMix.parse(spelt).links_share
        mix = column_heading(Query.blended({LINKS_COMPONENT: 1}))
        return mix if math.isclose(share, DEFAULT_LINKS_SHARE) else f"{mix}, {share:.0%} links"
    if row in report.aspects:  # a row named after an aspect column is that aspect's space
        return column_heading(Query(Kind.ASPECT, row))
    try:
        query = Query.parse(row)
    except InvalidQueryError:
        return row
    return column_heading(query) if query.kind in EXPLORE_KINDS and query.name is None or \
        query.kind is Kind.ASPECT else row


@dataclass(frozen=True)
class MetricTable:
    rows: list[dict[str, Cell]]  # one per report row: header -> cell
    left_out: list[str]  # "<metric header>: n/a: <why>" for metrics no row has a value of


def metric_table(report: EvaluationReport, column: str, pool: str) -> MetricTable:
    spaces = list(report.spaces)
    # A non-breaking hyphen keeps `occupation-fn` on one line (the headers wrap instead).
    rows: list[dict[str, Cell]] = [{"space": Cell(row_heading(report, space).replace("-", "\u2011"))}
                                   for space in spaces]
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
                row[header] = Cell(report.missing_reason(space, column, metric, pool), note=True)
            else:
                sd = report.sd(space, column, metric, pool)
                text = f"{value:.3f}" + (f"\u00a0±\u00a0{sd:.3f}" if sd is not None else "")  # one line per figure
                row[header] = Cell(text, strong=space in best, number=True)
    return MetricTable(rows, left_out)
