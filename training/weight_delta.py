"""A fine-tuned encoder as a low-rank change of its base model (explore/encoders/weight_delta.py): the truncated SVD
of how far fine-tuning moved each weight matrix, plus the moved vectors (biases, LayerNorms) whole.

The best rank-r approximation of a matrix's move is its truncated SVD (Eckart-Young), so nothing is trained: the
delta is computed from the two models in seconds, and how close it places text to the fine-tuned encoder is measured
afterwards (scripts/measure_weight_delta.py), not assumed.
"""
from __future__ import annotations

import numpy as np
import torch

from explore.encoders.weight_delta import WeightDelta

BYTES_PER_WEIGHT = 2  # stored fp16


def weight_delta(base_model, tuned_model, rank: int, embedding_rank: int | None = None,
                 base_encoder: str = "minilm") -> WeightDelta:
    """The change from `base_model` to `tuned_model` (SentenceTransformers of one architecture): each moved matrix as
    its rank-`rank` truncated SVD (`embedding_rank` for embedding tables, default `rank`; 0 leaves them as the base
    has them), each moved vector whole."""
    base, tuned = _state(base_model), _state(tuned_model)
    if set(base) != set(tuned) or any(base[n].shape != tuned[n].shape for n in base):
        raise ValueError("the two models differ in architecture: a weight delta needs the fine-tuned encoder's base")
    embedding_names = _embedding_weights(tuned_model)
    factors, replaced = {}, {}
    for name, value in tuned.items():
        move = value - base[name]
        if not torch.any(move):
            continue
        if value.ndim == 1:
            replaced[name] = value.numpy()
            continue
        wanted = (rank if embedding_rank is None else embedding_rank) if name in embedding_names else rank
        wanted = min(wanted, *move.shape)
        if wanted <= 0:
            continue
        u, s, vh = torch.linalg.svd(move, full_matrices=False)
        root = s[:wanted].sqrt()
        factors[name] = ((u[:, :wanted] * root).numpy(), (root[:, None] * vh[:wanted]).numpy())
    return WeightDelta(base_encoder, factors, replaced)


def delta_bytes(delta: WeightDelta) -> int:
    """Its size on disk, give or take the file's header."""
    weights = sum(up.size + down.size for up, down in delta.factors.values())
    return BYTES_PER_WEIGHT * (weights + sum(v.size for v in delta.replaced.values()))


def _state(model) -> dict:
    transformer = getattr(model[0], "auto_model", None)
    if transformer is None:
        raise ValueError(f"{type(model[0]).__name__} is not a sentence-transformers transformer: a weight delta needs "
                         f"the fine-tuned encoder's base architecture")
    return {name: p.detach().float().cpu() for name, p in transformer.named_parameters()}


def _embedding_weights(model) -> set[str]:
    transformer = model[0].auto_model
    return {f"{name}.weight" for name, module in transformer.named_modules() if isinstance(module, torch.nn.Embedding)}


def reconstruction_error(delta: WeightDelta, base_model, tuned_model) -> float:
    """The largest relative Frobenius error of a moved matrix's reconstruction (0: exact)."""
    base, tuned = _state(base_model), _state(tuned_model)
    worst = 0.0
    for name, (up, down) in delta.factors.items():
        move = (tuned[name] - base[name]).numpy()
        worst = max(worst, float(np.linalg.norm(move - up @ down) / max(np.linalg.norm(move), 1e-12)))
    return worst
