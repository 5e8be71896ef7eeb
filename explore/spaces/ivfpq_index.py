"""A compressed cosine index for a million rows and more: faiss IVF-PQ (inverted lists of product-quantized codes),
saved once and served memory-mapped (`faiss.IO_FLAG_MMAP`), its candidates rescored from the stored vectors.

Why: measured at 1M (benchmarks/compressed_index.py, README "Serving 6.8M in 8 GiB") it takes 58 bytes a row against
hnswlib's 1,700 and the quantized graph's 533, opens in 0.04 s, and with the top 100 of 32 lists rescored from the
memory-mapped fp16 vectors keeps recall@10 0.992 (hnswlib 0.961, the quantized graph 0.746) at a p95 of 4.8 ms. The
codes only rank candidates: every score it returns is the exact cosine of the stored vector, so a card's score does not
depend on the index. `auto` serves with it from `IVFPQ_FROM` rows (explore/spaces/vector_index.py).
"""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from explore.errors import AspectNavError
from explore.spaces.stored_rows import stored_rows
from explore.spaces.vector_index import (IVFPQ_CODE_BYTES, IVFPQ_NPROBE, IVFPQ_RESCORED, SCORE_BLOCK, GraphIndex,
                                         SearchPlan, query_vector)

log = logging.getLogger(__name__)

TRAINING_ROWS_PER_LIST = 64  # k-means sample: faiss warns below 39 rows a centroid
MIN_TRAINING_ROWS = 39 * 256  # what 8-bit codes (256 centroids a sub-quantizer) need to train well


def code_bits(rows: int) -> int:
    """Bits a PQ sub-code: 8 (256 centroids) from 256 rows; fewer below, as k-means needs a row a centroid. Only a
    test's tiny space gets fewer: `auto` and `--index` serve exactly below EXACT_BELOW rows."""
    return min(8, int(np.log2(rows)))


def code_bytes(dim: int, wanted: int = IVFPQ_CODE_BYTES) -> int:
    """PQ sub-quantizers (bytes a row) for `dim`: `wanted` (48 for 384-d) or the largest divisor of `dim` below it,
    as faiss splits each vector into equal slices."""
    return max(b for b in range(1, min(wanted, dim) + 1) if dim % b == 0)


class IvfPqIndex(GraphIndex):
    """Build (or load) over the space's stored vectors, then `query`: rows and exact cosines, best first."""

    def __init__(self, nlist: int = 1024, nprobe: int = IVFPQ_NPROBE, m: int = IVFPQ_CODE_BYTES,
                 rescored: int = IVFPQ_RESCORED, vectors: np.ndarray | None = None):
        super().__init__(m=m, ef_construction=0, ef_search=0)
        self.nlist = nlist
        self.nprobe = nprobe
        self.rescored = rescored
        self.vectors_ = vectors  # the stored (possibly memory-mapped fp16) rows the candidates are rescored from

    @staticmethod
    def plan_params(plan: SearchPlan) -> dict:
        return {"nlist": plan.nlist, "nprobe": plan.nprobe, "m": plan.m, "rescored": plan.rescored}

    def fit(self, embeddings: np.ndarray, seed: int = 0) -> "IvfPqIndex":
        """Train on a seeded sample of rows, then add every row a block at a time (a memory-mapped fp16 space is never
        cast whole to float32)."""
        import faiss

        if np.ndim(embeddings) != 2 or not embeddings.shape[1]:
            raise AspectNavError(f"An IVF-PQ index is built from a matrix of rows, got shape {np.shape(embeddings)}.")
        n, dim = embeddings.shape
        if n < 2:
            raise AspectNavError(f"An IVF-PQ index is trained on its rows: {n} cannot train it.")
        nlist = max(1, min(self.nlist, n // 39))  # a list needs ~39 rows to train its centroid
        sample = np.sort(np.random.default_rng(seed).choice(
            n, min(n, max(TRAINING_ROWS_PER_LIST * nlist, MIN_TRAINING_ROWS)), replace=False))
        index = faiss.IndexIVFPQ(faiss.IndexFlatIP(dim), dim, nlist, code_bytes(dim, self.m), code_bits(n),
                                 faiss.METRIC_INNER_PRODUCT)
        index.cp.seed = index.pq.cp.seed = seed  # k-means seeds: the same rows give the same index
        index.train(np.asarray(embeddings[sample], dtype=np.float32))
        for start in range(0, n, SCORE_BLOCK):
            index.add(np.asarray(embeddings[start:start + SCORE_BLOCK], dtype=np.float32))
        index.nprobe = self.nprobe
        self.index_, self.size_, self.vectors_ = index, n, embeddings
        return self

    @property
    def dim(self) -> int:
        return self.index_.d

    def query(self, vector: np.ndarray, k: int, ef: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rows and exact cosine scores of the `k` nearest rows, best first: the codes' top max(`rescored`, k) of
        `nprobe` lists, rescored from the stored vectors. `ef` (a graph's expansion) has no meaning here."""
        vector = query_vector(vector, self.dim)
        k = min(k, self.size_)
        if k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        if self.vectors_ is None or len(self.vectors_) != self.size_:
            raise AspectNavError("An IVF-PQ index is queried with the vectors it was built from (Space.index gives "
                                 "them); none or other ones were given.")
        candidates = self.index_.search(vector.reshape(1, -1), max(self.rescored, k))[1][0]
        candidates = np.sort(candidates[candidates >= 0])  # -1: fewer candidates than asked; sorted: pages in order
        scores = stored_rows(self.vectors_, candidates) @ vector
        order = np.argsort(-scores, kind="stable")[:k]
        return candidates[order].astype(np.int64), scores[order].astype(np.float32)

    def _write(self, path: Path) -> None:
        import faiss

        faiss.write_index(self.index_, str(path))

    @classmethod
    def load(cls, path: Path, dim: int, size: int, **params) -> "IvfPqIndex | None":
        """The saved index, memory-mapped (its lists are read as queries touch them), or None (with a warning: the
        caller rebuilds it) when it is missing, damaged, or of another dimension or size."""
        import faiss

        path = Path(path)
        if not path.exists():
            return None
        try:
            if not cls.intact(path):
                log.warning("Index %s does not match its sha256; rebuilding it.", path)
                return None
            index = faiss.read_index(str(path), faiss.IO_FLAG_MMAP)
        except (OSError, RuntimeError, ValueError) as exc:
            log.warning("Index %s unreadable (%s); rebuilding it.", path, exc)
            return None
        if index.d != dim or index.ntotal != size:
            log.warning("Index %s holds %d rows of %d dimensions, the space %d of %d; rebuilding it.",
                        path, index.ntotal, index.d, size, dim)
            return None
        self = cls(**params)
        index.nprobe = self.nprobe
        self.index_, self.size_ = index, size
        return self
