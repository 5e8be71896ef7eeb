import numpy as np
import pytest

from explore.corpus.model import Article, Corpus, Provenance
from explore.maps import (NO_LABEL, OTHER, ProjectionParams, cache_path, colour_labels, label_ranks, map_points,
                          place, project_sample, select_sample, top_overlap)


def test_sample_is_stable_includes_required_rows_and_clips_to_the_corpus():
    one = select_sample(1000, 100, required=[5, 999, 5], random_state=0)
    two = select_sample(1000, 100, required=[7], random_state=0)
    assert np.array_equal(one.base, two.base) and len(one.base) == 100
    assert {5, 999} <= set(one.rows.tolist()) and len(set(one.rows.tolist())) == len(one.rows)
    whole = select_sample(30, 2000, required=[3])
    assert whole.clipped and len(whole.rows) == 30 and len(whole.extra) == 0
    with pytest.raises(ValueError):
        select_sample(0, 10)


def test_projection_is_cached_on_disk_and_extra_rows_are_placed(isolated_home):
    rng = np.random.default_rng(0)
    vectors = np.concatenate([rng.normal(0, 1, (40, 8)) + 5, rng.normal(0, 1, (40, 8)) - 5]).astype(np.float32)
    sample = select_sample(80, 60, required=[0, 79])
    params = ProjectionParams(perplexity=10, n_iter=60, early_iter=40)
    coords, method, cached = project_sample("space-a", vectors, sample, params)
    assert coords.shape == (len(sample.rows), 2) and method in ("openTSNE", "scikit-learn") and not cached
    assert cache_path("space-a", sample, params).exists()
    again, _, cached = project_sample("space-a", vectors, sample, params)
    assert cached and np.allclose(coords, again)
    assert not project_sample("space-b", vectors, sample, ProjectionParams(perplexity=10, n_iter=60, early_iter=40,
                                                                           method="sklearn"))[2]


def test_corrupt_cache_is_recomputed(isolated_home):
    vectors = np.random.default_rng(1).normal(size=(20, 4)).astype(np.float32)
    sample = select_sample(20, 20)
    params = ProjectionParams(perplexity=5, n_iter=60, early_iter=40)
    path = cache_path("s", sample, params)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a zip")
    coords, _, cached = project_sample("s", vectors, sample, params)
    assert not cached and coords.shape == (20, 2)


def test_place_puts_a_point_beside_its_nearest_neighbours():
    base = np.array([[1, 0], [0.9, 0.1], [0, 1]], dtype=np.float32)
    coords = np.array([[10, 10], [12, 10], [-50, -50]], dtype=np.float32)
    placed = place(base, coords, np.array([[1, 0.05]]), neighbours=2)
    assert 10 <= placed[0, 0] <= 12 and placed[0, 1] == pytest.approx(10)


def test_colours_keep_top_labels_and_points_know_their_role():
    articles = [Article(str(i), f"T{i}", "x", aspects={"country": (f"C{i % 20}",)} if i < 60 else {}) for i in range(80)]
    corpus = Corpus("c", articles, Provenance("t", "d"))
    colours = colour_labels(corpus, range(80), "country", label_ranks(corpus, "country", top=15))
    assert colours.count(NO_LABEL) == 20 and OTHER in colours and len(set(colours) - {OTHER, NO_LABEL}) == 15
    sample = select_sample(80, 80)
    points = map_points(corpus, sample, np.zeros((80, 2)), "country", seed_id="3", neighbour_ids=["4", "5"])
    assert points.role[3] == "seed" and points.role[4] == "neighbour" and points.role[0] == "sample"
    assert points.legend[-1] == OTHER and NO_LABEL not in points.legend  # unlabelled: faint, named in a caption
    assert points.colour[3] == "C3" and points.titles[3] == "T3" and points.unlabelled_share == 0.25
    assert points.hover == []  # HTML hover labels are the app view's to write, escaped


def test_a_label_keeps_its_colour_rank_across_samples_and_seeds():
    """Ranks come from the whole corpus's label counts, not from the sample: two samples that see the
    labels in other proportions (and two seeds) give every label the same rank."""
    counts = {"France": 30, "Japan": 20, "Peru": 10, "Chad": 5}
    articles = [Article(f"{label}{i}", f"{label} {i}", "x", aspects={"country": (label,)})
                for label, n in counts.items() for i in range(n)]
    corpus = Corpus("c", articles, Provenance("t", "d"))
    peru = [corpus.position[f"Peru{i}"] for i in range(10)]
    mostly_peru = select_sample(len(corpus), 12, required=peru, random_state=1)
    other = select_sample(len(corpus), 20, random_state=7)
    one = map_points(corpus, mostly_peru, np.zeros((len(mostly_peru.rows), 2)), "country", seed_id="Peru0")
    two = map_points(corpus, other, np.zeros((len(other.rows), 2)), "country", seed_id="Chad1")
    assert one.ranks == two.ranks == {"France": 0, "Japan": 1, "Peru": 2, "Chad": 3}
    assert label_ranks(corpus, "country", top=2) == {"France": 0, "Japan": 1}
    assert label_ranks(corpus, None) == {}


def test_top_overlap_is_the_jaccard_of_two_neighbour_lists():
    assert top_overlap(["a", "b", "c"], ["b", "c", "d"]) == 0.5
    assert top_overlap(["a"], ["a"]) == 1.0 and top_overlap(["a"], ["b"]) == 0.0 and top_overlap([], []) == 1.0
