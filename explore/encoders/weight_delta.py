"""A fine-tuned encoder carried as a low-rank change of its base model's weights, so free text lands where the
fine-tuned encoder would put it for a few MB instead of its 43 MiB.

Fine-tuning a space moves every weight of MiniLM a little, and the move of each weight matrix is close to low rank:
its truncated SVD (training/weight_delta.py) keeps what the fine-tuning did to every layer, where a distilled last
layer (distilled_layer.py) must learn it back from examples. A delta lives in its own directory (`EncoderSpec.parse`
recognises it by `delta.json`):

    delta.json          {"format": "aspectnav-weight-delta", "version": 1,
                         "base_encoder": "minilm",   # any encoder spec of a sentence-transformers model
                         "rank": 48}                 # the largest rank of any factor pair (informative)
    delta.safetensors   for a matrix W of the transformer (names as in its state dict, e.g.
                        encoder.layer.5.attention.self.query.weight): "W.up" (rows x r) and "W.down" (r x columns),
                        the fine-tuned matrix being W + up @ down; for a vector (a bias, a LayerNorm): its fine-tuned
                        value, whole. fp16.

The encoder shares every base weight with its base (one copy in memory however many spaces use it): a changed
linear or embedding module runs as the base module plus its low-rank term, never as a materialised matrix.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explore.encoders.spec import DELTA_CONFIG
from explore.errors import AspectNavError

DELTA_FORMAT = "aspectnav-weight-delta"
DELTA_VERSION = 1
DELTA_WEIGHTS = "delta.safetensors"
UP, DOWN = ".up", ".down"


@dataclass(frozen=True)
class WeightDelta:
    base_encoder: str
    factors: dict  # matrix name -> (up (rows, r), down (r, columns)), numpy
    replaced: dict  # vector name -> its fine-tuned value, numpy

    @property
    def rank(self) -> int:
        return max((up.shape[1] for up, _ in self.factors.values()), default=0)

    def applied_to(self, model):
        """A copy of the SentenceTransformer `model` that shares all its parameters, with each changed matrix's
        module wrapped to add its low-rank term and each changed vector replaced."""
        import torch

        from explore.encoders.low_rank_change import LowRankChange

        transformer = _transformer(model)
        modules = dict(transformer.named_modules())
        parameters = dict(transformer.named_parameters())
        what = f"Weight delta for {self.base_encoder}"
        unknown = sorted(set(self.factors) - set(parameters) | set(self.replaced) - set(parameters))
        if unknown:
            raise AspectNavError(f"{what}: {unknown[:3]} are not weights of the base model.")
        for name, value in self.replaced.items():
            if tuple(value.shape) != tuple(parameters[name].shape):
                raise AspectNavError(f"{what}: {name} has shape {value.shape}, the base model's "
                                     f"{tuple(parameters[name].shape)}.")
        for name, (up, down) in self.factors.items():
            shape = tuple(parameters[name].shape)
            if not isinstance(modules[name.rsplit(".", 1)[0]], (torch.nn.Linear, torch.nn.Embedding)) \
                    or not name.endswith(".weight"):
                raise AspectNavError(f"{what}: {name} is not a linear or embedding weight.")
            if (up.shape[0], down.shape[1]) != shape or up.shape[1] != down.shape[0]:
                raise AspectNavError(f"{what}: {name}'s factors {up.shape} x {down.shape} do not make its shape "
                                     f"{shape}.")
        # every parameter is shared; the modules are new objects, so what is wrapped or replaced in the copy is the
        # copy's alone
        swapped = copy.deepcopy(model, memo={id(p): p for p in model.parameters()})
        copied = dict(_transformer(swapped).named_modules())
        device = next(model.parameters()).device
        for name, value in self.replaced.items():
            owner, attribute = name.rsplit(".", 1)
            setattr(copied[owner], attribute, torch.nn.Parameter(_tensor(value, device), requires_grad=False))
        for name, (up, down) in self.factors.items():
            owner = name.rsplit(".", 1)[0]
            parent, _, child = owner.rpartition(".")
            setattr(copied[parent], child, LowRankChange(copied[owner], _tensor(up, device), _tensor(down, device)))
        return swapped


def _tensor(value: np.ndarray, device):
    import torch

    return torch.from_numpy(np.asarray(value, dtype=np.float32)).to(device)


def _transformer(model):
    try:
        return model[0].auto_model
    except (AttributeError, IndexError, TypeError) as exc:
        raise AspectNavError("A weight delta needs a sentence-transformers base model (model[0].auto_model).") from exc


def load_weight_delta(directory: Path) -> WeightDelta:
    from explore.encoders.head import read_weights_directory

    directory = Path(directory)
    config, tensors = read_weights_directory(directory, DELTA_CONFIG, DELTA_WEIGHTS, DELTA_FORMAT, DELTA_VERSION,
                                             "Weight delta")
    if not config.get("base_encoder") or not tensors:
        raise AspectNavError(f"{directory / DELTA_CONFIG} needs base_encoder and weights.")
    factors, replaced = {}, {}
    for name, value in tensors.items():
        if name.endswith(UP):
            matrix = name[:-len(UP)]
            if matrix + DOWN not in tensors:
                raise AspectNavError(f"Weight delta at {directory}: {matrix} has an up factor but no down factor.")
            factors[matrix] = (value, tensors[matrix + DOWN])
        elif name.endswith(DOWN):
            if name[:-len(DOWN)] + UP not in tensors:
                raise AspectNavError(f"Weight delta at {directory}: {name[:-len(DOWN)]} has a down factor but no up "
                                     f"factor.")
        else:
            replaced[name] = value
    return WeightDelta(str(config["base_encoder"]), factors, replaced)


def save_weight_delta(directory: Path, delta: WeightDelta) -> Path:
    """Write `delta` as fp16 with its delta.json."""
    from safetensors.numpy import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {name: np.ascontiguousarray(np.asarray(value, dtype=np.float16))
               for name, value in delta.replaced.items()}
    for name, (up, down) in delta.factors.items():
        tensors[name + UP] = np.ascontiguousarray(np.asarray(up, dtype=np.float16))
        tensors[name + DOWN] = np.ascontiguousarray(np.asarray(down, dtype=np.float16))
    save_file(tensors, str(directory / DELTA_WEIGHTS))
    config = {"format": DELTA_FORMAT, "version": DELTA_VERSION, "base_encoder": delta.base_encoder, "rank": delta.rank}
    (directory / DELTA_CONFIG).write_text(json.dumps(config, indent=2))
    return directory
