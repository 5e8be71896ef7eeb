"""The seeded train/test split by article: test articles never appear in a training example."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from explore.corpus.model import Corpus


@dataclass(frozen=True)
class ArticleSplit:
    """Corpus rows of the train and test articles, both sorted."""

    train: np.ndarray
    test: np.ndarray
    seed: int
    test_fraction: float

    @property
    def fingerprint(self) -> str:
        """Identifies the split: runs evaluated together must share it."""
        return hashlib.sha256(np.asarray(self.test, dtype=np.int64).tobytes()).hexdigest()[:12]

    def describe(self) -> dict:
        return {"seed": self.seed, "test_fraction": self.test_fraction, "train": int(len(self.train)),
                "test": int(len(self.test)), "fingerprint": self.fingerprint}


def split_by_article(corpus: Corpus, seed: int = 42, test_fraction: float = 0.2) -> ArticleSplit:
    """Shuffle article rows with `seed`; the first `test_fraction` of them are the test articles."""
    rows = np.random.default_rng(seed).permutation(len(corpus))
    n_test = int(round(len(corpus) * test_fraction))
    return ArticleSplit(np.sort(rows[n_test:]), np.sort(rows[:n_test]), seed, test_fraction)
