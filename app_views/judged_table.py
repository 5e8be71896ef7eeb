"""The Evaluation page's judged table: each Explore column (named as Explore names it) with worth reading and
shares the aspect side by side, spread over seeds, and the column score (Markdown cells, for st.table)."""
from __future__ import annotations

from app_views.columns import column_heading
from app_views.markdown import escape_markdown
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


def judged_rows(report: JudgedReport, block: str) -> list[dict[str, str]]:
    rows = []
    for column, r in report.blocks[block].items():
        ratio = r.get("precision_vs_generic")
        rows.append({
            "column": escape_markdown(judged_heading(column)),
            "seeds drawn": str(r["seeds"]),
            "worth reading: nDCG@5": _pm(r["ndcg"], r["ndcg_sd"]),
            "worth reading: P@5": _pm(r["precision"], r["precision_sd"]),
            "P@5 ÷ generic's": "n/a" if ratio is None else f"{ratio:.2f}",
            "shares the aspect@5": _pm(r["shares"], r["shares_sd"]),
            "column score": "n/a" if r["score"] is None else f"{r['score']:.3f}",
            "unjudged": f"{r['unjudged']} of {r['shown']}",
        })
    return rows


def judged_chart_rows(report: JudgedReport, block: str) -> list[dict]:
    """Per column: its heading, worth-reading P@5 and shares the aspect@5 with their sd, for the grouped bars."""
    return [{"column": judged_heading(column), "worth reading": r["precision"], "worth reading sd": r["precision_sd"],
             "shares the aspect": r["shares"], "shares the aspect sd": r["shares_sd"]}
            for column, r in report.blocks[block].items()]
