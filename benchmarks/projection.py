"""Projection: our t-SNE (openTSNE as the Maps page runs it) against scikit-learn's at the same iterations, and
the Maps page's settings against the ones they replaced; trustworthiness@10 beside every time.

Equal iterations: scikit-learn's `max_iter` counts its early-exaggeration iterations, fixed at 250 (a class
constant, not a parameter), so ours runs 250 early + 250 normal against `max_iter=500`: the same phases, the
same total. Both use every usable core, cosine input distances, PCA initialisation and random state 0; each
library keeps its own learning rate and kNN (ours: exact up to 5,000 points, then Annoy; scikit-learn: exact).
Trustworthiness@10 is scikit-learn's, with the cosine metric of the input.

UMAP against t-SNE (issue #26, the Maps page's Projection choice): each with the page's own settings on the same
input vectors and the same n (equal work: the same map asked of each), UMAP as ours (umap-learn, 15 neighbours,
min_dist 0.1, cosine, one thread for a reproducible map), t-SNE as the peer (openTSNE 125 + 250, every usable core).

Run alone: python -m benchmarks projection [--quick]
"""
from __future__ import annotations

import time

import numpy as np

from benchmarks.common import Row
from explore.map_umap import UmapParams, umap_layout
from explore.maps import LEGACY_PARAMS, ProjectionParams, tsne, usable_cores

EQUAL = ProjectionParams(early_iter=250, n_iter=250)  # = scikit-learn max_iter 500: 250 exaggerated + 250
BEFORE = "AspectNav before #14 (openTSNE 250+500, Annoy kNN)"


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


def trustworthiness_at_10(vectors: np.ndarray, coords: np.ndarray) -> float:
    from sklearn.manifold import trustworthiness

    return float(trustworthiness(vectors, coords, n_neighbors=10, metric="cosine"))


def sklearn_tsne(vectors: np.ndarray, max_iter: int) -> np.ndarray:
    from sklearn.manifold import TSNE

    return TSNE(perplexity=30, max_iter=max_iter, metric="cosine", init="pca", random_state=0,
                n_jobs=usable_cores()).fit_transform(vectors)


def _runs(project, repeats: int) -> tuple[list[float], np.ndarray]:
    """Seconds of each run and the last run's coordinates (every run gives the same map: fixed random state)."""
    seconds, coords = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        coords = project()
        seconds.append(time.perf_counter() - start)
    return seconds, np.asarray(coords)


def _pair(group: str, what: str, vectors: np.ndarray, ours, peer, peer_name: str, repeats: int,
          notes: str) -> list[Row]:
    """A time row and a trustworthiness row for the same runs of ours and the peer."""
    ours_s, ours_xy = _runs(ours, repeats)
    peer_s, peer_xy = _runs(peer, repeats)
    ours_tw, peer_tw = trustworthiness_at_10(vectors, ours_xy), trustworthiness_at_10(vectors, peer_xy)
    spread = f"ours {min(ours_s):.3g}..{max(ours_s):.3g}; peer {min(peer_s):.3g}..{max(peer_s):.3g}"
    quality = f"trustworthiness@10 ours {ours_tw:.3f}, peer {peer_tw:.3f}"
    return [Row(group, f"{what}: seconds", float(np.median(ours_s)), float(np.median(peer_s)), "s", peer_name,
                spread=spread, notes=f"{quality}; {notes}; {repeats} run(s) each, {usable_cores()} cores"),
            Row(group, f"{what}: trustworthiness@10", ours_tw, peer_tw, "", peer_name, lower_is_better=False,
                notes="same runs as the row above; sklearn.manifold.trustworthiness, cosine, 10 neighbours")]


def run(quick: bool = False) -> list[Row]:
    rows = []
    sizes = [500] if quick else [2000, 10000]
    small = _vectors(200)
    tsne(small, ProjectionParams(n_iter=50, early_iter=50))  # warm-up: imports and first calls, excluded
    sklearn_tsne(small, 250)
    umap_layout(small)  # numba compiles UMAP's functions on first use: excluded
    for n in sizes:
        vectors = _vectors(n)
        n = len(vectors)
        repeats = 1 if quick or n > 2000 else 3
        rows += _pair("projection", f"t-SNE {n:,} pts, equal iterations (250 early + 250)", vectors,
                      lambda: tsne(vectors, EQUAL)[0], lambda: sklearn_tsne(vectors, EQUAL.total_iter),
                      "scikit-learn TSNE max_iter=500", repeats,
                      "ours openTSNE " + ("Barnes-Hut, exact kNN" if n <= 5000 else "FFT, Annoy kNN") +
                      "; peer Barnes-Hut, exact kNN")
        params = ProjectionParams()
        rows += _pair("projection", f"t-SNE {n:,} pts, Maps settings ({params.early_iter}+{params.n_iter}) vs "
                      f"before ({LEGACY_PARAMS.early_iter}+{LEGACY_PARAMS.n_iter})", vectors,
                      lambda: tsne(vectors, params)[0], lambda: tsne(vectors, LEGACY_PARAMS)[0], BEFORE, repeats,
                      f"ours {params.total_iter} iterations, peer {LEGACY_PARAMS.total_iter}")
        umap = UmapParams()
        rows += _pair("projection", f"UMAP vs t-SNE {n:,} pts, Maps settings of each", vectors,
                      lambda: umap_layout(vectors, umap)[0], lambda: tsne(vectors, params)[0],
                      f"t-SNE (openTSNE {params.early_iter}+{params.n_iter})", repeats,
                      f"ours {umap.describe()}, 1 thread; peer t-SNE on {usable_cores()} cores, same vectors")
    return rows
