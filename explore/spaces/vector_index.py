"""How a space is searched: exact numpy top-k for a corpus below `EXACT_BELOW` rows, an hnswlib cosine
graph above it, with the graph's parameters chosen by size (`SearchPlan.for_rows`), and from `IVFPQ_FROM` rows (a
million) faiss IVF-PQ with rescoring (explore/spaces/ivfpq_index.py): 58 bytes a row, memory-mapped, recall@10 0.992 at
1M where hnswlib kept 0.961 in 1,700 bytes a row (README "Serving 6.8M in 8 GiB"). When asked (`IndexKind`, `spaces build --index`) a quantized graph
instead (explore/spaces/quantized_index.py): a third of hnswlib's memory, recall@10 0.996 at 100k but 0.746 at 1M at its
ef=64, so `auto` does not pick it (RESULTS.md "compressed index"). An index is cached on disk by the embeddings' hash.

Why exact first: at 50,000 x 384 an exact top-k costs ~3 ms on 2 cores, a seed change asks at most ~8 of
them, and there is nothing to build or hold (an index of a 10k space costs ~0.8 s to build and ~16 MB of
memory, six spaces of them took 5 s of a fresh start). Above it the index wins and the numbers grow with
size: hnswlib's ALGO_PARAMS (M, ef_construction, ef) trade build time and memory for recall, and a graph
built with ef_construction=100 stops at recall@10 0.98 at 1M whatever ef is asked at query time. The
schedule below was measured on 384-d clustered vectors (benchmarks/scale.py, RESULTS.md): recall@10 is at
least 0.99 at 100k and at 1M. Asking for more results than ef, or a large share of the corpus, falls back
to exact search (hnswlib cannot return more than it visits).
"""
from __future__ import annotations

import functools
import hashlib
import logging
import math
import threading
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path

import numpy as np

from explore.atomic_files import file_written_atomically
from explore.errors import AspectNavError

log = logging.getLogger(__name__)

EXACT_BELOW = 50_000  # rows; below it exact search is a few ms a query and nothing to build
SCORE_BLOCK = 65_536  # rows cast to float32 at a time when scoring a memory-mapped fp16 space
EXACT_ABOVE = 256  # k beyond this (or beyond half the corpus) uses exact search
# rows from which `auto` serves with faiss IVF-PQ: measured at 1M it beat hnswlib in recall (0.992 against 0.961) and in
# memory (58 against 1,700 bytes a row); below it hnswlib's graph, which needs no training and held 0.998 at 100k
IVFPQ_FROM = 1_000_000
IVFPQ_CODE_BYTES = 48  # PQ48: 8 dimensions a byte for 384-d vectors (the measured configuration)
IVFPQ_NPROBE = 32  # lists scanned a query: recall@10 0.992 at 1M with 1,024 lists
IVFPQ_RESCORED = 100  # candidates rescored from the stored vectors (or k, if more): scores are exact cosines


