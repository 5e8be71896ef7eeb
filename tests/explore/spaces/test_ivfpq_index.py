"""The IVF-PQ index (faiss, rescored from the stored vectors): recall against exact search, exact scores, its file,
what it refuses, and when `auto` picks it."""
import gc
import logging

import numpy as np
import pytest

from explore.errors import AspectNavError
from explore.spaces.ivfpq_index import IvfPqIndex, code_bytes
from explore.spaces.vector_index import EXACT_BELOW, IVFPQ_FROM, IndexKind, SearchPlan, exact_query, ivf_lists


def _clustered(n, d, seed=0):
    """Unit rows around 40 centres, as an encoder's vectors are (uniform random rows have no neighbours to find)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, d))
    x = (centres[rng.integers(0, 40, n)] + 0.6 * rng.normal(size=(n, d))).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """20,000 clustered 96-d rows stored as a space stores them (memory-mapped fp16), and an index over them."""
    path = tmp_path_factory.mktemp("ivfpq") / "v.npy"
    np.save(path, _clustered(20_000, 96).astype(np.float16))
    vectors = np.load(path, mmap_mode="r")
    return vectors, IvfPqIndex(nlist=64, nprobe=8).fit(vectors)


def test_recall_at_10_against_exact_search_and_scores_are_the_exact_cosines(stored):
    vectors, index = stored
    hits = 0
    for row in range(0, 20_000, 400):
        query = np.asarray(vectors[row], dtype=np.float32)
        rows, scores = index.query(query, 10)
        hits += len(set(rows) & set(exact_query(vectors, query, 10)[0]))
        np.testing.assert_allclose(scores, np.asarray(vectors[rows], dtype=np.float32) @ query, rtol=0, atol=1e-6)
        assert list(scores) == sorted(scores, reverse=True)
    assert hits / (10 * 50) >= 0.95


def test_a_memory_mapped_fp16_matrix_is_added_a_block_at_a_time(stored, monkeypatch):
    monkeypatch.setattr("explore.spaces.ivfpq_index.SCORE_BLOCK", 7_000)
    vectors, _ = stored
    index = IvfPqIndex(nlist=64, nprobe=8).fit(vectors)
    assert index.size_ == index.index_.ntotal == 20_000 and index.index_.pq.M == 48
    assert index.query(np.asarray(vectors[19_999], dtype=np.float32), 1)[0][0] == 19_999


def test_more_results_than_the_rescored_candidates_are_still_ranked_exactly(stored):
    vectors, index = stored
    query = np.asarray(vectors[5], dtype=np.float32)
    rows, scores = index.query(query, 150)
    assert len(rows) == 150 and len(set(rows)) == 150 and rows[0] == 5
    np.testing.assert_allclose(scores, np.asarray(vectors[rows], dtype=np.float32) @ query, atol=1e-6)


def test_saved_index_reloads_memory_mapped_and_a_damaged_or_other_one_is_rebuilt_with_a_warning(stored, tmp_path,
                                                                                                 caplog):
    vectors, index = stored
    path = tmp_path / "i.faiss"
    index.save(path)
    loaded = IvfPqIndex.load(path, dim=96, size=20_000, nlist=64, nprobe=8, vectors=vectors)
    query = np.asarray(vectors[7], dtype=np.float32)
    assert loaded is not None and loaded.index_.nprobe == 8
    assert [r.tolist() for r in loaded.query(query, 10)] == [r.tolist() for r in index.query(query, 10)]
    caplog.set_level(logging.WARNING, logger="explore.spaces.ivfpq_index")
    assert IvfPqIndex.load(path, dim=96, size=20_001) is None  # other embeddings
    assert IvfPqIndex.load(path, dim=384, size=20_000) is None  # another encoder's dimension
    assert "20000 rows of 96 dimensions, the space 20000 of 384" in caplog.text
    del loaded
    gc.collect()  # nothing maps the file now: truncating a mapped file in place would fault whoever reads it
    path.write_bytes(path.read_bytes()[:1000])  # truncated: must never be mapped
    assert IvfPqIndex.load(path, dim=96, size=20_000) is None
    assert "does not match its sha256" in caplog.text
    assert IvfPqIndex.load(tmp_path / "missing.faiss", dim=96, size=20_000) is None


def test_a_query_of_the_wrong_dimension_or_without_the_vectors_and_an_empty_build_say_what_is_wrong(stored, tmp_path):
    vectors, index = stored
    with pytest.raises(AspectNavError, match=r"shape \(8,\).*96-dimensional"):
        index.query(np.ones(8), 3)
    index.save(tmp_path / "i.faiss")
    with pytest.raises(AspectNavError, match="queried with the vectors it was built from"):
        IvfPqIndex.load(tmp_path / "i.faiss", dim=96, size=20_000).query(np.ones(96), 3)
    with pytest.raises(AspectNavError, match="matrix of rows"):
        IvfPqIndex().fit(np.ones(16, dtype=np.float32))
    with pytest.raises(AspectNavError, match="0 cannot train it"):
        IvfPqIndex().fit(np.zeros((0, 16), dtype=np.float32))


def test_auto_picks_ivfpq_from_a_million_rows_with_lists_scaled_to_the_rows():
    assert SearchPlan.for_rows(IVFPQ_FROM - 1).method == "hnsw"
    plan = SearchPlan.for_rows(IVFPQ_FROM)
    assert plan.ivfpq and (plan.nlist, plan.nprobe, plan.m, plan.rescored) == (1024, 32, 48, 100)  # as measured
    assert SearchPlan.for_rows(6_800_000).nlist == 2048 and ivf_lists(100_000) == 256
    assert SearchPlan.for_rows(100_000, "ivfpq").ivfpq and SearchPlan.for_rows(100_000, IndexKind.IVFPQ).ivfpq
    assert SearchPlan.for_rows(EXACT_BELOW - 1, "ivfpq").exact  # below it nothing beats exact search
    assert SearchPlan.for_rows(IVFPQ_FROM, "hnsw").method == "hnsw"  # asked for: kept
    assert (plan.file_tag, plan.file_suffix) == ("ivf1024-pq48", ".faiss")
    assert plan.as_dict() == {"method": "ivfpq", "m": 48, "nlist": 1024, "nprobe": 32, "rescored": 100}
    assert "nprobe" not in SearchPlan.for_rows(100_000).as_dict()
    assert IndexKind.recorded(plan.as_dict()) is IndexKind.IVFPQ
    assert code_bytes(384) == 48 and code_bytes(96) == 48 and code_bytes(100) == 25 and code_bytes(16) == 16
