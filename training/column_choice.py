"""Choosing how a column is served from the judged seeds, cross-validated over seeds.

Each candidate setting is scored by the column score (training/worth_reading.py) among the settings that meet the
bar on the same seeds: worth-reading P@5 at least `bar` × generic's, and sharing the aspect at least as often as the
column did before. Folds split the seeds stratum by stratum; each fold chooses on the other folds' seeds and is
scored on its own, so the held-out figure says what the choice is worth on seeds it never saw.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Mapping, Sequence

import numpy as np

from training.worth_reading import ColumnFigures

BAR = 0.9  # worth-reading P@5 of a served column ≥ 0.9 × generic's on the same seeds


@dataclass(frozen=True)
class Verdict:
    """A setting's figures on some seeds, and whether it meets the bar there."""

    score: float
    precision_vs_generic: float
    shares: float
    shares_before: float

    @property
    def meets_bar(self) -> bool:
        return self.precision_vs_generic >= BAR and self.shares >= self.shares_before - 1e-9


def verdict(column: ColumnFigures, generic: ColumnFigures, before: ColumnFigures, seeds: Sequence[str]) -> Verdict:
    """`column` on `seeds` (those of them it is drawn for), against generic and its own earlier figures there."""
    drawn = [s for s in seeds if s in column.per_seed]
    own, base, old = column.summary(drawn), generic.summary(drawn), before.summary(drawn)
    ratio = (own["precision"] or 0.0) / base["precision"] if base["precision"] else 0.0
    return Verdict(own["score"] or 0.0, ratio, own["shares"] or 0.0, old["shares"] or 0.0)


def folds_of(strata: Mapping[str, str], n_folds: int = 5, seed: int = 0) -> list[list[str]]:
    """Seeds dealt into `n_folds` folds stratum by stratum (shuffled with `seed`), so each fold has every stratum."""
    rng = np.random.default_rng(seed)
    folds: list[list[str]] = [[] for _ in range(n_folds)]
    for stratum in sorted(set(strata.values())):
        members = sorted(s for s, name in strata.items() if name == stratum)
        for i, s in enumerate(rng.permutation(members)):
            folds[i % n_folds].append(str(s))
    return folds


Triple = tuple[ColumnFigures, ColumnFigures, ColumnFigures]  # a column's figures, generic's, the column's before


def kind_verdict(columns: Sequence[Triple], seeds: Sequence[str]) -> Verdict:
    """The columns of one kind (every aspect column, say) as one: the pooled score, and the bar met only where
    every one of them meets it (each column's seeds are keyed `seed|column`)."""
    pooled = verdict(*(_merged([triple[i] for triple in columns]) for i in range(3)), seeds)
    if all(verdict(*triple, seeds).meets_bar for triple in columns):
        return pooled
    return Verdict(pooled.score, min(pooled.precision_vs_generic, BAR - 1e-6), pooled.shares, pooled.shares_before)


def _merged(figures: Sequence[ColumnFigures]) -> ColumnFigures:
    out = ColumnFigures("+".join(f.name for f in figures))
    for f in figures:
        out.per_seed.update(f.per_seed)
    return out


def best(settings: Mapping[Hashable, Sequence[Triple]], seeds: Sequence[str]) -> Hashable:
    """The setting with the best column score on `seeds` among those whose every column meets the bar there (all
    settings, if none does). `settings`: setting → one Triple per column of the kind."""
    verdicts = {key: kind_verdict(columns, seeds) for key, columns in settings.items()}
    passing = {key: v for key, v in verdicts.items() if v.meets_bar} or verdicts
    return max(passing, key=lambda key: passing[key].score)


@dataclass(frozen=True)
class CrossValidated:
    chosen: Hashable  # on every seed
    per_fold: list[Hashable]  # chosen on the other folds
    held_out: Verdict  # the per-fold choices, each scored on its own fold's seeds, pooled
    held_out_met: int  # folds whose held-out seeds the fold's choice meets the bar on


def cross_validate(settings: Mapping[Hashable, Sequence[Triple]], folds: Sequence[Sequence[str]]) -> CrossValidated:
    every = [s for fold in folds for s in fold]
    per_fold, scored = [], []
    for i, fold in enumerate(folds):
        train = [s for j, other in enumerate(folds) if j != i for s in other]
        choice = best(settings, train)
        per_fold.append(choice)
        scored.append(kind_verdict(settings[choice], fold))
    pooled = _pooled(settings, per_fold, folds)
    return CrossValidated(best(settings, every), per_fold, pooled, sum(v.meets_bar for v in scored))


def _pooled(settings, per_fold, folds) -> Verdict:
    """The held-out lists of every fold as one column (each seed served by its fold's choice)."""
    column, generic, before = (ColumnFigures(name) for name in ("held-out", "generic", "before"))
    for choice, fold in zip(per_fold, folds):
        own, base, old = (_merged([triple[i] for triple in settings[choice]]) for i in range(3))
        for s in fold:
            for into, source in ((column, own), (generic, base), (before, old)):
                if s in source.per_seed:
                    into.per_seed[s] = source.per_seed[s]
    return verdict(column, generic, before, [s for fold in folds for s in fold])
