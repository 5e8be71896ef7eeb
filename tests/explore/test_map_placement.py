"""A point t-SNE did not project (free text, an article outside the sample) is placed at the similarity-weighted
mean of its neighbours' positions on the map, and says so."""
import numpy as np
import pytest

from explore.map_placement import neighbour_weights, placed_by_neighbours
from explore.maps import place


def test_a_point_sits_at_the_weighted_mean_of_its_neighbours():
    coords = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0], [50.0, 50.0]])
    placed = placed_by_neighbours(coords, [0, 1, 2], [0.9, 0.3, 0.3])
    assert (placed.x, placed.y) == pytest.approx((2.0, 2.0))  # weights 0.6, 0.2, 0.2
    assert placed.rows == (0, 1, 2) and placed.similarities == pytest.approx((0.9, 0.3, 0.3))
    assert "weighted mean" in placed.describe("“a mountain”") and "3 nearest" in placed.describe("x")


def test_neighbours_far_apart_give_a_large_spread():
    coords = np.array([[0.0, 0.0], [1.0, 0.0], [100.0, 0.0]])
    near = placed_by_neighbours(coords, [0, 1], [0.5, 0.5])
    apart = placed_by_neighbours(coords, [0, 2], [0.5, 0.5])
    assert near.spread == pytest.approx(0.5) and apart.spread == pytest.approx(50.0)
    assert "far apart" in apart.describe("x", coords) and "far apart" not in near.describe("x", coords)
    assert "far apart" not in apart.describe("x")  # without the map, nothing to compare with


def test_negative_similarities_still_weigh_a_little_and_weights_sum_to_one():
    weights = neighbour_weights(np.array([[0.8, -0.2, 0.0]]))
    assert weights.sum() == pytest.approx(1.0) and (weights > 0).all() and weights[0, 0] > 0.99


@pytest.mark.parametrize("rows, sims", [([], []), ([0, 1], [0.5])])
def test_placing_without_neighbours_or_with_mismatched_similarities_is_refused(rows, sims):
    with pytest.raises(ValueError):
        placed_by_neighbours(np.zeros((3, 2)), rows, sims)


def test_an_article_outside_the_sample_is_placed_by_the_same_weights():
    """maps.place (vectors → nearest sampled articles) and placed_by_neighbours (known neighbours) agree."""
    rng = np.random.default_rng(0)
    base = rng.normal(size=(30, 8)).astype(np.float32)
    coords = rng.uniform(-20, 20, size=(30, 2)).astype(np.float32)
    new = base[3] + 0.05 * rng.normal(size=8).astype(np.float32)
    unit = base / np.linalg.norm(base, axis=1, keepdims=True)
    sims = unit @ (new / np.linalg.norm(new))
    nearest = np.argsort(-sims)[:5]
    expected = placed_by_neighbours(coords, nearest, sims[nearest])
    assert place(base, coords, new[None], neighbours=5)[0] == pytest.approx((expected.x, expected.y), abs=1e-3)
