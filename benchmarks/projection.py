"""Projection: our map path (openTSNE) against scikit-learn's t-SNE on the same vectors.

Run alone: python -m benchmarks projection
"""
from __future__ import annotations

import numpy as np

from benchmarks.common import Row, timed
from explore.maps import ProjectionParams, tsne


def _vectors(n: int) -> np.ndarray:
    """Real generic embeddings of the vital corpus when shipped; else a seeded clustered stand-in."""
    try:
        from benchmarks.data import vital_generic_embeddings

        vectors = vital_generic_embeddings()
        rows = np.random.default_rng(0).choice(len(vectors), size=min(n, len(vectors)), replace=False)
        return vectors[rows].astype(np.float32)
    except Exception:  # noqa: BLE001 - the benchmark still runs without shipped spaces
        from benchmarks.data import clustered_vectors

        return clustered_vectors(n, 384, seed=0)


def run(quick: bool = False) -> list[Row]:
    rows = []
    sizes = [500] if quick else [2000, 10000]
    small = _vectors(200)
    for method in ("opentsne", "sklearn"):  # warm-up: imports and JIT compilation, excluded
        tsne(small, ProjectionParams(method=method))
    for n in sizes:
        vectors = _vectors(n)
        repeats = 1 if quick or n > 2000 else 3
        ours = timed(lambda: tsne(vectors, ProjectionParams(method="opentsne")), repeats=repeats, warmup=0)
        peer = timed(lambda: tsne(vectors, ProjectionParams(method="sklearn")), repeats=repeats, warmup=0)
        rows.append(Row("projection", f"t-SNE {len(vectors)} points (perplexity 30, 500 iter)", ours.median,
                        peer.median, "s", "sklearn TSNE", spread=f"ours {ours.spread}; peer {peer.spread}",
                        notes=f"{repeats} run(s) each"))
    return rows
