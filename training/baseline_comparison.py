"""Each Explore column against Wikipedia's Read more on judged seeds (issue #50): paired, seed by seed, on the seeds
the column is drawn for, so a column drawn for people only is compared with Read more on those people, and sharing
the aspect is counted by the column's own aspect on both sides (Read more's cards sharing the seed's *country*, for
the country column). A difference is "within the spread" when its 95% interval (t, over the paired seeds) holds 0.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Mapping

import numpy as np
from scipy import stats

from training.judged_columns import Lists, rule_for
from training.judgements import Judgements
from training.worth_reading import K, ColumnFigures, column_figures

BASELINE = "morelike"
MEASURES = {"ndcg": "worth reading nDCG@5", "precision": "worth reading P@5", "shares": "shares the aspect@5"}
ABOVE, WITHIN, BELOW = "above", "within the spread", "below"


@dataclass(frozen=True)
class Difference:
    """The column's mean minus Read more's over the seeds both measure, with its 95% interval."""

    mean: float
    low: float
    high: float
    seeds: int

    @property
    def verdict(self) -> str:
        return ABOVE if self.low > 0 else BELOW if self.high < 0 else WITHIN


def paired_difference(ours: list[float], theirs: list[float]) -> Difference | None:
    if not ours:
        return None
    differences = np.asarray(ours, dtype=float) - np.asarray(theirs, dtype=float)
    mean = float(differences.mean())
    if len(differences) < 2 or float(differences.std(ddof=1)) == 0.0:
        return Difference(mean, mean, mean, len(differences))
    low, high = stats.t.interval(0.95, len(differences) - 1, loc=mean, scale=stats.sem(differences))
    return Difference(mean, float(low), float(high), len(differences))


def versus_baseline(engine, judgements: Judgements, lists: Lists, figures: Mapping[str, ColumnFigures],
                    k: int = K) -> dict[str, dict[str, dict]]:
    """Column → measure → its Difference from Read more (as a dict), for every column but Read more; {} when the
    lists hold no Read more."""
    if BASELINE not in lists:
        return {}
    versus = {}
    for name, column in figures.items():
        if name == BASELINE:
            continue
        seeds = {seed: ids for seed, ids in lists[BASELINE].items() if seed in column.per_seed}
        theirs = column_figures(judgements, engine.corpus, BASELINE, seeds, rule_for(engine, name), k)
        versus[name] = {}
        for measure in MEASURES:
            pairs = [(getattr(column.per_seed[s], measure), getattr(theirs.per_seed[s], measure))
                     for s in column.per_seed if s in theirs.per_seed]
            pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
            difference = paired_difference([a for a, _ in pairs], [b for _, b in pairs])
            if difference is not None:
                versus[name][measure] = asdict(difference)
    return versus


def difference_of(entry: Mapping) -> Difference:
    return Difference(**{key: entry[key] for key in ("mean", "low", "high", "seeds")})


def where_the_baseline_wins(versus: Mapping[str, Mapping[str, Mapping]], name_of=str) -> list[str]:
    """Plain sentences: the columns Read more beats on each measure (the interval wholly below 0), then those it ties
    (the interval holds 0); a sentence that it beats none when it wins nowhere. `name_of` names a column."""
    beats, ties = [], []
    for measure, words in MEASURES.items():
        verdicts = {name: difference_of(measures[measure]).verdict for name, measures in versus.items()
                    if measure in measures}
        below = [name_of(name) for name, verdict in verdicts.items() if verdict == BELOW]
        within = [name_of(name) for name, verdict in verdicts.items() if verdict == WITHIN]
        if below:
            beats.append(f"Read more beats {', '.join(below)} on {words}.")
        if within:
            ties.append(f"On {words} it ties {', '.join(within)} (within the spread).")
    return (beats or ["Read more beats no column on worth reading or on sharing the aspect."]) + ties
