"""A distilled layer replaces one of the base model's layers and shares the others (issue #39's free text)."""
import json

import numpy as np
import pytest

from explore.encoders import AdaptedEncoder, EncoderSpec, load_distilled_layer, load_encoder, save_distilled_layer
from explore.errors import AspectNavError

TEXTS = ["a French painter of water lilies", "Paris. Paris is the capital and largest city of France."]


def _last_layer(minilm):
    return minilm.model[0].auto_model.encoder.layer[5]


def test_the_base_layer_as_is_encodes_as_the_base_and_shares_its_other_weights(minilm, tmp_path):
    save_distilled_layer(tmp_path / "layer", _last_layer(minilm).state_dict(), 5)
    encoder = load_encoder(f"dir:{tmp_path / 'layer'}")
    assert isinstance(encoder, AdaptedEncoder) and EncoderSpec.parse(f"dir:{tmp_path / 'layer'}").kind == "layer"
    assert encoder.fingerprint != minilm.fingerprint
    np.testing.assert_allclose(np.sum(encoder.encode(TEXTS, progress=False) * minilm.encode(TEXTS, progress=False),
                                      axis=1), 1.0, atol=1e-4)  # fp16 weights
    base, swapped = minilm.model[0].auto_model.encoder.layer, encoder.model[0].auto_model.encoder.layer
    assert base[4].output.dense.weight is swapped[4].output.dense.weight
    assert base[5].output.dense.weight is not swapped[5].output.dense.weight


def test_a_changed_layer_moves_the_vectors_and_the_fingerprint(minilm, tmp_path):
    state = {name: value.clone() for name, value in _last_layer(minilm).state_dict().items()}
    save_distilled_layer(tmp_path / "same", state, 5)
    state["output.LayerNorm.bias"][:192] += 0.5  # after the last LayerNorm, so it shows in every token
    save_distilled_layer(tmp_path / "moved", state, 5)
    same, moved = load_encoder(f"dir:{tmp_path / 'same'}"), load_encoder(f"dir:{tmp_path / 'moved'}")
    assert same.fingerprint != moved.fingerprint
    assert np.min(np.sum(same.encode(TEXTS, progress=False) * moved.encode(TEXTS, progress=False), axis=1)) < 0.999


def test_bad_layer_files_are_clear_errors(minilm, tmp_path):
    state = _last_layer(minilm).state_dict()
    save_distilled_layer(tmp_path / "wrong", {k: v for k, v in state.items() if "query" not in k}, 5)
    with pytest.raises(AspectNavError, match="do not match"):
        load_encoder(f"dir:{tmp_path / 'wrong'}").encode(TEXTS, progress=False)
    save_distilled_layer(tmp_path / "deep", state, 9)
    with pytest.raises(AspectNavError, match="does not exist"):
        load_encoder(f"dir:{tmp_path / 'deep'}").encode(TEXTS, progress=False)
    save_distilled_layer(tmp_path / "cut", state, 5)
    weights = tmp_path / "cut" / "layer.safetensors"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    with pytest.raises(AspectNavError, match="cannot be read"):
        load_distilled_layer(tmp_path / "cut")
    config = json.loads((tmp_path / "deep" / "layer.json").read_text())
    (tmp_path / "deep" / "layer.json").write_text(json.dumps({**config, "format": "something"}))
    with pytest.raises(AspectNavError, match="is not a"):
        load_distilled_layer(tmp_path / "deep")
