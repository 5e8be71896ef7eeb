"""Encoders: turn texts into L2-normalised float32 vectors; models load lazily on first encode."""
from __future__ import annotations

import hashlib
import logging
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from explore.encoders.backend import EncoderBackend
from explore.encoders.batching import DEFAULT_BATCH_SIZE, EncodeProgress, encode_in_batches
from explore.encoders.distilled_layer import DistilledLayer, load_distilled_layer
from explore.encoders.fingerprint import directory_fingerprint
from explore.encoders.head import ProjectionHead, load_head
from explore.encoders.package_weights import package_model_dir
from explore.encoders.precision import Precision
from explore.encoders.runners import make_runner
from explore.encoders.spec import DEFAULT_ENCODER, EncoderSpec
from explore.encoders.weight_delta import WeightDelta, load_weight_delta
from explore.errors import AspectNavError

log = logging.getLogger(__name__)


class Encoder:
    """Common interface: `spec`, `fingerprint`, `encode(texts) -> (n, d) float32, rows of norm 1`."""

    spec: EncoderSpec

    @property
    def fingerprint(self) -> str:
        raise NotImplementedError

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE,
               progress: "bool | EncodeProgress" = True) -> np.ndarray:
        raise NotImplementedError


class TransformerEncoder(Encoder):
    """A sentence-transformers model directory; the model loads on the first `encode`.

    `backend` (torch | openvino | onnx | auto) runs the transformer; `precision` (auto | fp32 | bf16 |
    fp16 | int8) is asked of it. auto picks, for encodes of AUTO_MIN_TEXTS or more, the fastest
    installed backend whose vectors match fp32 (measured once per machine, backend_choice.py); smaller
    encodes (queries) run on torch. `last_run` says which backend and precision computed the last encode."""

    def __init__(self, spec: EncoderSpec, model_dir: Path, precision: "str | Precision | None" = "auto",
                 device: str | None = None, backend: "str | EncoderBackend | None" = "auto"):
        self.spec = spec
        self.model_dir = Path(model_dir)
        self.precision = Precision.parse(precision)
        self.backend = EncoderBackend.parse(backend)
        self.device = device
        self.last_run: tuple[str, str] | None = None  # (backend, precision) of the latest encode
        self.choice_ = None  # the auto decision (BackendChoice) once one was made
        self._runners: dict = {}

    @cached_property
    def fingerprint(self) -> str:
        return directory_fingerprint(self.model_dir)

    @cached_property
    def model(self):
        import os

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        device = self.device or _best_device()
        log.info("Loading encoder %s on %s", self.spec, device)
        return SentenceTransformer(str(self.model_dir), device=device)

    def runner(self, backend: EncoderBackend, precision: Precision):
        """The runner for one concrete backend and precision (exports and compiles once, then reused)."""
        key = (backend, precision)
        if key not in self._runners:
            self._runners[key] = make_runner(self.model, self.fingerprint, backend, precision)
        return self._runners[key]

    def runner_for(self, texts: list[str], batch_size: int = DEFAULT_BATCH_SIZE,
                   progress: "bool | EncodeProgress" = True):
        """The runner this encode uses: the asked backend, or auto's choice (see the class docstring)."""
        # Imported here: measuring brings in explore.spaces (agreement.py), which loading an encoder does not need.
        from explore.encoders.backend_choice import AUTO_MIN_TEXTS, choose_backend

        backend, precision = self.backend, self.precision
        if backend is EncoderBackend.AUTO:
            on_gpu = str(self.model.device).startswith("cuda")
            if precision is not Precision.INT8 and (on_gpu or len(texts) < AUTO_MIN_TEXTS):
                return self.runner(EncoderBackend.TORCH, precision)
            self.choice_ = choose_backend(self, texts, precision, batch_size, announce=bool(progress))
            return self.runner(EncoderBackend(self.choice_.backend), Precision(self.choice_.precision))
        if precision is Precision.INT8:  # measured and printed whenever it is used: it moves neighbours
            self.choice_ = choose_backend(self, texts, precision, batch_size, announce=bool(progress))
        return self.runner(backend, precision)

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE,
               progress: "bool | EncodeProgress" = True) -> np.ndarray:
        """Length-sorted batches (as sentence-transformers' own `encode`: in torch fp32 the same vectors),
        a progress bar in texts with texts/s and ETA once an encode runs past a few seconds, and rows
        normalised in fp32 whatever the compute precision."""
        texts = [str(t) for t in texts]
        if not texts:
            model = self.model
            dim = (getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)()
            return np.zeros((0, dim), dtype=np.float32)
        if callable(progress):  # the caller's bar shows up now, not after the model load and auto's measuring
            progress(0, len(texts))
        runner = self.runner_for(texts, batch_size, progress)
        self.last_run = (str(runner.backend), runner.precision)
        return encode_in_batches(runner, texts, batch_size, progress=progress, label=f"encoding ({runner})")


