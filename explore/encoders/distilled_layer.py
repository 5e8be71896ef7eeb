"""A distilled last layer: the base transformer (MiniLM) with one layer replaced by a copy distilled from a
fine-tuned encoder, so free text lands where that encoder would have put it at the cost of one layer's weights.

A full-mode space's fine-tuned encoder is 43 MiB; its lower layers stay close to the base model's, and a pooled-vector
head (explore/encoders/head.py) cannot recover what the fine-tuned layers do to each token. Replacing the last layer
(1.8 M weights, 3.5 MB in fp16) and keeping the base model's others places text far closer to the fine-tuned
encoder's own neighbours (docs/training.md, "Free text through a distilled last layer"; a weight delta,
weight_delta.py, now does better and ships instead). Data homes that hold a layer still load it. A layer lives in its own directory
(`EncoderSpec.parse` recognises it by `layer.json`):

    layer.json          {"format": "aspectnav-distilled-layer", "version": 1,
                         "base_encoder": "minilm",   # any encoder spec of a sentence-transformers BERT model
                         "layer": 5}                 # the index of the transformer layer it replaces
    layer.safetensors   that layer's state dict (the base model's names, e.g. attention.self.query.weight), fp16

The encoder shares every other weight with its base (one copy in memory however many spaces use it).
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explore.encoders.spec import LAYER_CONFIG
from explore.errors import AspectNavError

LAYER_FORMAT = "aspectnav-distilled-layer"
LAYER_VERSION = 1
LAYER_WEIGHTS = "layer.safetensors"


@dataclass(frozen=True)
class DistilledLayer:
    base_encoder: str
    index: int  # the base model's transformer layer it replaces
    state: dict  # name -> np.ndarray, the replaced layer's state dict

    def applied_to(self, model):
        """A copy of the SentenceTransformer `model` sharing every parameter but layer `index`'s, which is this one."""
        import torch

        layers = _transformer_layers(model)
        if not 0 <= self.index < len(layers):
            raise AspectNavError(f"Distilled layer {self.index} does not exist in {self.base_encoder} "
                                 f"({len(layers)} layers).")
        replaced = {id(p) for p in layers[self.index].parameters()}
        shared = {id(p): p for p in model.parameters() if id(p) not in replaced}
        swapped = copy.deepcopy(model, memo=dict(shared))
        target = _transformer_layers(swapped)[self.index]
        wanted = set(target.state_dict())
        if wanted != set(self.state):
            raise AspectNavError(f"Distilled layer for {self.base_encoder}: weights {sorted(set(self.state) ^ wanted)} "
                                 f"do not match the base model's layer {self.index}.")
        reference = next(target.parameters())
        target.load_state_dict({name: torch.from_numpy(np.asarray(value, dtype=np.float32)).to(reference.device)
                                for name, value in self.state.items()})
        return swapped


def _numpy(value) -> np.ndarray:
    return value.detach().cpu().float().numpy() if hasattr(value, "detach") else np.asarray(value, dtype=np.float32)


def _transformer_layers(model):
    try:
        return model[0].auto_model.encoder.layer
    except (AttributeError, IndexError, TypeError) as exc:
        raise AspectNavError("A distilled layer needs a BERT-style sentence-transformers base model "
                             "(model[0].auto_model.encoder.layer).") from exc


def load_distilled_layer(directory: Path) -> DistilledLayer:
    from explore.encoders.head import read_weights_directory

    directory = Path(directory)
    config, state = read_weights_directory(directory, LAYER_CONFIG, LAYER_WEIGHTS, LAYER_FORMAT, LAYER_VERSION,
                                           "Distilled layer")
    if not isinstance(config.get("layer"), int) or not config.get("base_encoder") or not state:
        raise AspectNavError(f"{directory / LAYER_CONFIG} needs base_encoder, an integer layer and weights.")
    return DistilledLayer(str(config["base_encoder"]), config["layer"], dict(state))


def save_distilled_layer(directory: Path, state: dict, index: int, base_encoder: str = "minilm") -> Path:
    """Write `state` (the layer's state dict, numpy or torch tensors) as fp16 with its layer.json."""
    from safetensors.numpy import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {name: np.ascontiguousarray(_numpy(value).astype(np.float16)) for name, value in state.items()}
    save_file(tensors, str(directory / LAYER_WEIGHTS))
    config = {"format": LAYER_FORMAT, "version": LAYER_VERSION, "base_encoder": str(base_encoder), "layer": index}
    (directory / LAYER_CONFIG).write_text(json.dumps(config, indent=2))
    return directory
