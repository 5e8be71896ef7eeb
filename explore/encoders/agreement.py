"""How closely two encodings of the same texts agree: the worst cosine and the nn@k overlap.

nn@k overlap: for each text, the share of its k nearest neighbours (among the same texts, itself
excluded) that both encodings agree on, averaged. 1.0 = the same neighbourhoods; it is what a user
of the space sees change, where a cosine of 0.9999 says little by itself.
"""
from __future__ import annotations

import numpy as np


def min_cosine(a: np.ndarray, b: np.ndarray) -> float:
    """The smallest row-wise cosine between two row-normalised encodings."""
    return float((np.asarray(a, np.float32) * np.asarray(b, np.float32)).sum(axis=1).min())


def neighbour_overlap(a: np.ndarray, b: np.ndarray, k: int = 10) -> float:
    """Mean share of each row's k nearest rows (cosine, itself excluded) that `a` and `b` agree on."""
    k = min(k, len(a) - 1)
    if k < 1:
        return 1.0
    return float(np.mean([len(set(x) & set(y)) / k for x, y in zip(_top_k(a, k), _top_k(b, k))]))


def _top_k(vectors: np.ndarray, k: int) -> np.ndarray:
    scores = np.asarray(vectors, np.float32) @ np.asarray(vectors, np.float32).T
    np.fill_diagonal(scores, -np.inf)
    return np.argpartition(-scores, k - 1, axis=1)[:, :k]
