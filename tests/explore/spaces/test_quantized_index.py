"""The quantized index (usearch over int8 rows): recall against exact search, its file, and what it refuses."""
import numpy as np
import pytest

from explore.errors import AspectNavError
from explore.spaces.quantized_index import QuantizedIndex, quantized_rows
from explore.spaces.vector_index import EXACT_BELOW, IndexKind, SearchPlan, exact_query


def _clustered(n, d, seed=0):
    """Unit rows around 40 centres, as an encoder's vectors are (uniform random rows have no neighbours to find)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, d))
    x = (centres[rng.integers(0, 40, n)] + 0.6 * rng.normal(size=(n, d))).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_recall_at_10_against_exact_search_and_scores_near_the_cosines():
    data = _clustered(3000, 64)
    index = QuantizedIndex().fit(data)
    hits = 0
    for row in range(0, 3000, 60):
        rows, scores = index.query(data[row], 10)
        hits += len(set(rows) & set(exact_query(data, data[row], 10)[0]))
        np.testing.assert_allclose(scores, data[rows] @ data[row], atol=0.02)  # int8 rows: cosines to ~1e-2
    assert hits / (10 * 50) >= 0.95


def test_a_memory_mapped_fp16_matrix_is_added_a_block_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr("explore.spaces.quantized_index.SCORE_BLOCK", 500)
    data = _clustered(1200, 32)
    np.save(tmp_path / "v.npy", data.astype(np.float16))
    index = QuantizedIndex().fit(np.load(tmp_path / "v.npy", mmap_mode="r"))
    assert index.size_ == 1200 and len(index.index_) == 1200
    assert index.query(data[1100], 1)[0][0] == 1100


def test_each_row_is_scaled_to_the_whole_int8_range():
    rows = np.array([[0.03, -0.04, 0.01], [0.5, 0.2, -0.1]], dtype=np.float32)
    assert np.abs(quantized_rows(rows)).max(axis=1).tolist() == [127, 127]
    assert quantized_rows(rows[0]).tolist() == [95, -127, 32]


def test_saved_index_reloads_memory_mapped_and_a_damaged_or_other_one_is_refused(tmp_path):
    data = _clustered(500, 16)
    path = tmp_path / "i.usearch"
    QuantizedIndex().fit(data).save(path)
    loaded = QuantizedIndex.load(path, dim=16, size=500)
    assert loaded is not None and loaded.query(data[7], 1)[0][0] == 7
    assert QuantizedIndex.load(path, dim=16, size=501) is None  # other embeddings
    assert QuantizedIndex.load(path, dim=32, size=500) is None  # another encoder's dimension
    path.write_bytes(path.read_bytes()[:1000])  # truncated: must never be mapped
    assert QuantizedIndex.load(path, dim=16, size=500) is None
    assert QuantizedIndex.load(tmp_path / "missing.usearch", dim=16, size=500) is None


def test_a_query_of_the_wrong_dimension_and_an_empty_build_say_what_is_wrong():
    index = QuantizedIndex().fit(_clustered(100, 16))
    with pytest.raises(AspectNavError, match=r"shape \(8,\).*16-dimensional"):
        index.query(np.ones(8), 3)
    with pytest.raises(AspectNavError, match="matrix of rows"):
        QuantizedIndex().fit(np.ones(16, dtype=np.float32))
    with pytest.raises(AspectNavError, match="matrix of rows"):
        QuantizedIndex().fit(np.zeros((0, 16), dtype=np.float32))


def test_the_index_kind_is_parsed_once_and_quantized_only_when_asked():
    assert not SearchPlan.for_rows(6_800_000).quantized  # auto: its recall at 1M was 0.746
    assert SearchPlan.for_rows(6_800_000, "quantized").quantized
    assert SearchPlan.for_rows(100_000, IndexKind.QUANTIZED).quantized
    assert SearchPlan.for_rows(EXACT_BELOW - 1, "quantized").exact  # below it nothing beats exact search
    assert SearchPlan.for_rows(100_000, "quantized").file_suffix == ".usearch"
    assert SearchPlan.for_rows(100_000, "quantized").file_tag != SearchPlan.for_rows(100_000).file_tag
    with pytest.raises(AspectNavError, match="Unknown index kind 'pq'; use one of auto, hnsw, quantized, ivfpq"):
        IndexKind.parse("pq")
    assert IndexKind.recorded({"method": "quantized", "m": 16}) is IndexKind.QUANTIZED
    assert IndexKind.recorded({"method": "exact"}) is IndexKind.AUTO and IndexKind.recorded(None) is IndexKind.AUTO
