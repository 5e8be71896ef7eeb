"""How a mix of spaces ranks articles: the one ranking the app, the CLI, the study and evaluation share.

One space ranks by cosine (hnswlib for the whole corpus, exact search inside a pool). A blend lets
each of its spaces propose its top candidates, re-scores their union exactly in every space and
ranks by the weighted sum of cosines. Evaluation asks the same function, with its pool of test
articles where it needs one, so the figures it reports are those of the ranking the app serves.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from explore.spaces.space import Space
from explore.spaces.vector_index import exact_query

# Each blended space proposes this many candidates (at least 3k): enough that an article ranked
# high by the mix is almost always ranked high in at least one of its spaces.
BLEND_CANDIDATES = 50


def _nearest(space: Space, vector: np.ndarray, k: int, pool: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    if pool is None:
        return space.nearest(vector, k)
    positions, scores = exact_query(space.embeddings_[pool], vector, k)
    return pool[positions], scores


def ranked_rows(spaces: Mapping[str, Space], mix: Mapping[str, float], vectors: Mapping[str, np.ndarray], k: int,
                exclude: int | None = None, pool: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Rows and scores of the k best articles for `mix` (space name → weight summing to 1), best first.

    `vectors` holds the query vector per space; `exclude` (the seed's row) is never returned; `pool`
    (sorted corpus rows) limits the candidates, None meaning the whole corpus."""
    extra = 0 if exclude is None else 1
    if len(mix) == 1:
        (name,) = mix
        rows, scores = _nearest(spaces[name], vectors[name], k + extra, pool)
    else:
        wanted = max(BLEND_CANDIDATES, 3 * k) + extra
        rows = np.unique(np.concatenate([_nearest(spaces[n], vectors[n], wanted, pool)[0] for n in mix]))
        scores = sum(w * spaces[n].similarities(vectors[n], rows) for n, w in mix.items())
        order = np.argsort(-scores, kind="stable")
        rows, scores = rows[order], scores[order]
    keep = rows != exclude if exclude is not None else np.ones(len(rows), dtype=bool)
    return rows[keep][:k], np.asarray(scores)[keep][:k]


def pair_scores(spaces: Mapping[str, Space], mix: Mapping[str, float], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The mix's score of each pair (a[i], b[i]): the weighted cosine the ranking sorts by."""
    return sum(w * np.einsum("ij,ij->i", spaces[n].embeddings_[a], spaces[n].embeddings_[b]) for n, w in mix.items())
