"""Rank tests over participants' mean scores per source: Friedman (with Kendall's W) and pairwise Wilcoxon
signed-rank tests with Holm's correction. The rankings (study.analysis) and the per-source questionnaire items
(study.questionnaire_analysis) both run them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class FriedmanResult:
    task_type: str
    statistic: float | None
    p_value: float | None
    participants: int
    note: str = ""
    kendall_w: float | None = None  # effect size: chi2 / (n (k - 1)), 0 = no agreement, 1 = all agree


@dataclass(frozen=True)
class PairwiseTest:
    task_type: str
    source_a: str
    source_b: str
    statistic: float | None
    p_value: float | None
    p_holm: float | None
    participants: int
    note: str = ""


def holm(p_values: list[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order."""
    order = sorted(range(len(p_values)), key=p_values.__getitem__)
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for step, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - step) * p_values[index]))
        adjusted[index] = running
    return adjusted


def _wilcoxon(a: list[float], b: list[float]) -> tuple[float | None, float | None, str]:
    if all(x == y for x, y in zip(a, b)):
        return 0.0, 1.0, "all differences are zero"
    from scipy import stats  # imported here: scipy.stats costs ~0.8 s of every CLI start

    result = stats.wilcoxon(a, b)
    return float(result.statistic), float(result.pvalue), ""


def kendall_w(statistic: float, participants: int, sources: int) -> float:
    """Kendall's coefficient of concordance from Friedman's chi-square (Tomczak & Tomczak 2014)."""
    return statistic / (participants * (sources - 1))


def friedman_test(task_type: str, sources: list[str], complete: list[dict[str, float]]) -> FriedmanResult:
    if len(sources) < 3:
        return FriedmanResult(task_type, None, None, len(complete), "needs at least 3 sources")
    if len(complete) < 2:
        return FriedmanResult(task_type, None, None, len(complete), "needs at least 2 participants")
    columns = [[m[s] for m in complete] for s in sources]
    if all(len(set(row)) == 1 for row in zip(*columns)):
        return FriedmanResult(task_type, 0.0, 1.0, len(complete), "every participant ranked all sources equal",
                              kendall_w=0.0)
    from scipy import stats

    result = stats.friedmanchisquare(*columns)
    statistic = float(result.statistic)
    return FriedmanResult(task_type, statistic, float(result.pvalue), len(complete),
                          kendall_w=kendall_w(statistic, len(complete), len(sources)))


def pairwise_tests(task_type: str, sources: list[str], means: dict[int, dict[str, float]]) -> list[PairwiseTest]:
    rows = []
    for a, b in combinations(sources, 2):
        pairs = [(m[a], m[b]) for m in means.values() if a in m and b in m]
        if len(pairs) < 2:
            rows.append(PairwiseTest(task_type, a, b, None, None, None, len(pairs), "needs at least 2 participants"))
            continue
        statistic, p_value, note = _wilcoxon([x for x, _ in pairs], [y for _, y in pairs])
        rows.append(PairwiseTest(task_type, a, b, statistic, p_value, None, len(pairs), note))
    tested = [i for i, row in enumerate(rows) if row.p_value is not None and not math.isnan(row.p_value)]
    adjusted = holm([rows[i].p_value for i in tested])
    for i, p_holm in zip(tested, adjusted):
        row = rows[i]
        rows[i] = PairwiseTest(row.task_type, row.source_a, row.source_b, row.statistic, row.p_value, p_holm,
                               row.participants, row.note)
    return rows
