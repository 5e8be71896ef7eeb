"""What evaluation ranks with: an embedding matrix (a model in training) or an engine query (what is served).

Both answer `top(seeds, pool, k)` and `pair_scores(a, b)`. `QueryRanking` goes through the engine's one
ranking (explore/ranking.py), so a reported blend or space figure measures the very lists the app
and the CLI show; `EmbeddingRanking` is exact cosine over a matrix, for models being trained.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from explore.errors import InvalidQueryError, UnknownSpaceError
from explore.mix import DEFAULT_LINKS_SHARE, default_mix
from explore.neighbours import Neighbourhood
from explore.query import LINKS, Kind, Query
from explore.ranking import LINKS_COMPONENT, pair_scores

CHUNK = 256
UNSCORED = (Kind.LINKS, Kind.MORELIKE)  # columns that order cards without a similarity of every pair


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


# Read more asked this deep for a seed whose pool is a split's test articles: its cards in the pool, in order.
MORELIKE_DEPTH = 400


class QueryRanking:
    """The engine's ranking for one query (a space, a blend of spaces, `links`: the links column, or `morelike`:
    Wikipedia's Read more), seed by seed. Links and Read more rank without scores: inside a pool, their cards that
    lie in the pool, in order (Read more's first MORELIKE_DEPTH)."""

    def __init__(self, engine: Neighbourhood, query: "Query | str"):
        self.engine = engine
        self.query = Query.parse(query)
        if self.query.kind is Kind.LINKS and LINKS not in engine.available_queries():
            raise UnknownSpaceError(f"Corpus {engine.corpus.name!r} has no links to evaluate.")
        self.mix = {} if self.query.kind in UNSCORED else engine.resolve(self.query)
        self.size = len(engine.corpus)

    def top(self, seeds: np.ndarray, pool: np.ndarray | None, k: int) -> np.ndarray:
        return _seed_by_seed(self, seeds, pool, k)

    def rows_for(self, seed: int, pool: np.ndarray | None, k: int) -> np.ndarray:
        if self.query.kind in UNSCORED:
            article = self.engine.corpus.articles[seed]
            if self.query.kind is Kind.LINKS:
                rows = np.asarray(self.engine.linked_rows(article), dtype=np.int64)
            else:
                depth = k if pool is None else max(k, MORELIKE_DEPTH)
                rows = np.asarray([card.row for card in self.engine.read_more(article, depth).cards], dtype=np.int64)
            return (rows if pool is None else rows[np.isin(rows, pool)])[:k]
        return _rows(self.engine, self.query, seed, pool, k)

    def pair_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        if self.query.kind in UNSCORED or LINKS_COMPONENT in self.mix:
            return None  # a links weight scores a seed's neighbours, not any pair of articles
        return pair_scores(self.engine.spaces, self.mix, a, b)


@dataclass(frozen=True)
class DefaultMix:
    """An evaluation row meaning "each seed's default *your mix*" (explore/mix.py): its own aspect spaces
    equally weighted plus its links at `links_share`. Spelt `default-mix` (the app's share) or
    `default-mix:0.1`; `parse()` and `str()` round-trip."""

    links_share: float = DEFAULT_LINKS_SHARE

    PREFIX = "default-mix"

    @classmethod
    def spelt(cls, text: str) -> bool:
        return text == cls.PREFIX or text.startswith(cls.PREFIX + ":")

    @classmethod
    def parse(cls, text: str) -> "DefaultMix":
        _, _, share = text.partition(":")
        try:
            value = float(share) if share else DEFAULT_LINKS_SHARE
        except ValueError:
            value = -1.0
        if not 0.0 <= value <= 1.0:
            raise InvalidQueryError(f"{text!r}: the links share of a default mix is a number from 0 to 1, "
                                    f"e.g. {cls.PREFIX}:0.1.")
        return cls(value)

    def __str__(self) -> str:
        return f"{self.PREFIX}:{self.links_share:g}"


class DefaultMixRanking:
    """Each seed ranked by its own default mix (a blend of the seed's aspect spaces and its links), through
    the engine's ranking, as the app's *your mix* column serves it before the reader changes it."""

    def __init__(self, engine: Neighbourhood, spec: DefaultMix):
        self.engine = engine
        self.query = spec
        self.mix = {name: 1.0 for name, space in engine.spaces.items() if space.kind in ("aspect", "generic")}
        self.size = len(engine.corpus)

    def blend_for(self, seed: int) -> Query | None:
        blend = default_mix(self.engine, self.engine.corpus.articles[int(seed)], self.query.links_share)
        return None if blend is None else Query.blended(blend)

    def top(self, seeds: np.ndarray, pool: np.ndarray | None, k: int) -> np.ndarray:
        return _seed_by_seed(self, seeds, pool, k)

    def rows_for(self, seed: int, pool: np.ndarray | None, k: int) -> np.ndarray:
        query = self.blend_for(seed)
        return np.empty(0, dtype=np.int64) if query is None else _rows(self.engine, query, seed, pool, k)

    def pair_scores(self, a: np.ndarray, b: np.ndarray) -> None:
        return None  # each seed has its own mix (and links): no one score over pairs of articles


def _rows(engine: Neighbourhood, query: Query, seed: int, pool: np.ndarray | None, k: int) -> np.ndarray:
    """Over the whole corpus, the column as served (a labelled column or a mix relevant first,
    explore/relevant_first.py); inside a pool of test articles, the query's spaces alone: the research's
    protocol measures a space, and the served pool of related articles is not the test pool."""
    if pool is None:
        return engine.served_rows(query, seed, k)[0]
    return engine.ranked_rows(query, seed, k, pool)[0]


def _seed_by_seed(ranking, seeds: np.ndarray, pool: np.ndarray | None, k: int) -> np.ndarray:
    """`top` from `ranking.rows_for(seed, pool, k)`, one seed at a time, remembered per (seed, pool, k): the
    evaluator asks again for the seeds several columns share."""
    pool = None if pool is None else np.sort(np.asarray(pool, dtype=np.int64))
    pool_key = None if pool is None else hash(pool.tobytes())
    memo = ranking.__dict__.setdefault("_memo", {})
    out = np.full((len(seeds), k), -1, dtype=np.int64)
    for i, seed in enumerate(np.asarray(seeds)):
        key = (int(seed), pool_key, k)
        if key not in memo:
            memo[key] = ranking.rows_for(int(seed), pool, k)
        rows = memo[key]
        out[i, :len(rows)] = rows
    return out


def ranking_for(engine: Neighbourhood, row: "Query | DefaultMix") -> "QueryRanking | DefaultMixRanking":
    """The ranking an evaluation row names (training.cli.evaluation_rows)."""
    return DefaultMixRanking(engine, row) if isinstance(row, DefaultMix) else QueryRanking(engine, row)


def as_ranking(ranking: "Ranking | np.ndarray") -> Ranking:
    """A Ranking as given, or exact cosine over an embedding matrix."""
    return ranking if hasattr(ranking, "top") else EmbeddingRanking(ranking)
