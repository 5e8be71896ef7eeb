"""How closely two encodings of the same texts agree: the worst cosine and the nn@k overlap.

nn@k overlap: for each text, the share of its k nearest neighbours (among the same texts, itself
excluded) that both encodings agree on, averaged. 1.0 = the same neighbourhoods; it is what a user
of the space sees change, where a cosine of 0.9999 says little by itself.
"""
from __future__ import annotations

import numpy as np

from explore.spaces.vector_index import exact_neighbours_among


def min_cosine(a: np.ndarray, b: np.ndarray) -> float:
    """The smallest row-wise cosine between two row-normalised encodings."""
    return float((np.asarray(a, np.float32) * np.asarray(b, np.float32)).sum(axis=1).min())


def neighbour_overlap(a: np.ndarray, b: np.ndarray, k: int = 10) -> float:
    """Mean share of each row's k nearest rows (cosine, itself excluded) that `a` and `b` agree on."""
    k = min(k, len(a) - 1)
    if k < 1:
        return 1.0
    (near_a, _), (near_b, _) = exact_neighbours_among(a, k), exact_neighbours_among(b, k)
    return float(np.mean([len(set(x) & set(y)) / k for x, y in zip(near_a, near_b)]))
