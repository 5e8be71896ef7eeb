"""(anchor, positive, negative) triplets of corpus rows for single, union and intersection spaces."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from training.relevance import LabelIndex, RelevanceRule
from training.splits import ArticleSplit

NEGATIVE_TRIES = 64


@dataclass(frozen=True)
class TripletSet:
    """`rows[i] = (anchor, positive, negative)` corpus rows; all of them training articles."""

    rows: np.ndarray
    anchors: int
    anchors_without_positive: int

    def __len__(self) -> int:
        return len(self.rows)

    def describe(self) -> dict:
        return {"triplets": len(self), "anchors": self.anchors, "anchors_without_positive": self.anchors_without_positive}


class TripletSampler:
    """Draws triplets among the training articles only.

    Positive: shares a label of the aspect (`single`), of every aspect (`intersection`), or of any
    aspect (`union`). Union positives follow `sampling`: `pooled` draws uniformly from everyone sharing
    any label, so the aspect with bigger label groups dominates; `aspect-first` draws one of the
    anchor's aspects uniformly, then a positive sharing that aspect's label. `graded` positives: an
    anchor's first draw (and every even one) shares every aspect with it whenever such an article exists,
    the others are drawn aspect-first, so each epoch holds the shares-all pairs a graded loss ranks highest.
    Negative: not relevant under the same rule; a share `unlabelled_negatives` of them comes from
    training articles without any label of the aspects (extra, easy negatives).
    """

    def __init__(self, rule: RelevanceRule, split: ArticleSplit, sampling: str = "aspect-first",
                 unlabelled_negatives: float = 0.1):
        self.rule = rule
        self.sampling = sampling
        self.unlabelled_negatives = unlabelled_negatives
        index: LabelIndex = rule.index
        in_train = np.zeros(index.size, dtype=bool)
        in_train[split.train] = True
        self._in_train = in_train
        self.anchors = np.flatnonzero(in_train & rule.labelled())
        any_label = np.logical_or.reduce([index.has(a) for a in rule.aspects])
        self._labelled = np.flatnonzero(in_train & any_label)
        self._unlabelled = np.flatnonzero(in_train & ~any_label)

    def _sharing(self, aspect: str, row: int) -> np.ndarray:
        """Training rows sharing a label of `aspect` with `row`, `row` itself excluded."""
        index = self.rule.index
        groups = [index.members(aspect, label) for label in index.labels_of(aspect, row)]
        rows = np.unique(np.concatenate(groups)) if groups else np.empty(0, dtype=np.int64)
        return rows[self._in_train[rows] & (rows != row)]

    def positive_pool(self, row: int, rng: np.random.Generator, draw: int = 0) -> np.ndarray:
        """Where the `draw`-th positive of anchor `row` in an epoch comes from."""
        pools = [self._sharing(a, row) for a in self.rule.aspects]
        combine = self.rule.combine
        if combine in ("intersection", "graded"):
            shares_all = pools[0]
            for other in pools[1:]:
                shares_all = np.intersect1d(shares_all, other)
            if combine == "intersection" or (draw % 2 == 0 and len(shares_all)):
                return shares_all
        if combine == "graded" or (combine == "union" and self.sampling == "aspect-first"):
            usable = [p for p in pools if len(p)]
            return usable[rng.integers(len(usable))] if usable else np.empty(0, dtype=np.int64)
        return np.unique(np.concatenate(pools))

    def negative(self, row: int, rng: np.random.Generator) -> int | None:
        if len(self._unlabelled) and rng.random() < self.unlabelled_negatives:
            return int(self._unlabelled[rng.integers(len(self._unlabelled))])
        for _ in range(NEGATIVE_TRIES):
            candidate = int(self._labelled[rng.integers(len(self._labelled))])
            if candidate != row and not self.rule.related(row, candidate):
                return candidate
        return int(self._unlabelled[rng.integers(len(self._unlabelled))]) if len(self._unlabelled) else None

    def sample(self, seed: int, per_anchor: int = 1) -> TripletSet:
        """One epoch's triplets; the same seed gives the same triplets."""
        rng = np.random.default_rng(seed)
        rows, without = [], 0
        for anchor in rng.permutation(self.anchors):
            drawn = 0
            for draw in range(per_anchor):
                pool = self.positive_pool(int(anchor), rng, draw)
                negative = self.negative(int(anchor), rng) if len(pool) else None
                if negative is None:
                    continue
                rows.append((int(anchor), int(pool[rng.integers(len(pool))]), negative))
                drawn += 1
            without += drawn == 0
        array = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
        return TripletSet(array, anchors=len(self.anchors), anchors_without_positive=without)
