import numpy as np
import pytest
import torch

from explore.encoders import load_head
from training.head import TrainableHead


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_head_starts_as_the_identity_and_round_trips_through_the_engine_format(kind, tmp_path):
    x = np.random.default_rng(0).normal(size=(6, 8)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    head = TrainableHead(8, kind)
    assert np.allclose(head.transform(x), x, atol=1e-6)
    with torch.no_grad():
        for layer in head.layers:
            layer.weight.add_(0.1 * torch.randn_like(layer.weight))
    loaded = load_head(head.save(tmp_path / kind))
    assert loaded.base_encoder == "minilm" and len(loaded.weights) == (1 if kind == "linear" else 2)
    assert np.allclose(loaded.project(x), head.transform(x), atol=1e-5)


def test_unknown_head_kind():
    with pytest.raises(ValueError, match="linear or mlp"):
        TrainableHead(8, "transformer")