class IndexKind(Enum):
    """Which approximate index serves a space of `EXACT_BELOW` rows or more: parsed here and nowhere else."""

    AUTO = "auto"  # ivfpq from IVFPQ_FROM rows, hnsw below (the quantized graph's recall fell to 0.746 at 1M)
    HNSW = "hnsw"  # hnswlib, float32 vectors in the graph
    QUANTIZED = "quantized"  # usearch HNSW over int8 rows, memory-mapped (explore/spaces/quantized_index.py)
    IVFPQ = "ivfpq"  # faiss IVF-PQ, memory-mapped, rescored from the stored vectors (explore/spaces/ivfpq_index.py)

    @classmethod
    def parse(cls, value: "str | IndexKind | None") -> "IndexKind":
        if isinstance(value, IndexKind):
            return value
        text = (value or "auto").strip().lower()
        try:
            return cls(text)
        except ValueError:
            raise AspectNavError(f"Unknown index kind {text!r}; use one of "
                                 f"{', '.join(k.value for k in cls)}.") from None

    @classmethod
    def recorded(cls, search: "dict | None") -> "IndexKind":
        """The kind a space manifest's `search` entry names (`auto` for exact search or none recorded): a space
        keeps the index it was built with when it is opened again."""
        method = (search or {}).get("method") if isinstance(search, dict) else None
        return cls(method) if method in (cls.HNSW.value, cls.QUANTIZED.value, cls.IVFPQ.value) else cls.AUTO

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class SearchPlan:
    """Exact search, an hnswlib / quantized graph, or an IVF-PQ index with these parameters (recorded in the space
    manifest)."""

    method: str = "exact"  # "exact" | "hnsw" | "quantized" | "ivfpq": IndexKind's values, plus exact
    m: int = 16  # a graph's connectivity; IVF-PQ's code bytes a row (PQ sub-quantizers)
    ef_construction: int = 100
    ef_search: int = 64
    nlist: int = 0  # IVF-PQ's lists (0 for a graph)
    nprobe: int = 0  # IVF-PQ's lists scanned a query
    rescored: int = 0  # IVF-PQ's candidates rescored from the stored vectors

    @classmethod
    def for_rows(cls, rows: int, kind: "IndexKind | str | None" = None) -> "SearchPlan":
        """The plan for a space of `rows` vectors: the one place the size schedule lives. Below `EXACT_BELOW`
        rows search is exact whatever `kind` asks (nothing to build beats any index there)."""
        kind = IndexKind.parse(kind)
        if rows < EXACT_BELOW:
            return cls("exact")
        if kind is IndexKind.IVFPQ or (kind is IndexKind.AUTO and rows >= IVFPQ_FROM):
            return cls("ivfpq", m=IVFPQ_CODE_BYTES, ef_construction=0, ef_search=0, nlist=ivf_lists(rows),
                       nprobe=IVFPQ_NPROBE, rescored=IVFPQ_RESCORED)
        if kind is IndexKind.QUANTIZED:
            # usearch's defaults: recall@10 0.996 at 100k, 0.746 at 1M (benchmarks/compressed_index.py)
            return cls("quantized", m=16, ef_construction=128, ef_search=64)
        if rows < 300_000:
            return cls("hnsw", m=16, ef_construction=200, ef_search=64)
        return cls("hnsw", m=32, ef_construction=200, ef_search=128)

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    @property
    def quantized(self) -> bool:
        return self.method == IndexKind.QUANTIZED.value

    @property
    def ivfpq(self) -> bool:
        return self.method == IndexKind.IVFPQ.value

    def as_dict(self) -> dict:
        """The manifest's `search` entry: only the parameters of its method."""
        if self.exact:
            return {"method": "exact"}
        ivf = ("nlist", "nprobe", "rescored")
        keep = ("method", "m", *ivf) if self.ivfpq else tuple(k for k in asdict(self) if k not in ivf)
        return {k: v for k, v in asdict(self).items() if k in keep}

    @property
    def file_tag(self) -> str:
        """Part of a cached index's file name: an index built with other parameters is never reused."""
        if self.ivfpq:
            return f"ivf{self.nlist}-pq{self.m}"
        return f"{'i8-' if self.quantized else ''}M{self.m}-efc{self.ef_construction}"

    @property
    def file_suffix(self) -> str:
        return ".faiss" if self.ivfpq else ".usearch" if self.quantized else ".hnsw"


def ivf_lists(rows: int) -> int:
    """IVF-PQ's list count for `rows`: the power of two nearest sqrt(rows) (1,024 at 1M, as measured; 2,048 at 6.8M).
    Why it grows with the corpus: a query scans `nprobe` lists, so with a fixed count each list, and each query's scan,
    would grow with the rows; with ~sqrt(rows) lists the coarse search (all centroids) and the list scan stay balanced,
    and k-means trains on a sample of 64 rows a list."""
    return 1 << max(round(math.log2(max(rows, 1)) / 2), 0)


class GraphIndex(ABC):
    """What both approximate indexes share: their graph's parameters, a lock for the index-wide query expansion, and
    a file written atomically beside its sha256 (checked before the file reaches the library that reads it)."""

    def __init__(self, m: int = 16, ef_construction: int = 100, ef_search: int = 64):
        self.m = m
        self.ef_construction = ef_construction
        self.ef_search = ef_search
        self._lock = threading.Lock()

    @classmethod
    def planned(cls, plan: SearchPlan):
        return cls(**cls.plan_params(plan))

    @staticmethod
    def plan_params(plan: SearchPlan) -> dict:
        """The constructor's arguments from a plan (what `load` is given too)."""
        return {"m": plan.m, "ef_construction": plan.ef_construction, "ef_search": plan.ef_search}

    def save(self, path: Path) -> None:
        """Write atomically with a sha256 sidecar: a truncated index must never reach the library."""
        path = Path(path)
        with file_written_atomically(path) as staging:
            self._write(staging)
            digest = file_sha256(staging)
        checksum_sidecar(path).write_text(digest)

    @abstractmethod
    def _write(self, path: Path) -> None:
        """The library's own save, to `path`."""

    @staticmethod
    def intact(path: Path) -> bool:
        """The file is there and is the one that was saved."""
        return path.exists() and checksum_sidecar(path).read_text().strip() == file_sha256(path)


