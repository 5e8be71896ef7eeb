"""The Evaluation page's judged table: each Explore column (named as Explore names it) with worth reading and
shares the aspect side by side, spread over seeds, and the column score (cells for html_table)."""
from __future__ import annotations

from app_views.columns import column_heading
from app_views.html_table import Cell
from explore.errors import InvalidQueryError
from explore.query import Query
from training.judged_columns import YOUR_MIX
from training.judged_report import JudgedReport


def judged_heading(column: str) -> str:
    """`aspect:country` → "country space", `your mix` → "your mix", as Explore heads its columns."""
    if column == YOUR_MIX:
        return YOUR_MIX
    try:
        return column_heading(Query.parse(column))
    except InvalidQueryError:
        return column


def _pm(mean, sd) -> str:
    return "n/a" if mean is None else f"{mean:.3f} ± {sd:.2f}"


def judged_rows(report: JudgedReport, block: str) -> list[dict[str, Cell]]:
    rows = []
    for column, r in report.blocks[block].items():
        ratio = r.get("precision_vs_generic")
        rows.append({
            "column": Cell(judged_heading(column)),
            "seeds drawn": Cell(str(r["seeds"]), number=True),
            "worth reading: nDCG@5": Cell(_pm(r["ndcg"], r["ndcg_sd"]), number=True),
            "worth reading: P@5": Cell(_pm(r["precision"], r["precision_sd"]), number=True),
            "P@5 ÷ generic's": Cell("n/a" if ratio is None else f"{ratio:.2f}", number=True),
            "shares the aspect@5": Cell(_pm(r["shares"], r["shares_sd"]), number=True),
            "column score": Cell("n/a" if r["score"] is None else f"{r['score']:.3f}", number=True),
            "unjudged": Cell(f"{r['unjudged']} of {r['shown']}", number=True),
        })
    return rows


def judged_chart_rows(report: JudgedReport, block: str) -> list[dict]:
    """Per column: its heading, worth-reading P@5 and shares the aspect@5 with their sd, for the grouped bars."""
    return [{"column": judged_heading(column), "worth reading": r["precision"], "worth reading sd": r["precision_sd"],
             "shares the aspect": r["shares"], "shares the aspect sd": r["shares_sd"]}
            for column, r in report.blocks[block].items()]
