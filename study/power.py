"""How many participants a study needs: simulate it with synthetic participants, count the detections.

A synthetic participant ranks each comparison task's candidates by a random utility (Thurstone): the
utility of a candidate is its source's preference + the participant's own offset for that source
(spread `participant_sd`) + noise of unit variance; the top `rank_depth` form the ranking, and the
rest count as unranked, as `study report` counts them. The source preferences are calibrated so that
the simulated mean ranks match the planned ones. Each run draws N participants, scores them exactly as
the analysis does (mean rank per source per participant) and runs the Friedman test and the Holm-
corrected pairwise Wilcoxon tests; power is the share of runs in which a test detects the difference.

One simplification, stated in the output: every source proposes its own candidates (no two sources
propose the same article), so each task shows its nominal number of candidates.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from explore.errors import AspectNavError
from study.definition import StudyDefinition, Task
from study.planned_effect import PlannedEffect
from study.rank_tests import holm

CALIBRATION_PARTICIPANTS = 4000
CALIBRATION_STEPS = 60


class PowerError(AspectNavError):
    """A planned effect the simulation cannot use (unknown source, impossible mean rank)."""


@dataclass(frozen=True)
class PowerRow:
    participants: int
    friedman: float  # share of runs with Friedman p < alpha
    pairs: dict[str, float]  # "a vs b" → share of runs with Holm-corrected p < alpha
    all_pairs: float  # share of runs in which every planned pair was detected
    kendall_w: float  # median Kendall's W over runs


@dataclass
class PowerTable:
    effect: PlannedEffect
    achieved: dict[str, float]  # the mean ranks the calibrated model gives (close to the planned ones)
    runs: int
    alpha: float
    pairs: list[tuple[str, str]]
    shift: float = 0.0  # added to every planned mean rank to reach the average all sources share
    rows: list[PowerRow] = field(default_factory=list)


def _task_layout(task: Task, sources: list[str]) -> np.ndarray:
    """For each nominal candidate slot, the index of the source that proposes it."""
    return np.repeat([sources.index(s.label) for s in task.sources], task.candidates_per_source)


def simulate_scores(study: StudyDefinition, utilities: np.ndarray, participant_sd: float, participants: int,
                    rng: np.random.Generator) -> np.ndarray:
    """(participants × sources) mean rank per source over the comparison tasks, as the analysis scores them."""
    sources = study.source_labels
    offsets = rng.normal(0.0, participant_sd, size=(participants, len(sources)))
    total = np.zeros((participants, len(sources)))
    count = np.zeros(len(sources))
    for task in study.comparison_tasks:
        layout = _task_layout(task, sources)
        draw = utilities[layout] + offsets[:, layout] + rng.normal(size=(participants, len(layout)))
        order = np.argsort(-draw, axis=1, kind="stable")
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(1, len(layout) + 1), axis=1)
        depth = min(task.rank_depth, len(layout))
        scored = np.where(ranks <= depth, ranks, float(task.nominal_candidates))  # unranked = "last"
        for index in np.unique(layout):
            total[:, index] += scored[:, layout == index].mean(axis=1)
        count[np.unique(layout)] += 1
    return total / np.where(count == 0, 1, count)


def calibrate(study: StudyDefinition, effect: PlannedEffect,
              seed: int = 0) -> tuple[np.ndarray, dict[str, float], float]:
    """Source utilities whose simulated mean ranks match `effect.mean_rank` once centred on the average every
    study has (stochastic approximation on fixed random draws, so it is deterministic); returns them, the
    mean ranks they give, and the shift applied to the planned figures."""
    sources = study.source_labels
    unknown = sorted(set(effect.mean_rank) - set(sources))
    if unknown or set(sources) - set(effect.mean_rank):
        raise PowerError(f"The planned effect must give one mean rank for each source of study {study.name!r} "
                         f"({', '.join(sources)}); it gives {', '.join(effect.mean_rank)}.")
    target = np.array([effect.mean_rank[s] for s in sources])
    tasks = study.comparison_tasks
    low, high = 1.0, float(max(t.nominal_candidates for t in tasks))
    if np.any(target < low) or np.any(target > high):
        raise PowerError(f"A planned mean rank must lie between {low:g} and {high:g} (the ranks a candidate can get).")
    utilities = np.zeros(len(sources))
    # Ranks are shared out: with 12 candidates and the top 5 ranked, the sources' mean ranks always average
    # (1+…+5 + 7×12)/12 = 8.25. Only the planned differences can be honoured; they are centred on that average.
    level = simulate_scores(study, utilities, 0.0, 1, np.random.default_rng(seed)).mean()
    shift = level - target.mean()
    target = target + shift
    achieved = target
    for step in range(CALIBRATION_STEPS):
        rng = np.random.default_rng(seed)  # the same draws every step: a smooth, deterministic map
        achieved = simulate_scores(study, utilities, effect.participant_sd, CALIBRATION_PARTICIPANTS, rng).mean(axis=0)
        utilities = utilities + 0.25 * (achieved - target)  # a lower (better) rank than planned lowers utility
        utilities -= utilities.mean()
    return utilities, {s: float(a) for s, a in zip(sources, achieved)}, float(shift)


def power_table(study: StudyDefinition, effect: PlannedEffect, participant_counts: list[int], runs: int = 200,
                alpha: float = 0.05, pairs: list[tuple[str, str]] | None = None, seed: int = 0) -> PowerTable:
    """Power of the Friedman test and of each planned pairwise test at each number of participants."""
    from scipy import stats

    sources = study.source_labels
    if len(sources) < 3:
        raise PowerError("The Friedman test needs at least 3 sources.")
    pairs = pairs or list(combinations(sources, 2))
    for a, b in pairs:
        if a not in sources or b not in sources:
            raise PowerError(f"Planned pair {a} vs {b}: sources are {', '.join(sources)}.")
    if any(n < 2 for n in participant_counts):
        raise PowerError("Each number of participants must be at least 2.")
    utilities, achieved, shift = calibrate(study, effect, seed)
    table = PowerTable(effect, achieved, runs, alpha, pairs, shift)
    rng = np.random.default_rng(seed + 1)
    for n in participant_counts:
        friedman_hits, all_hits = 0, 0
        pair_hits = dict.fromkeys(pairs, 0)
        ws = []
        for _ in range(runs):
            scores = simulate_scores(study, utilities, effect.participant_sd, n, rng)
            columns = [scores[:, i] for i in range(len(sources))]
            chi2, p = stats.friedmanchisquare(*columns)
            friedman_hits += p < alpha
            ws.append(chi2 / (n * (len(sources) - 1)))
            raw = [_wilcoxon_p(scores[:, sources.index(a)], scores[:, sources.index(b)]) for a, b in pairs]
            detected = [p_holm < alpha for p_holm in holm(raw)]
            for pair, hit in zip(pairs, detected):
                pair_hits[pair] += hit
            all_hits += all(detected)
        table.rows.append(PowerRow(n, friedman_hits / runs, {f"{a} vs {b}": hits / runs for (a, b), hits in
                                                              pair_hits.items()}, all_hits / runs,
                                   float(np.median(ws))))
    return table


def _wilcoxon_p(a: np.ndarray, b: np.ndarray) -> float:
    from scipy import stats

    if np.all(a == b):
        return 1.0
    return float(stats.wilcoxon(a, b).pvalue)


def format_power(table: PowerTable) -> str:
    pair_names = [f"{a} vs {b}" for a, b in table.pairs]
    lines = [
        f"Planned effect: {table.effect.describe()}",
        *([f"Mean ranks of all sources average {sum(table.achieved.values()) / len(table.achieved):.2f} in this "
           f"study (ranks are shared out); the planned figures were shifted by {table.shift:+.2f}: only their "
           "differences matter."] if abs(table.shift) >= 0.05 else []),
        "Calibrated model gives mean rank " + ", ".join(f"{s} {r:.2f}" for s, r in table.achieved.items()),
        f"{table.runs} simulated studies per row; a test detects the effect when p < {table.alpha:g} "
        "(pairwise: Wilcoxon signed-rank, Holm-corrected over the planned pairs).",
        "Assumes every source proposes its own candidates (no overlaps), so each task shows its nominal number.",
        "",
    ]
    header = ["participants", "Friedman", "median W", *pair_names, "all pairs"]
    widths = [max(len(h), 8) for h in header]
    lines.append("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for row in table.rows:
        cells = [str(row.participants), f"{row.friedman:.2f}", f"{row.kendall_w:.3f}",
                 *(f"{row.pairs[name]:.2f}" for name in pair_names), f"{row.all_pairs:.2f}"]
        lines.append("  ".join(c.rjust(w) for c, w in zip(cells, widths)))
    enough = next((row.participants for row in table.rows if row.friedman >= 0.8), None)
    lines += ["", (f"Smallest N here with Friedman power ≥ 0.80: {enough}." if enough else
                   "No N here reaches Friedman power 0.80; try larger numbers of participants.")]
    return "\n".join(lines)
