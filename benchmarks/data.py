"""Inputs the benchmarks share: the shipped vital embeddings and seeded synthetic vectors."""
from __future__ import annotations

import numpy as np


def vital_generic_embeddings() -> np.ndarray:
    from explore.corpus import open_corpus
    from explore.spaces import open_space

    return np.asarray(open_space(open_corpus("vital"), "generic").embeddings_, dtype=np.float32)


def clustered_vectors(n: int, dim: int, seed: int = 0, clusters: int | None = None, latent: int = 48) -> np.ndarray:
    """Unit vectors shaped like sentence embeddings: a mixture of clusters in a low-dimensional
    latent space, mapped linearly into `dim` dimensions, plus a little isotropic noise. (Plain
    Gaussian noise in 384-d has no neighbourhood structure at all, and no index does well on it.)"""
    rng = np.random.default_rng(seed)
    clusters = clusters or max(8, int(np.sqrt(n) / 2))
    centres = rng.standard_normal((clusters, latent)).astype(np.float32)
    mixing = rng.standard_normal((latent, dim)).astype(np.float32) / np.sqrt(latent)
    out = np.empty((n, dim), dtype=np.float32)
    step = 100_000
    for start in range(0, n, step):
        stop = min(n, start + step)
        assign = rng.integers(0, clusters, size=stop - start)
        points = centres[assign] + 0.5 * rng.standard_normal((stop - start, latent)).astype(np.float32)
        out[start:stop] = points @ mixing + 0.05 * rng.standard_normal((stop - start, dim)).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out
