"""Projection heads: a small trained MLP on top of a frozen base encoder, applied in numpy.

A head lives in its own directory (what training/ writes; `EncoderSpec.parse` recognises it by
`head.json`):

    head.json          {"format": "aspectnav-projection-head", "version": 1,
                        "base_encoder": "minilm",          # any encoder spec; relative paths resolve
                                                           #   against this directory
                        "layers": [{"activation": "relu"}, {"activation": "identity"}],
                        "normalize": true}                 # L2-normalise the output (default true)
    head.safetensors   layers.0.weight (out, in), layers.0.bias (out,) [bias optional], layers.1...

Input = the base encoder's L2-normalised float32 embeddings (exactly what a generic space stores),
so a head space is built from the cached base embeddings without running the transformer, and a
trainer can fit heads on cached embeddings. Activations: identity, relu, tanh.
Write one with `save_head(directory, weights, biases, activations, base_encoder)`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explore.errors import AspectNavError
from explore.encoders.spec import HEAD_CONFIG

HEAD_FORMAT = "aspectnav-projection-head"
HEAD_VERSION = 1
HEAD_WEIGHTS = "head.safetensors"
ACTIVATIONS = {
    "identity": lambda x: x,
    "relu": lambda x: np.maximum(x, 0.0),
    "tanh": np.tanh,
}


@dataclass(frozen=True)
class ProjectionHead:
    base_encoder: str
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray | None, ...]
    activations: tuple[str, ...]
    normalize: bool = True

    @property
    def input_dim(self) -> int:
        return self.weights[0].shape[1]

    @property
    def output_dim(self) -> int:
        return self.weights[-1].shape[0]

    def project(self, embeddings: np.ndarray) -> np.ndarray:
        """Map base embeddings (n, input_dim) to head embeddings (n, output_dim), float32."""
        x = np.asarray(embeddings, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.input_dim:
            raise AspectNavError(f"Head expects (n, {self.input_dim}) embeddings, got {x.shape}.")
        for weight, bias, activation in zip(self.weights, self.biases, self.activations):
            x = x @ weight.T
            if bias is not None:
                x = x + bias
            x = ACTIVATIONS[activation](x)
        if self.normalize:
            x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
        return x.astype(np.float32, copy=False)


def read_weights_directory(directory: Path, config_name: str, weights_name: str, file_format: str, version: int,
                           what: str) -> tuple[dict, dict]:
    """(config, tensors) of an encoder directory the engine wrote (a head, a distilled layer), or one clear
    AspectNavError: unreadable or truncated files, or a config of another format or version."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    directory = Path(directory)
    try:
        config = json.loads((directory / config_name).read_text())
        tensors = load_file(str(directory / weights_name))
    except (OSError, ValueError, SafetensorError) as exc:  # a truncated file is a SafetensorError
        raise AspectNavError(f"{what} at {directory} cannot be read ({exc}).") from exc
    if config.get("format") != file_format or config.get("version") != version:
        raise AspectNavError(f"{directory / config_name} is not a {file_format} v{version} file.")
    return config, tensors


def load_head(directory: Path) -> ProjectionHead:
    directory = Path(directory)
    config, tensors = read_weights_directory(directory, HEAD_CONFIG, HEAD_WEIGHTS, HEAD_FORMAT, HEAD_VERSION,
                                             "Projection head")
    layers = config.get("layers") or []
    weights, biases, activations = [], [], []
    for i, layer in enumerate(layers):
        activation = layer.get("activation") or "identity"
        if activation not in ACTIVATIONS or f"layers.{i}.weight" not in tensors:
            raise AspectNavError(
                f"Head at {directory}: layer {i} needs layers.{i}.weight and one of {list(ACTIVATIONS)}.")
        weights.append(tensors[f"layers.{i}.weight"].astype(np.float32))
        bias = tensors.get(f"layers.{i}.bias")
        biases.append(None if bias is None else bias.astype(np.float32))
        activations.append(activation)
    if not weights:
        raise AspectNavError(f"Head at {directory} has no layers.")
    for previous, weight in zip(weights, weights[1:]):
        if weight.shape[1] != previous.shape[0]:
            raise AspectNavError(f"Head at {directory}: layer shapes {previous.shape} -> {weight.shape} do not chain.")
    return ProjectionHead(str(config["base_encoder"]), tuple(weights), tuple(biases), tuple(activations),
                          bool(config.get("normalize", True)))


def save_head(directory: Path, weights: list[np.ndarray], biases: list[np.ndarray | None],
              activations: list[str], base_encoder: str, normalize: bool = True) -> Path:
    from safetensors.numpy import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {}
    for i, (weight, bias) in enumerate(zip(weights, biases)):
        tensors[f"layers.{i}.weight"] = np.ascontiguousarray(weight, dtype=np.float32)
        if bias is not None:
            tensors[f"layers.{i}.bias"] = np.ascontiguousarray(bias, dtype=np.float32)
    save_file(tensors, str(directory / HEAD_WEIGHTS))
    config = {"format": HEAD_FORMAT, "version": HEAD_VERSION, "base_encoder": str(base_encoder),
              "layers": [{"activation": a} for a in activations], "normalize": normalize}
    (directory / HEAD_CONFIG).write_text(json.dumps(config, indent=2))
    return directory
