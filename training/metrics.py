"""Retrieval metrics of a ranking: P/R/MRR/MAP/nDCG@k, AgTS and neighbour overlap.

A ranking is a training.rankings.Ranking (the engine's served ranking for a query) or an embedding
matrix in corpus row order (exact cosine). `relevance(rows_a, rows_b)` returns the bool matrix of
who is relevant to whom, `gains(rows_a, rows_b)` the graded relevance (how many aspects a pair shares;
0 = not relevant), and `pair_relevance(rows_a, rows_b)` the bool vector for the pairs (rows_a[i],
rows_b[i]) (see relevance.py).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scipy.stats import spearmanr

from training.rankings import CHUNK, Ranking, as_ranking

Relevance = Callable[[np.ndarray, np.ndarray], np.ndarray]
Gains = Callable[[np.ndarray, np.ndarray], np.ndarray]
PairRelevance = Callable[[np.ndarray, np.ndarray], np.ndarray]


def neighbours(ranking: "Ranking | np.ndarray", seeds: np.ndarray, pool: np.ndarray | None, k: int) -> np.ndarray:
    """Corpus rows of the k best pool articles of each seed, best first, seed excluded (-1 pads)."""
    return as_ranking(ranking).top(np.asarray(seeds), pool, k)


def retrieval_metrics(ranking: "Ranking | np.ndarray", relevance: Relevance, seeds: np.ndarray,
                      pool: np.ndarray | None, k: int = 10, gains: Gains | None = None) -> dict[str, float]:
    """Mean P@k, R@k, MRR@k, MAP@k and nDCG@k over seeds with at least one relevant article in the pool
    (`pool` None = the whole corpus, ranked exactly as served).

    MAP@k divides by min(k, relevant), as sentence-transformers' IR evaluator does (ranx and trec_eval
    divide by every relevant article, which caps MAP@10 far below 1 for a big label). nDCG@k uses
    `gains` (binary relevance when None) with linear gain and log2(rank + 1) discount, the ideal list
    being the pool's best k gains: ranx's `ndcg@k` and scikit-learn's `ndcg_score` (cross-checked in tests).
    """
    ranking = as_ranking(ranking)
    seeds = np.asarray(seeds)
    pool_rows = np.arange(ranking.size) if pool is None else np.asarray(pool)
    position = np.full(ranking.size, -1)
    position[pool_rows] = np.arange(len(pool_rows))
    sums = {"precision": 0.0, "recall": 0.0, "mrr": 0.0, "map": 0.0, "ndcg": 0.0}
    discount = 1.0 / np.log2(np.arange(2, k + 2))
    counted = skipped = 0
    for start in range(0, len(seeds), CHUNK):
        chunk = seeds[start:start + CHUNK]
        top = ranking.top(chunk, pool, k)
        not_seed = chunk[:, None] != pool_rows[None, :]
        relevant = relevance(chunk, pool_rows) & not_seed
        graded = np.asarray(gains(chunk, pool_rows) if gains else relevant, dtype=np.float64) * not_seed
        n_relevant = relevant.sum(axis=1)
        keep = n_relevant > 0
        skipped += int((~keep).sum())
        columns = np.where(top >= 0, position[np.maximum(top, 0)], -1)
        hits = np.where(columns >= 0, np.take_along_axis(relevant, np.maximum(columns, 0), axis=1), False)
        gained = np.where(columns >= 0, np.take_along_axis(graded, np.maximum(columns, 0), axis=1), 0.0)[keep]
        ideal = -np.sort(-graded[keep], axis=1)[:, :k]  # the best list the pool allows
        hits = hits[keep].astype(np.float64)
        n_relevant = n_relevant[keep]
        if not len(hits):
            continue
        ranks = np.arange(1, hits.shape[1] + 1)
        first = np.where(hits.any(axis=1), hits.argmax(axis=1) + 1, np.inf)
        sums["precision"] += (hits.sum(axis=1) / k).sum()
        sums["recall"] += (hits.sum(axis=1) / n_relevant).sum()
        sums["mrr"] += (1.0 / first).sum()
        sums["map"] += ((hits * np.cumsum(hits, axis=1) / ranks).sum(axis=1) / np.minimum(k, n_relevant)).sum()
        sums["ndcg"] += ((gained * discount[:gained.shape[1]]).sum(axis=1)
                         / (ideal * discount[:ideal.shape[1]]).sum(axis=1)).sum()
        counted += len(hits)
    metrics = {f"{name}@{k}": (value / counted if counted else 0.0) for name, value in sums.items()}
    metrics.update(seeds=counted, seeds_without_relevant=skipped)
    return metrics


def agts(ranking: "Ranking | np.ndarray", pair_relevance: PairRelevance, rows: np.ndarray, pairs: int = 20000,
         seed: int = 0) -> float:
    """Aspect-guided textual similarity (SentiCSE's SgTS for any aspect): Spearman between the score
    (cosine; a blend's weighted cosine) of sampled article pairs and whether they share a label (0/1);
    NaN for a ranking without scores (links)."""
    rows = np.asarray(rows)
    if len(rows) < 2:
        return float("nan")
    rng = np.random.default_rng(seed)
    a = rows[rng.integers(len(rows), size=pairs)]
    b = rows[rng.integers(len(rows), size=pairs)]
    keep = a != b
    a, b = a[keep], b[keep]
    cosine = as_ranking(ranking).pair_scores(a, b)
    if cosine is None:
        return float("nan")
    same = np.asarray(pair_relevance(a, b), dtype=bool)
    if same.all() or not same.any():
        return float("nan")
    return float(spearmanr(cosine, same.astype(np.float64)).statistic)


def neighbour_overlap(first: "Ranking | np.ndarray", second: "Ranking | np.ndarray", seeds: np.ndarray,
                      pool: np.ndarray | None = None, k: int = 50) -> float:
    """Overlap@k (Ostendorff et al. 2022, Table 4): mean share of the k neighbours two spaces agree on."""
    if not len(seeds):
        return float("nan")
    a, b = neighbours(first, seeds, pool, k), neighbours(second, seeds, pool, k)
    return float(np.mean([len(np.intersect1d(x[x >= 0], y[y >= 0])) / k for x, y in zip(a, b)]))


def linked_share(ranking: "Ranking | np.ndarray", links: Ranking, seeds: np.ndarray, k: int = 10,
                 most_links: int = 1000) -> float:
    """Links@k: mean share of each seed's top k that the seed links to (`links` ranks a seed's links, in
    any order): how much the links decide a list. A description, not a score where higher is better."""
    seeds = np.asarray(seeds)
    if not len(seeds):
        return float("nan")
    ranking = as_ranking(ranking)
    total = 0.0
    for start in range(0, len(seeds), CHUNK):
        chunk = seeds[start:start + CHUNK]
        top, linked = ranking.top(chunk, None, k), links.top(chunk, None, most_links)
        total += sum(len(np.intersect1d(x[x >= 0], y[y >= 0])) / k for x, y in zip(top, linked))
    return float(total / len(seeds))
