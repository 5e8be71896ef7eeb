"""Encoders: turn texts into L2-normalised float32 vectors; models load lazily on first encode."""
from __future__ import annotations

import hashlib
import logging
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from explore.encoders.fingerprint import directory_fingerprint
from explore.encoders.head import ProjectionHead, load_head
from explore.encoders.package_weights import package_model_dir
from explore.encoders.spec import DEFAULT_ENCODER, EncoderSpec
from explore.errors import AspectNavError

log = logging.getLogger(__name__)
PRECISIONS = ("auto", "fp32", "bf16", "fp16")
DEFAULT_BATCH_SIZE = 32


class Encoder:
    """Common interface: `spec`, `fingerprint`, `encode(texts) -> (n, d) float32, rows of norm 1`."""

    spec: EncoderSpec

    @property
    def fingerprint(self) -> str:
        raise NotImplementedError

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE, progress: bool = True) -> np.ndarray:
        raise NotImplementedError


class TransformerEncoder(Encoder):
    """A sentence-transformers model directory; the model loads on the first `encode`."""

    def __init__(self, spec: EncoderSpec, model_dir: Path, precision: str = "auto", device: str | None = None):
        if precision not in PRECISIONS:
            raise AspectNavError(f"Unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}.")
        self.spec = spec
        self.model_dir = Path(model_dir)
        self.precision = precision
        self.device = device

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

    @cached_property
    def autocast_dtype(self):
        """The dtype to autocast to, or None for fp32 (see `choose_autocast_dtype`)."""
        return choose_autocast_dtype(str(self.model.device), self.precision)

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE, progress: bool = True) -> np.ndarray:
        """sentence-transformers' own loop (length-sorted batches, progress bar) run under autocast:
        in fp32 it is plain `encode` exactly, so never slower; with a GPU or native CPU bf16 it gains
        the autocast speed-up. Normalised in fp32 whatever the compute precision."""
        import torch

        texts = [str(t) for t in texts]
        model = self.model
        dim = (getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)()
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        dtype = self.autocast_dtype
        with torch.autocast(model.device.type, dtype=dtype or torch.float32, enabled=dtype is not None):
            embedded = model.encode(texts, batch_size=batch_size, show_progress_bar=progress,
                                    convert_to_tensor=True, normalize_embeddings=False)
        embedded = torch.nn.functional.normalize(embedded.float(), dim=1)
        return embedded.cpu().numpy()


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

    def project(self, base_embeddings: np.ndarray) -> np.ndarray:
        return self.head.project(base_embeddings)

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE, progress: bool = True) -> np.ndarray:
        return self.project(self.base.encode(texts, batch_size=batch_size, progress=progress))


def load_encoder(spec: "str | EncoderSpec" = DEFAULT_ENCODER, precision: str = "auto",
                 base_dir: Path | None = None) -> Encoder:
    """An encoder for `spec`; cheap (no model is loaded until `encode`), and shared per spec."""
    return _load(EncoderSpec.parse(spec, base_dir), precision)


@lru_cache(maxsize=32)
def _load(spec: EncoderSpec, precision: str) -> Encoder:
    if spec.kind == "package":
        return TransformerEncoder(spec, package_model_dir(spec.name), precision)
    if spec.kind == "directory":
        return TransformerEncoder(spec, spec.path, precision)
    head = load_head(spec.path)
    base = _load(EncoderSpec.parse(head.base_encoder, spec.path), precision)
    return HeadEncoder(spec, base, head)


def _best_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def cpu_supports_bf16() -> bool:
    """Native bf16 matmuls (AVX512-BF16 or AMX); without them autocast emulates bf16 and is slower."""
    import torch

    checks = [getattr(torch.cpu, name, None) for name in ("_is_avx512_bf16_supported", "_is_amx_tile_supported")]
    return any(check() for check in checks if check is not None)


def choose_autocast_dtype(device: str, precision: str = "auto"):
    """auto: CUDA -> bf16 (fp16 on GPUs without bf16); CPU -> bf16 only with native support, else fp32.
    On a CPU without native bf16 (e.g. AVX2 only) autocast measured ~3.5x *slower* than fp32."""
    import torch

    if precision == "fp32":
        return None
    if precision == "bf16":
        return torch.bfloat16
    if precision == "fp16":
        return torch.float16
    if device.startswith("cuda"):
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return torch.bfloat16 if cpu_supports_bf16() else None
