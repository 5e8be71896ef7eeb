"""Every article of a large corpus placed on the map of a sample: sampled articles keep their place, the others sit
among their nearest sampled articles, and the layout is read back from the cache."""
import numpy as np
import pytest

from explore.maps import NO_LABEL, OTHER, select_sample
from explore.whole_map import label_codes, place_by_rows, whole_layout, whole_layout_path


def _clusters(rows_per_cluster: int = 200, dim: int = 16):
    rng = np.random.default_rng(3)
    centres = np.eye(dim)[:4] * 5
    labels = np.repeat(np.arange(4), rows_per_cluster)
    vectors = centres[labels] + rng.normal(scale=0.3, size=(len(labels), dim))
    return vectors.astype(np.float32), labels


def test_sampled_rows_keep_their_place_and_the_others_sit_with_their_cluster(tmp_path, monkeypatch):
    monkeypatch.setenv("ASPECTNAV_HOME", str(tmp_path))
    vectors, labels = _clusters()
    sample = select_sample(len(vectors), 100)
    corners = np.array([[0, 0], [10, 0], [0, 10], [10, 10]], dtype=np.float32)
    base_coords = corners[labels[sample.base]] + 0.1
    layout = whole_layout("test/space", vectors, sample, base_coords)
    assert layout.shape == (len(vectors), 2)
    assert np.array_equal(layout[sample.base], base_coords)
    nearest_corner = np.argmin(((layout[:, None, :] - corners[None]) ** 2).sum(-1), axis=1)
    assert (nearest_corner == labels).mean() == 1.0
    assert whole_layout_path("test/space", sample, __import__("explore.maps").maps.ProjectionParams()).exists()
    again = whole_layout("test/space", vectors, sample, base_coords + 100)  # the cache, not a new placement
    assert np.array_equal(again, layout)


def test_base_coordinates_must_match_the_sample(tmp_path, monkeypatch):
    monkeypatch.setenv("ASPECTNAV_HOME", str(tmp_path))
    vectors, _ = _clusters(10)
    with pytest.raises(ValueError, match="base sample"):
        whole_layout("k", vectors, select_sample(len(vectors), 5), np.zeros((4, 2)))


def test_placement_rows_are_spread_over_the_base():
    assert place_by_rows(10, limit=20).tolist() == list(range(10))
    chosen = place_by_rows(20_000, limit=5_000)
    assert len(chosen) == 5_000 and chosen[0] == 0 and chosen[-1] == 19_999 and len(set(chosen.tolist())) == 5_000


def test_label_codes_index_faint_labels_then_the_legend_then_other():
    codes, order = label_codes(["b", NO_LABEL, "a", "rare", OTHER], ["a", "b"])
    assert order == [NO_LABEL, "a", "b", OTHER]
    assert [order[c] for c in codes] == ["b", NO_LABEL, "a", OTHER, OTHER]
