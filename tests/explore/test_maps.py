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
    again = map_points(corpus, sample, np.zeros((80, 2)), "country", seed_id="5", neighbour_ids=["3", "5", "99"])
    assert (again.role[3], again.role[4], again.role[5]) == ("neighbour", "sample", "seed")  # the seed wins
    assert points.role[3] == "seed" and again.ids is points.ids  # the ids are read once; the roles are each map's


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


def test_tsne_reports_progress_up_to_done_and_uses_the_exact_neighbours_of_small_samples():
    from explore.maps import exact_cosine_neighbours, tsne

    vectors = np.random.default_rng(2).normal(size=(120, 6)).astype(np.float32)
    reports = []
    coords, method = tsne(vectors, ProjectionParams(perplexity=10, n_iter=40, early_iter=20), n_jobs=1,
                          progress=lambda fraction, stage: reports.append((fraction, stage)))
    assert coords.shape == (120, 2) and np.isfinite(coords).all() and method == "openTSNE"
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and reports[0] == (0.0, "finding neighbours") and reports[-1] == (1.0, "done")
    assert {"early exaggeration", "refining"} <= {stage for _, stage in reports}
    neighbours, distances = exact_cosine_neighbours(vectors, 5)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    brute = np.argsort(-(unit @ unit.T - 2 * np.eye(120)), axis=1)[:, :5]
    assert np.array_equal(neighbours, brute) and np.all(np.diff(distances, axis=1) >= 0)


def test_usable_cores_follow_the_process_affinity_without_a_cap(monkeypatch):
    from explore import maps

    monkeypatch.setattr(maps.os, "sched_getaffinity", lambda pid: set(range(16)), raising=False)
    assert maps.usable_cores() == 16


def test_missing_maps_are_computed_side_by_side_with_progress_in_the_calling_thread(isolated_home, monkeypatch):
    import threading

    from explore import maps
    from explore.maps import project_samples

    threads, jobs, waits = set(), [], []
    both_running = threading.Barrier(2, timeout=10)  # each map waits for the other: they must run at once

    def slow_tsne(vectors, params, n_jobs=None, progress=None):
        threads.add(threading.current_thread().name)
        jobs.append(n_jobs)
        progress(0.5, "refining")
        both_running.wait()
        return np.asarray(vectors[:, :2], dtype=np.float32), "stub"

    monkeypatch.setattr(maps, "tsne", slow_tsne)
    monkeypatch.setattr(maps, "usable_cores", lambda: 16)
    vectors = np.random.default_rng(3).normal(size=(30, 4)).astype(np.float32)
    sample = select_sample(30, 30)
    spaces = [("a", vectors), ("b", vectors * 2), ("a", vectors)]  # the same space twice is computed once
    found = project_samples(spaces, sample, on_wait=lambda state: waits.append((threading.current_thread(), state)),
                            poll_s=0.01)
    assert [f.source for f in found] == ["computed"] * 3 and np.array_equal(found[0].coords, found[2].coords)
    assert len(threads) == 2 and threading.current_thread().name not in threads and jobs == [8, 8]
    assert waits and all(thread is threading.current_thread() for thread, _ in waits)
    assert set(waits[-1][1]) == {0, 1}
    again = project_samples(spaces, sample, on_wait=lambda state: pytest.fail("nothing to wait for"))
    assert [f.source for f in again] == ["cache"] * 3


def test_a_space_recomputed_in_another_precision_or_backend_gets_another_map_key():
    from explore.maps import projection_key
    from explore.spaces import Space

    def key(backend, precision):
        space = Space("generic", "generic", "minilm")
        space._set_state(np.eye(3, dtype=np.float32), "toy", "hash", "fingerprint", precision, "", 0.0, "", backend)
        return projection_key(space)

    assert key("torch", "fp32") == key("torch", "fp32")
    assert len({key("torch", "fp32"), key("onnx", "int8"), key("openvino", "bf16"), key("torch", "bf16")}) == 4


def test_an_article_the_source_leaves_unlabelled_takes_the_colour_of_its_inferred_label():
    from explore.maps import FILTERED_OUT

    articles = [Article("a", "A", "x", aspects={"topic": ("People",)}),
                Article("b", "B", "x", aspects={"topic": ("Arts",)}), Article("curie", "Marie Curie", "x", inferred={"topic": ("People",)}), Article("none", "N", "x")]
    corpus = Corpus("c", articles, Provenance("test", "2026-01-01"))
    ranks = label_ranks(corpus, "topic")
    assert colour_labels(corpus, range(4), "topic", ranks) == ["People", "Arts", "People", NO_LABEL]
    points = map_points(corpus, select_sample(4, 4), np.zeros((4, 2)), "topic", only="People")
    assert dict(zip(points.ids, points.colour)) == {"a": "People", "b": FILTERED_OUT, "curie": "People",
                                                    "none": FILTERED_OUT}


def test_colours_asked_again_of_the_same_corpus_are_kept_and_each_caller_gets_its_own_copy():
    from explore.maps import point_colours

    def corpus_of(labels):
        return Corpus("c", [Article(str(i), f"T{i}", "x", aspects={"topic": (label,)}) for i, label in
                            enumerate(labels)], Provenance("test", "2026-01-01"))

    first = corpus_of(["People", "Arts", "People"])
    colours, ranks = point_colours(first, range(3), "topic")
    colours.append("mine")
    ranks["mine"] = 9
    assert point_colours(first, range(3), "topic") == (["People", "Arts", "People"], {"People": 0, "Arts": 1})
    other = corpus_of(["Arts", "Arts", "People"])  # another corpus object: its own colours, never the first's
    assert point_colours(other, range(3), "topic")[0] == ["Arts", "Arts", "People"]
    assert point_colours(first, [2, 0], "topic")[0] == ["People", "People"]  # other rows, another question
