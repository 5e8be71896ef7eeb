"""A compressed cosine index for large spaces: usearch's HNSW graph over int8 rows, saved once and served
memory-mapped (`Index.restore(view=True)`), answering VectorIndex's calls.

Why: it takes 533 bytes a row (384 of int8 codes, the rest the graph) against hnswlib's 1,700 (float32 vectors plus
the graph), so 6.8M rows would fit in 3.4 GiB instead of 11.5. Its recall@10 against exact search was 0.996 at 100k
rows but 0.746 at 1M (ef=64; the million corpus's vectors come in near-duplicate bunches), so it is served only when
asked (`spaces build --index quantized`); benchmarks/compressed_index.py measures it beside hnswlib and faiss IVF-PQ.
Each row is scaled to ±127 before it is cast (`quantized_rows`): usearch's own float→int8 cast multiplies by 127, which
leaves a unit 384-d row (coordinates ~0.05) about six levels. Scores are cosines of the int8 rows (error ~1e-3);
Space.nearest rescores what it returns from the stored vectors.
"""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from explore.errors import AspectNavError
from explore.spaces.vector_index import SCORE_BLOCK, GraphIndex, query_vector

log = logging.getLogger(__name__)


def quantized_rows(embeddings: np.ndarray) -> np.ndarray:
    """int8 rows, each scaled so its largest coordinate is ±127. No scale is kept: the vectors are directions (unit
    rows), and cosine does not see a row's length."""
    rows = np.asarray(embeddings, dtype=np.float32)
    if rows.ndim == 1:
        return quantized_rows(rows.reshape(1, -1))[0]
    scale = np.maximum(np.abs(rows).max(axis=1, keepdims=True), 1e-12) / 127
    return np.round(rows / scale).astype(np.int8)


class QuantizedIndex(GraphIndex):
    """Build (or load) once, then `query`; the parameters are usearch's connectivity and expansions."""

    def fit(self, embeddings: np.ndarray) -> "QuantizedIndex":
        """Add every row (a memory-mapped fp16 space a block at a time: never the whole matrix as float32)."""
        from usearch.index import Index

        if np.ndim(embeddings) != 2 or not len(embeddings) or not embeddings.shape[1]:
            raise AspectNavError(f"A quantized index is built from a matrix of rows, got shape {np.shape(embeddings)}.")
        n, dim = embeddings.shape
        self.index_ = Index(ndim=dim, metric="cos", dtype="i8", connectivity=self.m,
                            expansion_add=self.ef_construction, expansion_search=self.ef_search)
        for start in range(0, n, SCORE_BLOCK):
            block = quantized_rows(embeddings[start:start + SCORE_BLOCK])
            self.index_.add(np.arange(start, start + len(block)), block)
        self.size_ = n
        return self

    @property
    def dim(self) -> int:
        return self.index_.ndim

    def query(self, vector: np.ndarray, k: int, ef: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rows and cosine scores (of the int8 rows) of the `k` nearest rows, best first."""
        vector = query_vector(vector, self.dim)
        k = min(k, self.size_)
        if k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        with self._lock:  # the expansion is index-wide state; the app queries from several threads
            self.index_.expansion_search = max(ef or self.ef_search, k)
            found = self.index_.search(quantized_rows(vector), k, threads=1)
        return found.keys.astype(np.int64), (1.0 - found.distances).astype(np.float32)

    def _write(self, path: Path) -> None:
        self.index_.save(str(path))

    @classmethod
    def load(cls, path: Path, dim: int, size: int, **params) -> "QuantizedIndex | None":
        """The saved index, memory-mapped (its pages are read as queries touch them), or None when it is missing,
        damaged, or of another dimension or size."""
        from usearch.index import Index

        path = Path(path)
        try:
            if not cls.intact(path):
                return None
            index = Index.restore(str(path), view=True)
        except (OSError, RuntimeError, ValueError) as exc:
            log.warning("Index %s unreadable (%s); rebuilding it.", path, exc)
            return None
        if index is None or index.ndim != dim or len(index) != size:
            return None
        self = cls(**params)
        self.index_ = index
        self.index_.expansion_search = self.ef_search
        self.size_ = size
        return self
