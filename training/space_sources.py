"""Turn a space spec (an engine space name, or `blend:a+b`) into an embedding matrix in corpus order."""
from __future__ import annotations

import numpy as np

from explore.spaces import SpaceRegistry
from training.export import read_training_record
from training.metrics import normalise
from training.validation import TrainingInputError

BLEND_PREFIX = "blend:"


def blend(spaces: list[np.ndarray], weights: list[float] | None = None) -> np.ndarray:
    """Query-time blend: concatenating sqrt(w)-scaled unit vectors makes cosine = Σ w·cosine_i."""
    weights = weights or [1.0 / len(spaces)] * len(spaces)
    return np.concatenate([np.sqrt(w) * normalise(s) for s, w in zip(spaces, weights)], axis=1)


def space_names(spec: str) -> list[str]:
    """The engine spaces a spec reads."""
    if spec.startswith(BLEND_PREFIX):
        parts = [p for p in spec[len(BLEND_PREFIX):].split("+") if p]
        if len(parts) < 2:
            raise TrainingInputError(f"A blend needs two spaces or more: {spec!r} (blend:a+b).")
        return parts
    return [spec]


def space_embeddings(spec: str, registry: SpaceRegistry) -> np.ndarray:
    names = space_names(spec)
    if spec.startswith(BLEND_PREFIX):
        return blend([registry.open(name).embeddings_ for name in names])
    return registry.open(names[0]).embeddings_


def trained_split(name: str, registry: SpaceRegistry) -> str | None:
    """The split fingerprint a trained space was trained on (None for spaces training did not make)."""
    return read_training_record(registry.open(name)).get("split", {}).get("fingerprint")
