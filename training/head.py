"""The trainable projection head of `head` mode, saved in the engine's head format (explore/encoders/head.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from explore.encoders.head import save_head


class TrainableHead(nn.Module):
    """On L2-normalised generic embeddings: `linear` x ↦ normalise(W x + b); `mlp` adds a ReLU layer
    of width 2·d. Both start as the identity (linear: W = I; mlp: W1 = [I; −I], W2 = [I, −I], since
    relu(x) − relu(−x) = x), so training begins at the generic space and moves it only as far as the
    aspect requires (retrofitting-style specialisation, Ostendorff et al. 2022)."""

    def __init__(self, in_dim: int, kind: str = "linear"):
        super().__init__()
        eye = torch.eye(in_dim)
        if kind == "linear":
            layers, weights, self.activations = [nn.Linear(in_dim, in_dim)], [eye], ["identity"]
        elif kind == "mlp":
            layers = [nn.Linear(in_dim, 2 * in_dim), nn.Linear(2 * in_dim, in_dim)]
            weights, self.activations = [torch.cat([eye, -eye]), torch.cat([eye, -eye], dim=1)], ["relu", "identity"]
        else:
            raise ValueError(f"Unknown head kind {kind!r}; use linear or mlp.")
        self.layers = nn.ModuleList(layers)
        with torch.no_grad():
            for layer, weight in zip(self.layers, weights):
                layer.weight.copy_(weight)
                layer.bias.zero_()

    def forward(self, embeddings: torch.Tensor) -> torch.Tensor:
        x = embeddings
        for layer, activation in zip(self.layers, self.activations):
            x = layer(x)
            x = torch.relu(x) if activation == "relu" else x
        return F.normalize(x, dim=-1)

    @torch.no_grad()
    def transform(self, embeddings: np.ndarray, batch_size: int = 4096) -> np.ndarray:
        """Project a numpy matrix (rows = articles) into the aspect space."""
        self.eval()
        parts = [self(torch.from_numpy(np.asarray(embeddings[i:i + batch_size], dtype=np.float32))).numpy()
                 for i in range(0, len(embeddings), batch_size)]
        return np.concatenate(parts) if parts else np.empty((0, self.layers[-1].out_features), dtype=np.float32)

    def save(self, directory: Path, base_encoder: str = "minilm") -> Path:
        """Write the engine's `aspectnav-projection-head` v1 (head.json + head.safetensors):
        `load_encoder(directory)` then gives base encoder + this head."""
        weights = [layer.weight.detach().cpu().numpy() for layer in self.layers]
        biases = [layer.bias.detach().cpu().numpy() for layer in self.layers]
        return save_head(Path(directory), weights, biases, list(self.activations), base_encoder=base_encoder,
                         normalize=True)