class VectorIndex(GraphIndex):
    """Build (or load) once, then `query`. Scores are cosine similarities (vectors are normalised). The hnswlib
    graph; QuantizedIndex (explore/spaces/quantized_index.py) answers the same calls."""

    def fit(self, embeddings: np.ndarray) -> "VectorIndex":
        import hnswlib

        n, dim = embeddings.shape
        self.index_ = hnswlib.Index(space="cosine", dim=dim)
        self.index_.init_index(max_elements=max(n, 1), ef_construction=self.ef_construction, M=self.m, random_seed=0)
        if n:
            self.index_.add_items(embeddings, np.arange(n))
        self.index_.set_ef(self.ef_search)
        self.size_ = n
        return self

    def query(self, vector: np.ndarray, k: int, ef: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rows and cosine scores of the `k` nearest rows, best first."""
        vector = query_vector(vector, self.index_.dim)
        k = min(k, self.size_)
        if k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        with self._lock:  # set_ef is index-wide state; the app queries from several threads
            self.index_.set_ef(max(ef or self.ef_search, k))
            labels, distances = self.index_.knn_query(vector.reshape(1, -1), k=k)
        return labels[0].astype(np.int64), (1.0 - distances[0]).astype(np.float32)

    def _write(self, path: Path) -> None:
        self.index_.save_index(str(path))

    @classmethod
    def load(cls, path: Path, dim: int, size: int, **params) -> "VectorIndex | None":
        """The saved index, or None when it is missing, damaged or of another size."""
        import hnswlib

        path = Path(path)
        try:
            if not cls.intact(path):
                return None
            self = cls(**params)
            self.index_ = hnswlib.Index(space="cosine", dim=dim)
            self.index_.load_index(str(path), max_elements=size)
        except (OSError, RuntimeError, ValueError) as exc:
            log.warning("Index %s unreadable (%s); rebuilding it.", path, exc)
            return None
        if self.index_.get_current_count() != size:
            return None
        self.index_.set_ef(self.ef_search)
        self.size_ = size
        return self


def query_vector(vector: np.ndarray, dim: int) -> np.ndarray:
    """`vector` as one float32 row of the index's dimension, or an error that says what was given."""
    vector = np.asarray(vector, dtype=np.float32)
    if vector.ndim != 1 or len(vector) != dim:
        raise AspectNavError(f"A query vector of shape {vector.shape} asked an index of {dim}-dimensional vectors: "
                             "query with a vector of the space's encoder.")
    return vector


def exact_query(embeddings: np.ndarray, vector: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Brute-force top-k by cosine: the reference for recall and the path for large k."""
    return top_k(all_scores(embeddings, vector), k)


def all_scores(embeddings: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """The cosine of `vector` with every row (rows of norm 1): one BLAS matrix-vector product on one thread.

    One vector's product is bound by memory, not arithmetic: a second BLAS thread does not make it faster, and
    it spins after each product, taking its core from the server's other threads. On the 2-core machine with
    other work running, a 10k x 384 product took 6.5 ms with OpenBLAS's two threads and 1.9 ms with one; a whole
    Explore seed change 90 ms of server time against 45 (benchmarks/NOTES.md, "Reading speed")."""
    vector = np.asarray(vector, dtype=np.float32)
    with _ONE_THREAD_LOCK, _blas_threads().limit(limits=1, user_api="blas"):
        if embeddings.dtype == np.float32:
            return embeddings @ vector
        # memory-mapped fp16 (a large space): cast a block at a time, never the whole matrix
        return np.concatenate([np.asarray(embeddings[start:start + SCORE_BLOCK], dtype=np.float32) @ vector
                               for start in range(0, len(embeddings), SCORE_BLOCK)] or [np.zeros(0, np.float32)])


_ONE_THREAD_LOCK = threading.Lock()  # the limit is process-wide: one product at a time sets and restores it


@functools.cache
def _blas_threads():
    """The process's BLAS thread pools (found once: finding them walks the loaded libraries)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def top_k(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and scores of the k highest `scores`, best first (ties in row order)."""
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.argsort(-scores[top], kind="stable")]
    return top.astype(np.int64), scores[top].astype(np.float32)


def exact_neighbours_among(unit_vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's k nearest *other* rows by cosine (rows of norm 1), nearest first: (indices, cosines).
    One matrix product: what a map's kNN graph and the encoders' nn@k agreement are built on."""
    unit = np.asarray(unit_vectors, dtype=np.float32)
    sims = unit @ unit.T
    np.fill_diagonal(sims, -np.inf)  # a row is not its own neighbour
    nearest = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    nearest_sims = np.take_along_axis(sims, nearest, axis=1)
    order = np.argsort(-nearest_sims, axis=1, kind="stable")
    return np.take_along_axis(nearest, order, axis=1), np.take_along_axis(nearest_sims, order, axis=1)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(4 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def checksum_sidecar(path: Path) -> Path:
    """Where a saved index's sha256 is written: checked before the file reaches the library that reads it."""
    return path.with_name(path.name + ".sha256")
