import json

import numpy as np
import pytest

from explore.encoders import load_head, save_head
from explore.errors import AspectNavError


def test_round_trip_and_projection_is_normalised(tmp_path):
    rng = np.random.default_rng(0)
    w0, b0, w1 = rng.normal(size=(8, 4)), rng.normal(size=8), rng.normal(size=(3, 8))
    save_head(tmp_path, [w0, w1], [b0, None], ["relu", "identity"], base_encoder="minilm")
    head = load_head(tmp_path)
    assert (head.base_encoder, head.input_dim, head.output_dim) == ("minilm", 4, 3)
    x = rng.normal(size=(5, 4)).astype(np.float32)
    expected = np.maximum(x @ w0.T + b0, 0) @ w1.T
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(head.project(x), expected, rtol=1e-5, atol=1e-6)


def test_wrong_input_width_and_bad_files(tmp_path):
    save_head(tmp_path, [np.eye(4)], [None], ["identity"], base_encoder="minilm")
    with pytest.raises(AspectNavError, match="expects"):
        load_head(tmp_path).project(np.ones((2, 5)))
    config = json.loads((tmp_path / "head.json").read_text())
    (tmp_path / "head.json").write_text(json.dumps({**config, "layers": [{"activation": "swish"}]}))
    with pytest.raises(AspectNavError, match="layer 0"):
        load_head(tmp_path)
    (tmp_path / "head.json").write_text("{not json")
    with pytest.raises(AspectNavError, match="cannot be read"):
        load_head(tmp_path)


def test_a_truncated_head_is_a_clear_error_not_a_safetensors_crash(tmp_path):
    """A head cut short (a training output copied half-way) must not take the engine down."""
    save_head(tmp_path, [np.eye(4)], [None], ["identity"], base_encoder="minilm")
    weights = tmp_path / "head.safetensors"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    with pytest.raises(AspectNavError, match="cannot be read"):
        load_head(tmp_path)
