"""Two figures per column, side by side: *worth reading* (on read-next judgements) and *shares the aspect* (the rule
every earlier figure used), and one column score that needs both.

- worth reading: nDCG@k with the judged grade as gain and P@k of grade ≥ 1, over the judged candidates a column shows
  (unjudged ones are left out of the list and counted, never assumed either way; the ideal list is the seed's best
  judged candidates);
- shares the aspect: the share of the top k sharing a label of the column's aspects with the seed, the seed's own
  labels only (inferred ones stay out of the ground truth): an aspect column its aspect, union any of its aspects,
  intersection all of them, generic, links and a mix any aspect the seed has;
- column score: the harmonic mean of the two, so a column wins it only by being worth reading *and* about its aspect.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from explore.corpus.model import Article, Corpus
from training.judgements import RELEVANT, Judgements

K = 5  # the cards a reader sees first


@dataclass(frozen=True)
class AspectRule:
    """Which labels a column is about: `aspects`, shared any (`every` False) or all of them."""

    aspects: tuple[str, ...]
    every: bool = False

    def shares(self, seed: Article, candidate: Article) -> bool:
        shared = [bool(set(seed.labels(a)) & set(candidate.labels(a))) for a in self.aspects]
        return all(shared) if self.every else any(shared)

    def applies(self, seed: Article) -> bool:
        """Whether the seed has an own label the rule can share (all aspects for `every`)."""
        has = [bool(seed.labels(a)) for a in self.aspects]
        return bool(has) and (all(has) if self.every else any(has))


def dcg(gains: Sequence[float]) -> float:
    return float(sum(g / math.log2(i + 2) for i, g in enumerate(gains)))


@dataclass(frozen=True)
class SeedFigures:
    """One column's top k for one seed. None: not measurable (no judged candidate; no own label to share)."""

    ndcg: float | None
    precision: float | None
    shares: float | None
    unjudged: int
    shown: int


def seed_figures(judgements: Judgements, corpus: Corpus, seed_id: str, shown: Sequence[str], rule: AspectRule,
                 k: int = K) -> SeedFigures:
    top = list(shown)[:k]
    grades = [judgements.grade(seed_id, c) for c in top]
    judged = [g for g in grades if g is not None]
    ideal = dcg(sorted(judgements.grades.get(seed_id, {}).values(), reverse=True)[:k])
    ndcg = dcg(judged) / ideal if judged and ideal > 0 else (0.0 if judged else None)
    precision = sum(g >= RELEVANT for g in judged) / len(judged) if judged else None
    seed = corpus[seed_id]
    shares = (sum(rule.shares(seed, corpus[c]) for c in top) / len(top)) if top and rule.applies(seed) else None
    return SeedFigures(ndcg, precision, shares, len(top) - len(judged), len(top))


def _mean(values: Iterable[float | None]) -> tuple[float | None, float | None, int]:
    numbers = [v for v in values if v is not None]
    if not numbers:
        return None, None, 0
    return float(np.mean(numbers)), float(np.std(numbers, ddof=1)) if len(numbers) > 1 else 0.0, len(numbers)


def harmonic(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        return None
    return 0.0 if a + b == 0 else 2 * a * b / (a + b)


@dataclass
class ColumnFigures:
    """A column's figures over the seeds it was drawn for (seed id → SeedFigures)."""

    name: str
    per_seed: dict[str, SeedFigures] = field(default_factory=dict)

    def summary(self, seeds: Iterable[str] | None = None) -> dict[str, float | int | None]:
        """Means (and sd over seeds) on `seeds` (default: every seed it was drawn for)."""
        chosen = [self.per_seed[s] for s in (self.per_seed if seeds is None else seeds) if s in self.per_seed]
        out: dict[str, float | int | None] = {"seeds": len(chosen)}
        for key in ("ndcg", "precision", "shares"):
            mean, sd, n = _mean(getattr(f, key) for f in chosen)
            out |= {key: mean, f"{key}_sd": sd, f"{key}_seeds": n}
        out["unjudged"] = sum(f.unjudged for f in chosen)
        out["shown"] = sum(f.shown for f in chosen)
        out["score"] = harmonic(out["ndcg"], out["shares"])
        return out


def column_figures(judgements: Judgements, corpus: Corpus, name: str, lists: Mapping[str, Sequence[str]],
                   rule_for: Callable[[Article], AspectRule], k: int = K) -> ColumnFigures:
    """Figures of one column from its shown lists (seed id → candidate ids, best first; a seed it is not drawn for
    is absent). `rule_for(seed)` says which aspect the column is about for that seed."""
    figures = ColumnFigures(name)
    for seed_id, shown in lists.items():
        if seed_id in judgements.grades:
            figures.per_seed[seed_id] = seed_figures(judgements, corpus, seed_id, shown, rule_for(corpus[seed_id]), k)
    return figures
