"""UMAP layouts for the Maps page, the alternative to t-SNE (explore/maps.py): umap-learn with its usual settings
(15 neighbours, min_dist 0.1), cosine input distances, a fixed random state and one thread, so the same sample
gives the same map every time (umap-learn's parallel optimisation is not reproducible).

Progress: umap-learn reports its optimisation epochs only through tqdm; a one-field bar format turns each report
into "done total", read here into a fraction for the page's progress bar.
"""
from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np

Progress = Callable[[float, str], None]  # (fraction done, what it is doing), as explore.maps.Progress
# One UMAP fit at a time in a process: the Maps page projects its two maps in two threads, and numba's default
# threading layer (workqueue, when neither TBB nor OpenMP is found) aborts the whole process when two threads launch
# its parallel kernels at once (pynndescent's). t-SNE maps still run side by side.
_FIT_LOCK = threading.Lock()


@dataclass(frozen=True)
class UmapParams:
    """UMAP settings; every field is part of the cache key. umap-learn's defaults, with cosine distances (the
    spaces' similarity) and a fixed random state."""

    n_neighbors: int = 15
    min_dist: float = 0.1
    metric: str = "cosine"
    random_state: int = 0

    def describe(self) -> str:
        """The settings in words, for the map's caption."""
        return (f"UMAP (n_neighbors={self.n_neighbors}, min_dist={self.min_dist:g}, metric={self.metric}, "
                f"random_state={self.random_state})")


class _EpochsDone:
    """A file tqdm writes "done total" to (bar_format below): each write becomes a progress report."""

    def __init__(self, report: Progress):
        self.report = report

    def write(self, text: str) -> None:
        fields = text.strip().split()
        if len(fields) == 2 and all(field.isdigit() for field in fields):
            done, total = map(int, fields)
            self.report(0.1 + 0.9 * done / max(total, 1), "laying out")

    def flush(self) -> None:
        pass


def umap_layout(vectors: np.ndarray, params: UmapParams = UmapParams(),
                progress: Progress | None = None) -> tuple[np.ndarray, str]:
    """2-D UMAP of `vectors`; returns the coordinates and the method used ("UMAP")."""
    n = len(vectors)
    report = progress or (lambda fraction, stage: None)
    if n < 4:  # too few points for a neighbour graph; a line is honest enough (as t-SNE does)
        return np.column_stack([np.arange(n, dtype=float), np.zeros(n)]).astype(np.float32), "trivial"
    report(0.0, "loading UMAP")  # its first import compiles (numba): seconds the bar must not sit silent through
    from threadpoolctl import threadpool_limits
    from umap import UMAP

    report(0.02, "finding neighbours")
    reducer = UMAP(n_neighbors=min(params.n_neighbors, n - 1), min_dist=params.min_dist, metric=params.metric,
                   random_state=params.random_state, n_jobs=1, n_components=2, init="spectral" if n > 16 else "random",
                   tqdm_kwds={"disable": False, "file": _EpochsDone(report), "bar_format": "{n} {total}",
                              "mininterval": 0.2})
    # One BLAS thread too: the spectral initialisation's sums differ with the thread count (the same sample gave
    # another country map on 2 threads than on 1), and the shipped maps must be the ones a reader's machine computes.
    with _FIT_LOCK, warnings.catch_warnings(), threadpool_limits(limits=1):
        # "n_jobs overridden by setting random_state": the one thread is wanted
        warnings.filterwarnings("ignore", message=".*n_jobs.*", category=UserWarning)
        coords = reducer.fit_transform(np.asarray(vectors, dtype=np.float32))
    report(1.0, "done")
    return np.asarray(coords, dtype=np.float32), "UMAP"
