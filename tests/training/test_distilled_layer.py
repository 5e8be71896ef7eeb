"""The last layer distilled from a fine-tuned encoder (training/distilled_layer.py): trained on cached token states,
it must compute what the engine's swapped model computes, and move towards the targets it is distilled from."""
import numpy as np
import pytest
import torch

from explore.encoders import load_encoder, save_distilled_layer
from training.distilled_layer import DistilledLayerTrainer, LayerCopy, token_states
from training.distilled_head import neighbour_overlap

TEXTS = [f"{name}. {name} is a {trade} from {place}." for name, trade, place in [
    ("Ada", "mathematician", "England"), ("Bo", "painter", "China"), ("Cy", "composer", "Austria"),
    ("Di", "poet", "Chile"), ("Ed", "physicist", "Germany"), ("Flo", "nurse", "Italy"), ("Gus", "sculptor", "France"),
    ("Hal", "chemist", "Sweden"), ("Ike", "general", "USA"), ("Jo", "novelist", "Nigeria"), ("Kit", "singer", "Cuba"),
    ("Lu", "architect", "Spain")]]


def _parts(minilm):
    model = minilm.model
    layer = model[0].auto_model.encoder.layer[5]
    return model, layer.state_dict(), model[0].auto_model.config.num_attention_heads


def test_the_copy_on_cached_states_is_the_engine_s_encoder(minilm, tmp_path):
    model, state, heads = _parts(minilm)
    states = token_states(model, TEXTS, 5, tmp_path / "cache")
    assert token_states(model, TEXTS, 5, tmp_path / "cache").states.shape == states.states.shape  # read back
    rows = np.arange(len(TEXTS))
    with torch.no_grad():
        pooled = LayerCopy(state, heads)(*states.batch(rows)).numpy()
    assert np.min(np.sum(pooled * minilm.encode(TEXTS, progress=False), axis=1)) > 0.9995  # fp16 states


@pytest.mark.slow  # trains twice (seconds alone, minutes on a shared 2-core CPU)
def test_training_moves_the_layer_towards_its_targets_and_the_engine_follows(minilm, tmp_path):
    model, state, heads = _parts(minilm)
    states = token_states(model, TEXTS, 5, tmp_path / "cache")
    moved = {name: value.clone() for name, value in state.items()}
    moved["output.LayerNorm.bias"][:96] += 0.3  # a stand-in for the fine-tuned encoder's last layer
    rows = np.arange(len(TEXTS))
    with torch.no_grad():
        targets = LayerCopy(moved, heads)(*states.batch(rows)).numpy()
        before = LayerCopy(state, heads)(*states.batch(rows)).numpy()
    trainer = DistilledLayerTrainer(epochs=30, batch_size=4, learning_rate=1e-3, seed=3).fit(state, heads, states,
                                                                                              rows, targets)
    placed = trainer.place(states, rows)
    assert np.mean(np.sum(placed * targets, axis=1)) > np.mean(np.sum(before * targets, axis=1)) + 0.01
    assert neighbour_overlap(placed, targets, targets, k=3) >= neighbour_overlap(before, targets, targets, k=3)
    save_distilled_layer(tmp_path / "layer", trainer.state_dict_, 5)
    engine = load_encoder(f"dir:{tmp_path / 'layer'}", precision="fp32").encode(TEXTS, progress=False)
    assert np.min(np.sum(engine * placed, axis=1)) > 0.999
    again = DistilledLayerTrainer(epochs=30, batch_size=4, learning_rate=1e-3, seed=3).fit(state, heads, states,
                                                                                            rows, targets)
    np.testing.assert_allclose(again.place(states, rows), placed, atol=1e-6)  # seeded
