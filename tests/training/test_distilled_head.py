"""The head distilled onto a full-mode space (training/distilled_head.py): fitted on pairs, it places new rows
near where the target map puts them; `neighbour_overlap` measures that."""
import numpy as np

from explore.encoders import load_encoder
from training.distilled_head import DistilledHead, neighbour_overlap


def _unit(rows):
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _pairs(n, dim=32, seed=0):
    rng = np.random.default_rng(seed)
    inputs = _unit(rng.normal(size=(n, dim)).astype(np.float32))
    mixing = np.eye(dim, dtype=np.float32) + 0.8 * rng.normal(size=(dim, dim)).astype(np.float32) / np.sqrt(dim)
    return inputs, _unit(inputs @ mixing.T), mixing


def test_the_head_learns_the_map_it_is_distilled_from():
    inputs, targets, mixing = _pairs(1200)
    head = DistilledHead(epochs=40, batch_size=128, learning_rate=3e-3, seed=1).fit(inputs[:1000], targets[:1000])
    held_out, wanted = inputs[1000:], targets[1000:]
    placed = head.transform(held_out)
    assert np.mean(np.sum(placed * wanted, axis=1)) > 0.97
    corpus = targets[:1000]
    assert neighbour_overlap(placed, wanted, corpus) > neighbour_overlap(held_out, wanted, corpus) + 0.1


def test_it_is_seeded():
    inputs, targets, _ = _pairs(300)
    first = DistilledHead(epochs=2, seed=3).fit(inputs, targets).transform(inputs[:5])
    again = DistilledHead(epochs=2, seed=3).fit(inputs, targets).transform(inputs[:5])
    np.testing.assert_array_equal(first, again)


def test_neighbour_overlap_counts_shared_neighbours():
    corpus = _unit(np.random.default_rng(2).normal(size=(60, 8)).astype(np.float32))
    assert neighbour_overlap(corpus[:10], corpus[:10], corpus, k=5) == 1.0
    rows = np.arange(10)
    assert neighbour_overlap(corpus[:10], corpus[:10], corpus, k=5, exclude=rows) == 1.0
    assert neighbour_overlap(corpus[:10], -corpus[:10], corpus, k=5) < 0.2


def test_the_distilled_head_saves_in_the_engine_format(tmp_path):
    inputs, targets, _ = _pairs(200, dim=384)
    head = DistilledHead(epochs=1).fit(inputs, targets)
    saved = head.head_.save(tmp_path / "encoder")
    encoder = load_encoder(f"dir:{saved}")
    np.testing.assert_allclose(encoder.project(inputs[:4]), head.transform(inputs[:4]), atol=1e-5)
