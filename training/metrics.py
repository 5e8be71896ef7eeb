"""Retrieval metrics on an embedding matrix: P/R/MRR/MAP@k, AgTS and neighbour overlap.

Rows of `embeddings` follow the corpus order; embeddings are L2-normalised here, so dot = cosine.
`relevance(rows_a, rows_b)` returns the bool matrix of who is relevant to whom, and
`pair_relevance(rows_a, rows_b)` the bool vector for the pairs (rows_a[i], rows_b[i]) (see relevance.py).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scipy.stats import spearmanr

Relevance = Callable[[np.ndarray, np.ndarray], np.ndarray]
PairRelevance = Callable[[np.ndarray, np.ndarray], np.ndarray]
CHUNK = 256


def normalise(embeddings: np.ndarray) -> np.ndarray:
    embeddings = np.asarray(embeddings, dtype=np.float32)
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    return embeddings / np.maximum(norms, 1e-12)


def _chunks(seeds: np.ndarray):
    for start in range(0, len(seeds), CHUNK):
        yield seeds[start:start + CHUNK]


def _ranked(embeddings: np.ndarray, seeds: np.ndarray, pool: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k pool positions per seed (the seed itself excluded), best first, and the self mask."""
    sims = embeddings[seeds] @ embeddings[pool].T
    is_self = seeds[:, None] == pool[None, :]
    sims[is_self] = -np.inf
    k = min(k, len(pool) - 1)
    top = np.argpartition(-sims, k - 1, axis=1)[:, :k] if k < len(pool) else np.argsort(-sims, axis=1)[:, :k]
    order = np.argsort(-np.take_along_axis(sims, top, axis=1), axis=1, kind="stable")
    return np.take_along_axis(top, order, axis=1), is_self


def neighbours(embeddings: np.ndarray, seeds: np.ndarray, pool: np.ndarray, k: int) -> np.ndarray:
    """Corpus rows of the k nearest pool articles of each seed, best first, seed excluded."""
    embeddings = normalise(embeddings)
    seeds, pool = np.asarray(seeds), np.asarray(pool)
    if not len(seeds):
        return np.empty((0, k), dtype=np.int64)
    return np.concatenate([pool[_ranked(embeddings, chunk, pool, k)[0]] for chunk in _chunks(seeds)])


def retrieval_metrics(embeddings: np.ndarray, relevance: Relevance, seeds: np.ndarray, pool: np.ndarray,
                      k: int = 10) -> dict[str, float]:
    """Mean P@k, R@k, MRR@k and MAP@k over seeds with at least one relevant article in the pool.

    MAP@k divides by min(k, relevant), as ranx and sentence-transformers' IR evaluator do.
    """
    embeddings = normalise(embeddings)
    seeds, pool = np.asarray(seeds), np.asarray(pool)
    sums = {"precision": 0.0, "recall": 0.0, "mrr": 0.0, "map": 0.0}
    counted = skipped = 0
    for chunk in _chunks(seeds):
        top, is_self = _ranked(embeddings, chunk, pool, k)
        relevant = relevance(chunk, pool) & ~is_self
        n_relevant = relevant.sum(axis=1)
        keep = n_relevant > 0
        skipped += int((~keep).sum())
        hits = np.take_along_axis(relevant, top, axis=1)[keep].astype(np.float64)
        n_relevant = n_relevant[keep]
        if not len(hits):
            continue
        ranks = np.arange(1, hits.shape[1] + 1)
        first = np.where(hits.any(axis=1), hits.argmax(axis=1) + 1, np.inf)
        sums["precision"] += (hits.sum(axis=1) / k).sum()
        sums["recall"] += (hits.sum(axis=1) / n_relevant).sum()
        sums["mrr"] += (1.0 / first).sum()
        sums["map"] += ((hits * np.cumsum(hits, axis=1) / ranks).sum(axis=1) / np.minimum(k, n_relevant)).sum()
        counted += len(hits)
    metrics = {f"{name}@{k}": (value / counted if counted else 0.0) for name, value in sums.items()}
    metrics.update(seeds=counted, seeds_without_relevant=skipped)
    return metrics


def agts(embeddings: np.ndarray, pair_relevance: PairRelevance, rows: np.ndarray, pairs: int = 20000,
         seed: int = 0) -> float:
    """Aspect-guided textual similarity (SentiCSE's SgTS for any aspect): Spearman between the cosine
    of sampled article pairs and whether they share a label (0/1)."""
    rows = np.asarray(rows)
    if len(rows) < 2:
        return float("nan")
    rng = np.random.default_rng(seed)
    a = rows[rng.integers(len(rows), size=pairs)]
    b = rows[rng.integers(len(rows), size=pairs)]
    keep = a != b
    a, b = a[keep], b[keep]
    embeddings = normalise(embeddings)
    cosine = np.einsum("ij,ij->i", embeddings[a], embeddings[b])
    same = np.asarray(pair_relevance(a, b), dtype=bool)
    if same.all() or not same.any():
        return float("nan")
    return float(spearmanr(cosine, same.astype(np.float64)).statistic)


def neighbour_overlap(first: np.ndarray, second: np.ndarray, seeds: np.ndarray, pool: np.ndarray,
                      k: int = 50) -> float:
    """Overlap@k (Ostendorff et al. 2022, Table 4): mean share of the k neighbours two spaces agree on."""
    if not len(seeds):
        return float("nan")
    a, b = neighbours(first, seeds, pool, k), neighbours(second, seeds, pool, k)
    return float(np.mean([len(np.intersect1d(x, y)) / a.shape[1] for x, y in zip(a, b)]))
