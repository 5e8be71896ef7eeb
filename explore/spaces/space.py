"""A space: one encoder's view of a corpus — embeddings (row = Corpus.position) and a cosine index."""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from explore.corpus.model import Corpus
from explore.encoders.encode_engine import LOCAL_ENGINE, EngineRecord
from explore.errors import AspectNavError
from explore.spaces.article_text import TEXT_RECIPE, article_text
from explore.spaces.ivfpq_index import IvfPqIndex
from explore.spaces.quantized_index import QuantizedIndex
from explore.spaces.stored_rows import stored_rows
from explore.spaces.vector_index import EXACT_ABOVE, IndexKind, SearchPlan, VectorIndex, all_scores, top_k

if TYPE_CHECKING:  # only a type: the encoders stay unimported until a space encodes
    from explore.encoders.batching import EncodeProgress

SPACE_KINDS = ("generic", "aspect", "union", "intersection")


RECENT_SCORES = 8  # similarity passes a space keeps: a page's several asks of one seed, a few seeds back


class Space:
    """sklearn-style: `Space(name, kind, encoder)` stores parameters; `fit(corpus)` encodes it;
    `nearest` / `similarities` query it. Saved and verified by explore/spaces/store.py."""

    def __init__(self, name: str, kind: str = "generic", encoder: str = "minilm", aspects: tuple[str, ...] = ()):
        if kind not in SPACE_KINDS:
            raise AspectNavError(f"Unknown space kind {kind!r}; use one of {', '.join(SPACE_KINDS)}.")
        self.name = name
        self.kind = kind
        self.encoder = str(encoder)
        self.aspects = tuple(aspects) or ((name,) if kind == "aspect" else ())
        self.directory_: Path | None = None  # where it was loaded from; relative encoder specs resolve there
        self.index_path_: Path | None = None  # where its index is cached (set by the registry)

    def __repr__(self) -> str:
        shape = getattr(self, "embeddings_", np.zeros((0, 0))).shape
        return f"Space({self.name!r}, kind={self.kind!r}, encoder={self.encoder!r}, shape={shape})"

    def fit(self, corpus: Corpus, encoder=None, base: "Space | None" = None,
            progress: "bool | EncodeProgress" = True) -> "Space":
        """Encode every article. A head encoder given `base` (a space of its base encoder over this corpus)
        only projects its vectors: milliseconds instead of minutes, and the base's backend and precision
        are what computed them."""
        from explore.encoders import HeadEncoder

        encoder = encoder if encoder is not None else self.load_encoder()
        start = time.perf_counter()
        if base is not None and isinstance(encoder, HeadEncoder):
            embeddings = encoder.project(base.embeddings_)
            computed_by = {"backend": base.backend_, "precision": base.precision_, "engine": base.engine_}
        else:
            embeddings = encoder.encode([article_text(a) for a in corpus], progress=progress)
            computed_by = _compute_of(encoder)
        return self._set_state(
            embeddings=embeddings, corpus_name=corpus.name, corpus_hash=corpus.content_hash,
            encoder_fingerprint=encoder.fingerprint, **computed_by,
            created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            encode_seconds=round(time.perf_counter() - start, 2), text_recipe=TEXT_RECIPE,
        )

    def _set_state(self, embeddings: np.ndarray, corpus_name: str, corpus_hash: str, encoder_fingerprint: str,
                   precision: str, created: str, encode_seconds: float, text_recipe: str,
                   backend: str = "torch", engine: EngineRecord = LOCAL_ENGINE,
                   index_kind: IndexKind = IndexKind.AUTO) -> "Space":
        # a large space's vectors stay memory-mapped as stored (explore/spaces/store.py); rows are cast when read
        self.embeddings_ = embeddings if isinstance(embeddings, np.memmap) else \
            np.ascontiguousarray(embeddings, dtype=np.float32)
        self.corpus_name_ = corpus_name
        self.corpus_hash_ = corpus_hash
        self.encoder_fingerprint_ = encoder_fingerprint
        self.precision_ = precision  # what computed the vectors: fp32, bf16, fp16 or int8
        self.backend_ = backend  # torch, openvino or onnx
        self.engine_ = engine  # what ran the encode: local, or Ray (how it was reached, how many actors)
        self.created_ = created
        self.encode_seconds_ = encode_seconds
        self.text_recipe_ = text_recipe
        self.search_ = SearchPlan.for_rows(len(self.embeddings_), index_kind)
        self._index = None
        self._recent_scores: OrderedDict[bytes, np.ndarray] = OrderedDict()  # query vector -> similarities_to_all
        self._scores_lock = threading.Lock()  # the app's sessions share a space from several threads
        return self

    @property
    def dim(self) -> int:
        return self.embeddings_.shape[1]

    def __len__(self) -> int:
        return len(self.embeddings_)

    def load_encoder(self):
        """The encoder object (cheap; the model itself loads on the first `encode`)."""
        from explore.encoders import load_encoder

        return load_encoder(self.encoder, base_dir=self.directory_)

    def use_index(self, kind: "IndexKind | str") -> bool:
        """Serve with another kind of index (`spaces build --index`); True when the plan changed. The registry
        records it in the manifest and names the cached index after it."""
        plan = SearchPlan.for_rows(len(self), kind)
        changed = plan != self.search_
        self.search_, self._index = plan, (None if changed else self._index)
        return changed

    @property
    def index(self) -> "VectorIndex | QuantizedIndex | IvfPqIndex":
        """The index of the `search_` plan (hnswlib, quantized, or IVF-PQ over these vectors): loaded from its cache
        when there is a valid one, else built (and cached). A space searched exactly never asks for it."""
        if self._index is None:
            plan = self.search_
            kind = index_class(plan)
            params = kind.plan_params(plan) | ({"vectors": self.embeddings_} if plan.ivfpq else {})
            index = None
            if self.index_path_ is not None:
                index = kind.load(self.index_path_, self.dim, len(self), **params)
            if index is None:
                index = kind(**params).fit(self.embeddings_)
                if self.index_path_ is not None:
                    try:
                        index.save(self.index_path_)
                    except OSError:
                        pass  # a read-only home only costs the rebuild next time
            self._index = index
        return self._index

    def nearest(self, vector: np.ndarray, k: int, ef: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rows and cosine scores of the k rows nearest `vector`, best first (IVF-PQ rescores its candidates
        itself)."""
        if self.search_.exact or k > EXACT_ABOVE or k > len(self) // 2:
            return top_k(self.similarities_to_all(vector), k)
        rows, scores = self.index.query(vector, k, ef=max(ef or self.search_.ef_search, k))
        if self.search_.quantized:  # scores of int8 rows: rescored from the stored vectors, k rows read
            scores = self.similarities(vector, rows)
            order = np.argsort(-scores, kind="stable")
            rows, scores = rows[order], scores[order].astype(np.float32)
        return rows, scores

    def similarities_to_all(self, vector: np.ndarray) -> np.ndarray:
        """Exact cosine of `vector` with every row. One memory-bound pass per query vector: a seed's page asks
        each space several times (its column, the reader's mix, the links' order), so the last few passes are
        kept (read-only arrays shared by every caller)."""
        vector = np.ascontiguousarray(vector, dtype=np.float32)
        key = vector.tobytes()
        with self._scores_lock:
            scores = self._recent_scores.get(key)
            if scores is not None:
                self._recent_scores.move_to_end(key)
                return scores
        scores = all_scores(self.embeddings_, vector)
        scores.flags.writeable = False
        with self._scores_lock:
            self._recent_scores[key] = scores
            while len(self._recent_scores) > RECENT_SCORES:
                self._recent_scores.popitem(last=False)
        return scores

    def similarities(self, vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Exact cosine of `vector` with the given rows."""
        return stored_rows(self.embeddings_, rows) @ np.asarray(vector, dtype=np.float32)

    def vector(self, row: int) -> np.ndarray:
        """Row `row`'s vector as float32 (a memory-mapped space stores fp16)."""
        return stored_rows(self.embeddings_, row)

    def rows(self, rows: np.ndarray) -> np.ndarray:
        """The vectors of `rows` as float32, read without mapping a memory-mapped space's pages in
        (explore/spaces/stored_rows.py)."""
        return stored_rows(self.embeddings_, rows)


def index_class(plan: SearchPlan) -> "type[VectorIndex | QuantizedIndex | IvfPqIndex]":
    """The index that serves `plan` (not exact search): the one place a plan's method becomes a class."""
    return IvfPqIndex if plan.ivfpq else QuantizedIndex if plan.quantized else VectorIndex


def _compute_of(encoder) -> dict:
    """The backend and precision that computed the encoder's last encode (torch fp32 for an encoder that
    does not say, as before backends were recorded)."""
    backend, precision = getattr(encoder, "last_run", None) or ("torch", "fp32")
    return {"backend": backend, "precision": precision, "engine": getattr(encoder, "engine_record", LOCAL_ENGINE)}
