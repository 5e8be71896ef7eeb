"""What evaluation ranks with: an embedding matrix (a model in training) or an engine query (what is served).

Both answer `top(seeds, pool, k)` and `pair_scores(a, b)`. `QueryRanking` goes through the engine's one
ranking (explore/ranking.py), so a reported blend or space figure measures the very lists the app
and the CLI show; `EmbeddingRanking` is exact cosine over a matrix, for models being trained.
"""
from __future__ import annotations

from typing import Protocol

import numpy as np

from explore.errors import UnknownSpaceError
from explore.neighbours import Neighbourhood
from explore.query import LINKS, Kind, Query
from explore.ranking import pair_scores

CHUNK = 256


class Ranking(Protocol):
    size: int  # rows of the corpus it ranks

    def top(self, seeds: np.ndarray, pool: np.ndarray | None, k: int) -> np.ndarray:
        """Corpus rows of each seed's k best pool articles, best first, the seed excluded; -1 pads
        a list with fewer than k. `pool` None = the whole corpus."""

    def pair_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        """The score the ranking sorts by, for each pair (a[i], b[i]); None when it has no score (links)."""


def normalise(embeddings: np.ndarray) -> np.ndarray:
    embeddings = np.asarray(embeddings, dtype=np.float32)
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    return embeddings / np.maximum(norms, 1e-12)


class EmbeddingRanking:
    """Exact cosine over an embedding matrix in corpus row order (normalised here)."""

    def __init__(self, embeddings: np.ndarray):
        self.embeddings = normalise(embeddings)
        self.size = len(self.embeddings)

    def top(self, seeds: np.ndarray, pool: np.ndarray | None, k: int) -> np.ndarray:
        seeds = np.asarray(seeds, dtype=np.int64)
        pool = np.arange(self.size) if pool is None else np.asarray(pool, dtype=np.int64)
        out = np.full((len(seeds), k), -1, dtype=np.int64)
        take = min(k, len(pool) - 1)
        if take <= 0:
            return out
        for start in range(0, len(seeds), CHUNK):
            chunk = seeds[start:start + CHUNK]
            sims = self.embeddings[chunk] @ self.embeddings[pool].T
            sims[chunk[:, None] == pool[None, :]] = -np.inf
            best = np.argpartition(-sims, take - 1, axis=1)[:, :take]
            order = np.argsort(-np.take_along_axis(sims, best, axis=1), axis=1, kind="stable")
            out[start:start + len(chunk), :take] = pool[np.take_along_axis(best, order, axis=1)]
        return out

    def pair_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.einsum("ij,ij->i", self.embeddings[a], self.embeddings[b])


class QueryRanking:
    """The engine's ranking for one query (a space, a blend of spaces, or `links`: the links column), seed
    by seed. Links rank without scores: inside a pool, the served links that lie in the pool, in order."""

    def __init__(self, engine: Neighbourhood, query: "Query | str"):
        self.engine = engine
        self.query = Query.parse(query)
        if self.query.kind is Kind.LINKS and LINKS not in engine.available_queries():
            raise UnknownSpaceError(f"Corpus {engine.corpus.name!r} has no links to evaluate.")
        self.mix = {} if self.query.kind is Kind.LINKS else engine.resolve(self.query)
        self.size = len(engine.corpus)

    def top(self, seeds: np.ndarray, pool: np.ndarray | None, k: int) -> np.ndarray:
        pool = None if pool is None else np.sort(np.asarray(pool, dtype=np.int64))
        out = np.full((len(seeds), k), -1, dtype=np.int64)
        for i, seed in enumerate(np.asarray(seeds)):
            if self.query.kind is Kind.LINKS:
                rows = np.asarray(self.engine.linked_rows(self.engine.corpus.articles[int(seed)]), dtype=np.int64)
                rows = (rows if pool is None else rows[np.isin(rows, pool)])[:k]
            else:
                rows, _ = self.engine.ranked_rows(self.query, int(seed), k, pool)
            out[i, :len(rows)] = rows
        return out

    def pair_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        return None if self.query.kind is Kind.LINKS else pair_scores(self.engine.spaces, self.mix, a, b)


def as_ranking(ranking: "Ranking | np.ndarray") -> Ranking:
    """A Ranking as given, or exact cosine over an embedding matrix."""
    return ranking if hasattr(ranking, "top") else EmbeddingRanking(ranking)