class HeadEncoder(Encoder):
    """A frozen base encoder followed by a projection head (see explore/encoders/head.py)."""

    def __init__(self, spec: EncoderSpec, base: Encoder, head: ProjectionHead):
        self.spec = spec
        self.base = base
        self.head = head

    @cached_property
    def fingerprint(self) -> str:
        head_part = directory_fingerprint(self.spec.path)
        return hashlib.sha256(f"{self.base.fingerprint}+{head_part}".encode()).hexdigest()[:16]

    @property
    def last_run(self) -> tuple[str, str] | None:
        return getattr(self.base, "last_run", None)

    def project(self, base_embeddings: np.ndarray) -> np.ndarray:
        return self.head.project(base_embeddings)

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE,
               progress: "bool | EncodeProgress" = True) -> np.ndarray:
        return self.project(self.base.encode(texts, batch_size=batch_size, progress=progress))


class AdaptedEncoder(TransformerEncoder):
    """The base transformer changed by an adaptation that shares its other weights: a distilled last layer
    (distilled_layer.py) or a low-rank weight delta (weight_delta.py). It encodes as its base does (backends,
    precision, batching)."""

    def __init__(self, spec: EncoderSpec, base: TransformerEncoder, adaptation: "DistilledLayer | WeightDelta"):
        super().__init__(spec, base.model_dir, base.precision, base.device, base.backend)
        self.base = base
        self.adaptation = adaptation

    @cached_property
    def fingerprint(self) -> str:
        part = directory_fingerprint(self.spec.path)
        return hashlib.sha256(f"{self.base.fingerprint}+{self.spec.kind}:{part}".encode()).hexdigest()[:16]

    @cached_property
    def model(self):
        return self.adaptation.applied_to(self.base.model)


def load_encoder(spec: "str | EncoderSpec" = DEFAULT_ENCODER, precision: "str | Precision | None" = None,
                 base_dir: Path | None = None, backend: "str | EncoderBackend | None" = None) -> Encoder:
    """An encoder for `spec`; cheap (no model is loaded until `encode`), and shared per spec, precision
    and backend. None: the environment's default ($ASPECTNAV_ENCODER_PRECISION / _BACKEND), else auto."""
    return _load(EncoderSpec.parse(spec, base_dir), Precision.parse(precision), EncoderBackend.parse(backend))


@lru_cache(maxsize=32)
def _load(spec: EncoderSpec, precision: Precision, backend: EncoderBackend) -> Encoder:
    if spec.kind == "package":
        return TransformerEncoder(spec, package_model_dir(spec.name), precision, backend=backend)
    if spec.kind == "directory":
        return TransformerEncoder(spec, spec.path, precision, backend=backend)
    if spec.kind in ("layer", "delta"):
        adaptation = load_distilled_layer(spec.path) if spec.kind == "layer" else load_weight_delta(spec.path)
        base = _load(EncoderSpec.parse(adaptation.base_encoder, spec.path), precision, backend)
        if not isinstance(base, TransformerEncoder):
            raise AspectNavError(f"Encoder at {spec.path}: its base {adaptation.base_encoder!r} is not a transformer.")
        return AdaptedEncoder(spec, base, adaptation)
    head = load_head(spec.path)
    base = _load(EncoderSpec.parse(head.base_encoder, spec.path), precision, backend)
    return HeadEncoder(spec, base, head)


def _best_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"

