"""The Evaluation page's judged table: each Explore column (named as Explore names it) with worth reading and
shares the aspect side by side, spread over seeds, and the column score (cells for html_table)."""
from __future__ import annotations

from app_views.columns import column_heading
from app_views.html_table import Cell
from explore.errors import InvalidQueryError
from explore.query import Query
from training.baseline_comparison import ABOVE, BELOW, MEASURES, difference_of, where_the_baseline_wins
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


def versus_rows(report: JudgedReport, block: str) -> list[dict[str, Cell]]:
    """Per column: its paired difference from Wikipedia's Read more on each measure, with the 95% interval, the
    verdict in words (bold where the column is above, italics where Read more wins); [] without a comparison."""
    rows = []
    for column, measures in report.versus.get(block, {}).items():
        row = {"column": Cell(judged_heading(column)),
               "seeds": Cell(str(max((m["seeds"] for m in measures.values()), default=0)), number=True)}
        for measure, words in MEASURES.items():
            if measure not in measures:
                row[f"vs Read more: {words}"] = Cell("n/a", number=True)
                continue
            d = difference_of(measures[measure])
            row[f"vs Read more: {words}"] = Cell(f"{d.mean:+.3f} [{d.low:+.2f}, {d.high:+.2f}] {d.verdict}",
                                                   strong=d.verdict == ABOVE, note=d.verdict == BELOW, number=True)
        rows.append(row)
    return rows


def versus_summary(report: JudgedReport, block: str) -> str:
    """Plain sentences: where Read more wins (or that it wins nowhere) and where it ties ("" without a comparison)."""
    versus = report.versus.get(block)
    return " ".join(where_the_baseline_wins(versus, judged_heading)) if versus else ""
