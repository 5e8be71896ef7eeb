"""A study report's tables as a reader sees them: headers in words, rounded figures, and "n/a: reason" where a
test could not run (instead of a bare None). Streamlit-free, so the results page and tests share one wording.
"""
from __future__ import annotations

from collections.abc import Iterable

from study.analysis import CheckOutcome, OrderCount, TaskBreakdown
from study.exclusions import RuleCount
from study.questionnaire_analysis import ChoiceCount, FreeTextAnswer, LikertSummary
from study.rank_tests import FriedmanResult, PairwiseTest

Row = dict[str, object]


def not_available(reason: str) -> str:
    return f"n/a: {reason}" if reason else "n/a"


def _figure(value: float | None, digits: int, reason: str) -> float | str:
    return not_available(reason) if value is None or value != value else round(value, digits)  # NaN != NaN


def order_table(orders: Iterable[OrderCount]) -> list[Row]:
    return [{"Order": o.row + 1, "Completed": o.completed, "Started": o.participants,
             "Tasks, in order": " → ".join(o.order)} for o in orders]


def check_table(checks: Iterable[CheckOutcome]) -> list[Row]:
    return [{"Check task": c.task_id, "Kind": c.kind, "Passed": c.passed, "Answered": c.answered} for c in checks]


def exclusion_table(rules: Iterable[RuleCount]) -> list[Row]:
    return [{"Rule": r.rule.replace("_", " "), "Excludes a participant who": r.description,
             "Participants excluded": r.participants} for r in rules]


def friedman_table(rows: Iterable[FriedmanResult]) -> list[Row]:
    return [{"Task type": f.task_type, "Participants": f.participants,
             "Chi-square": _figure(f.statistic, 3, f.note), "p": _figure(f.p_value, 4, f.note),
             "Kendall's W": _figure(f.kendall_w, 3, f.note)} for f in rows]


def pairwise_table(rows: Iterable[PairwiseTest]) -> list[Row]:
    table = []
    for t in rows:
        holm_reason = t.note or ("not tested" if t.p_value is None else "")
        table.append({"Task type": t.task_type, "Sources compared": f"{t.source_a} vs {t.source_b}",
                      "Participants": t.participants, "Wilcoxon W": _figure(t.statistic, 1, t.note),
                      "p": _figure(t.p_value, 4, t.note), "p (Holm)": _figure(t.p_holm, 4, holm_reason)})
    return table


def per_task_table(rows: Iterable[TaskBreakdown]) -> list[Row]:
    return [{"Task": r.task_id, "Task type": r.task_type, "Source": r.source, "Mean rank": round(r.mean_rank, 2),
             "Answers": r.answers} for r in rows]


def _source(source: str) -> str:
    return source or "(asked once)"


def likert_table(rows: Iterable[LikertSummary]) -> list[Row]:
    return [{"Item": r.item_id, "Source": _source(r.source), "Participants": r.participants, "Median": round(r.median, 2),
             "IQR": f"{round(r.q1, 2):g}–{round(r.q3, 2):g}", "95% CI of the median":
             not_available("needs at least 2 participants") if r.ci_low is None
             else f"{round(r.ci_low, 2):g}–{round(r.ci_high, 2):g}"} for r in rows]


def choice_table(rows: Iterable[ChoiceCount]) -> list[Row]:
    return [{"Item": c.item_id, "Source": _source(c.source), "Option": c.option, "Answers": c.count} for c in rows]


def free_text_table(rows: Iterable[FreeTextAnswer]) -> list[Row]:
    return [{"Item": t.item_id, "Source": _source(t.source), "Participant": t.participant, "Answer": t.text}
            for t in rows]
