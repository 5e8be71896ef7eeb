import numpy as np
import pytest

from explore.encoders.agreement import min_cosine, neighbour_overlap


def _unit(rows):
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_identical_encodings_agree_fully_and_noise_lowers_the_overlap():
    vectors = _unit(np.random.default_rng(0).normal(size=(60, 16)))
    assert neighbour_overlap(vectors, vectors, 10) == 1.0
    assert min_cosine(vectors, vectors) == pytest.approx(1.0, abs=1e-6)
    noisy = _unit(vectors + np.random.default_rng(1).normal(scale=0.5, size=vectors.shape))
    assert 0.0 < neighbour_overlap(vectors, noisy, 10) < 1.0
    assert min_cosine(vectors, noisy) < 0.99


def test_overlap_counts_shared_neighbours_not_their_order():
    line = _unit([[1, 0.0], [1, 0.1], [1, 0.2], [1, 0.3]])
    assert neighbour_overlap(line, line, 1) == 1.0
    swapped = line[[0, 1, 3, 2]]  # rows 2 and 3 trade places: row 1's nearest stays row 0 or 2 ...
    assert neighbour_overlap(line, swapped, 3) == 1.0  # k = n - 1: everyone is everyone's neighbour
    assert neighbour_overlap(line, swapped, 1) < 1.0
    assert neighbour_overlap(line[:1], line[:1], 10) == 1.0  # one row has no neighbours to disagree on
