"""A fine-tuned encoder carried as a low-rank weight delta (issue #53's free text): extracted from the two models, it
must encode as the fine-tuned model does when the move is within its rank, share every base weight, and fail
clearly on files that do not fit the base."""
import copy
import json

import numpy as np
import pytest
import torch

from explore.encoders import AdaptedEncoder, EncoderSpec, load_encoder, load_weight_delta, save_weight_delta
from explore.encoders.weight_delta import WeightDelta
from explore.errors import AspectNavError
from training.weight_delta import delta_bytes, reconstruction_error, weight_delta

TEXTS = ["a French painter of water lilies", "Paris. Paris is the capital and largest city of France.",
         "Ada Lovelace", "an English mathematician"]


def _tuned(minilm, rank: int = 3, seed: int = 0):
    """A stand-in for a fine-tuned MiniLM: every linear weight moved by a random rank-`rank` matrix, a few
    embedding rows and a LayerNorm bias moved too."""
    generator = torch.Generator().manual_seed(seed)
    tuned = copy.deepcopy(minilm.model)
    transformer = tuned[0].auto_model
    with torch.no_grad():
        for module in transformer.modules():
            if isinstance(module, torch.nn.Linear):
                out, inner = module.weight.shape
                left = torch.randn(out, rank, generator=generator)
                right = torch.randn(rank, inner, generator=generator)
                module.weight += 0.02 * module.weight.std() * (left @ right) / rank
        rows = transformer.embeddings.word_embeddings.weight
        rows[[2054, 3000, 7592]] += 0.05 * torch.randn(3, rows.shape[1], generator=generator)
        transformer.encoder.layer[5].output.LayerNorm.bias += 0.1
    return tuned


def _encode(model, texts=TEXTS):
    return model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)


def test_a_move_within_the_rank_encodes_as_the_fine_tuned_model(minilm, tmp_path):
    minilm.encode(TEXTS[:1], progress=False)  # loads the base model
    tuned = _tuned(minilm)
    delta = weight_delta(minilm.model, tuned, rank=3)
    assert reconstruction_error(delta, minilm.model, tuned) < 1e-4
    assert "encoder.layer.5.output.LayerNorm.bias" in delta.replaced
    assert "encoder.layer.0.attention.self.query.bias" not in delta.replaced  # unmoved vectors are not carried
    save_weight_delta(tmp_path / "delta", delta)
    assert abs((tmp_path / "delta" / "delta.safetensors").stat().st_size - delta_bytes(delta)) < 20_000
    encoder = load_encoder(f"dir:{tmp_path / 'delta'}", precision="fp32")
    assert isinstance(encoder, AdaptedEncoder) and EncoderSpec.parse(f"dir:{tmp_path / 'delta'}").kind == "delta"
    assert encoder.fingerprint != minilm.fingerprint
    placed, wanted, base = encoder.encode(TEXTS, progress=False), _encode(tuned), _encode(minilm.model)
    assert np.min(np.sum(placed * wanted, axis=1)) > 0.9999  # fp16 factors
    assert np.min(np.sum(base * wanted, axis=1)) < 0.999  # the move shows: the base alone would not do


def test_the_delta_shares_every_base_weight(minilm, tmp_path):
    minilm.encode(TEXTS[:1], progress=False)
    before = _encode(minilm.model)
    save_weight_delta(tmp_path / "delta", weight_delta(minilm.model, _tuned(minilm), rank=2))
    changed = load_encoder(f"dir:{tmp_path / 'delta'}").model[0].auto_model  # the fixture's base, same precision
    base = minilm.model[0].auto_model
    assert changed.encoder.layer[3].intermediate.dense.base.weight is base.encoder.layer[3].intermediate.dense.weight
    assert changed.embeddings.word_embeddings.base.weight is base.embeddings.word_embeddings.weight
    assert changed.encoder.layer[5].output.LayerNorm.bias is not base.encoder.layer[5].output.LayerNorm.bias
    np.testing.assert_array_equal(_encode(minilm.model), before)  # the base model is untouched


def test_a_lower_rank_keeps_the_strongest_part_of_the_move(minilm):
    minilm.encode(TEXTS[:1], progress=False)
    tuned = _tuned(minilm, rank=8, seed=1)
    errors = [reconstruction_error(weight_delta(minilm.model, tuned, rank=r), minilm.model, tuned) for r in (2, 4, 8)]
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-4
    assert not weight_delta(minilm.model, tuned, rank=4, embedding_rank=0).factors.get(
        "embeddings.word_embeddings.weight")


def test_bad_delta_files_are_clear_errors(minilm, tmp_path):
    minilm.encode(TEXTS[:1], progress=False)
    delta = weight_delta(minilm.model, _tuned(minilm), rank=2)
    name = "encoder.layer.1.attention.self.key.weight"
    up, down = delta.factors[name]
    cases = {
        "not weights of": WeightDelta("minilm", {"encoder.layer.9.output.dense.weight": (up, down)}, {}),
        "do not make its shape": WeightDelta("minilm", {name: (up[:100], down)}, {}),
        "has shape": WeightDelta("minilm", {}, {"encoder.layer.5.output.LayerNorm.bias": np.zeros(7, np.float32)}),
    }
    for message, bad in cases.items():
        save_weight_delta(tmp_path / message, bad)
        with pytest.raises(AspectNavError, match=message):
            load_encoder(f"dir:{tmp_path / message}").encode(TEXTS, progress=False)
    save_weight_delta(tmp_path / "cut", delta)
    weights = tmp_path / "cut" / "delta.safetensors"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    with pytest.raises(AspectNavError, match="cannot be read"):
        load_weight_delta(tmp_path / "cut")
    config = json.loads((tmp_path / "has shape" / "delta.json").read_text())
    (tmp_path / "has shape" / "delta.json").write_text(json.dumps({**config, "version": 99}))
    with pytest.raises(AspectNavError, match="is not a"):
        load_weight_delta(tmp_path / "has shape")
    with pytest.raises(ValueError, match="architecture"):
        weight_delta(minilm.model, torch.nn.Sequential(torch.nn.Linear(2, 2)), rank=2)
