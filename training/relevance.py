"""Who is relevant to whom: articles sharing a label of an aspect, combined over aspects."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Sequence

import numpy as np
from scipy import sparse

from explore.corpus.model import Corpus

Combine = Literal["single", "union", "intersection", "graded"]


class LabelIndex:
    """Per aspect, a multi-hot article × label matrix over the corpus rows (`Corpus.position` order).

    `min_label_size` drops labels carried by fewer articles (they then count as absent).
    """

    def __init__(self, corpus: Corpus, aspects: Sequence[str], min_label_size: int = 1):
        self.aspects = list(aspects)
        self.size = len(corpus)
        self.vocab: dict[str, list[str]] = {}
        self.matrix: dict[str, sparse.csr_matrix] = {}
        for aspect in self.aspects:
            counts = corpus.label_counts(aspect)
            vocab = sorted(label for label, n in counts.items() if n >= min_label_size)
            ids = {label: i for i, label in enumerate(vocab)}
            rows, cols = [], []
            for row, article in enumerate(corpus.articles):
                for label in article.labels(aspect):
                    if label in ids:
                        rows.append(row)
                        cols.append(ids[label])
            data = np.ones(len(rows), dtype=np.float32)
            self.vocab[aspect] = vocab
            self.matrix[aspect] = sparse.csr_matrix((data, (rows, cols)), shape=(self.size, len(vocab)))

    def has(self, aspect: str) -> np.ndarray:
        """Boolean mask of the rows that carry at least one label of `aspect`."""
        return np.asarray(self.matrix[aspect].getnnz(axis=1) > 0)

    def labels_of(self, aspect: str, row: int) -> np.ndarray:
        m = self.matrix[aspect]
        return m.indices[m.indptr[row]:m.indptr[row + 1]]

    @cached_property
    def _members(self) -> dict[str, sparse.csc_matrix]:
        return {aspect: m.tocsc() for aspect, m in self.matrix.items()}

    def members(self, aspect: str, label: int) -> np.ndarray:
        """Rows carrying label id `label` of `aspect`."""
        m = self._members[aspect]
        return m.indices[m.indptr[label]:m.indptr[label + 1]]

    def shares(self, aspect: str, rows_a: np.ndarray, rows_b: np.ndarray) -> np.ndarray:
        """Dense bool matrix: rows_a[i] and rows_b[j] share at least one label of `aspect`."""
        m = self.matrix[aspect]
        return (m[np.asarray(rows_a)] @ m[np.asarray(rows_b)].T).toarray() > 0

    def shares_pairwise(self, aspect: str, rows_a: np.ndarray, rows_b: np.ndarray) -> np.ndarray:
        """Bool vector: rows_a[i] and rows_b[i] share at least one label of `aspect`."""
        m = self.matrix[aspect]
        return np.asarray(m[np.asarray(rows_a)].multiply(m[np.asarray(rows_b)]).sum(axis=1)).ravel() > 0


@dataclass(frozen=True)
class RelevanceRule:
    """Relevance for one space: `single` (one aspect), `union` (any aspect), `intersection` (all), `graded`
    (any aspect, and sharing more of them ranks higher: `grades`)."""

    index: LabelIndex
    aspects: tuple[str, ...]
    combine: Combine = "single"

    def matrix(self, rows_a: Sequence[int], rows_b: Sequence[int]) -> np.ndarray:
        per_aspect = [self.index.shares(a, rows_a, rows_b) for a in self.aspects]
        if self.combine == "intersection":
            return np.logical_and.reduce(per_aspect)
        return np.logical_or.reduce(per_aspect)

    def grades(self, rows_a: Sequence[int], rows_b: Sequence[int]) -> np.ndarray:
        """How many of the aspects rows_a[i] and rows_b[j] share (0..len(aspects)): graded relevance."""
        return np.sum([self.index.shares(a, rows_a, rows_b) for a in self.aspects], axis=0, dtype=np.int64)

    def gains(self, rows_a: Sequence[int], rows_b: Sequence[int]) -> np.ndarray:
        """Graded relevance for nDCG: the number of shared aspects where any aspect counts (union, graded),
        otherwise 1 for a relevant pair (single, intersection)."""
        if self.combine in ("union", "graded"):
            return self.grades(rows_a, rows_b)
        return self.matrix(rows_a, rows_b).astype(np.int64)

    def pairs(self, rows_a: Sequence[int], rows_b: Sequence[int]) -> np.ndarray:
        """`matrix`'s diagonal without the matrix: relevance of each pair (rows_a[i], rows_b[i])."""
        per_aspect = [self.index.shares_pairwise(a, rows_a, rows_b) for a in self.aspects]
        if self.combine == "intersection":
            return np.logical_and.reduce(per_aspect)
        return np.logical_or.reduce(per_aspect)

    def labelled(self) -> np.ndarray:
        """Rows that can be anchors: a label in the aspect (single/union: any; intersection: all)."""
        has = [self.index.has(a) for a in self.aspects]
        return np.logical_and.reduce(has) if self.combine == "intersection" else np.logical_or.reduce(has)

    def related(self, row_a: int, row_b: int) -> bool:
        """`matrix` for a single pair, without building matrices (the triplet sampler's hot path)."""
        shared = [bool(np.intersect1d(self.index.labels_of(a, row_a), self.index.labels_of(a, row_b)).size)
                  for a in self.aspects]
        return all(shared) if self.combine == "intersection" else any(shared)
