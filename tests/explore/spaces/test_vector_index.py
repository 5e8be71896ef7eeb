import numpy as np

from explore.spaces.vector_index import VectorIndex, exact_query


def _unit(n, d, seed=0):
    x = np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_hnsw_matches_exact_search_and_scores_are_cosines():
    data, queries = _unit(2000, 32), _unit(50, 32, seed=1)
    index = VectorIndex().fit(data)
    hits = 0
    for q in queries:
        rows, scores = index.query(q, 10)
        exact_rows, exact_scores = exact_query(data, q, 10)
        hits += len(set(rows) & set(exact_rows))
        np.testing.assert_allclose(scores, data[rows] @ q, atol=1e-5)
        assert list(scores) == sorted(scores, reverse=True)
    assert hits / (10 * len(queries)) >= 0.99


def test_k_beyond_the_size_returns_everything_once():
    data = _unit(5, 8)
    rows, _ = exact_query(data, data[0], 50)
    assert sorted(rows) == list(range(5))
    rows, _ = VectorIndex().fit(data).query(data[0], 5)
    assert sorted(rows) == list(range(5))


def test_saved_index_reloads_and_a_damaged_one_is_refused(tmp_path):
    data = _unit(300, 16)
    path = tmp_path / "i.hnsw"
    VectorIndex().fit(data).save(path)
    loaded = VectorIndex.load(path, dim=16, size=300)
    assert loaded is not None and loaded.query(data[3], 1)[0][0] == 3
    assert VectorIndex.load(path, dim=16, size=301) is None
    path.write_bytes(path.read_bytes()[:1000])  # truncated: must never reach hnswlib
    assert VectorIndex.load(path, dim=16, size=300) is None
    assert VectorIndex.load(tmp_path / "missing.hnsw", dim=16, size=300) is None


def test_the_search_plan_grows_with_the_corpus():
    from explore.spaces.vector_index import EXACT_BELOW, SearchPlan

    assert SearchPlan.for_rows(10_033).exact and SearchPlan.for_rows(EXACT_BELOW - 1).exact
    mid, large = SearchPlan.for_rows(100_000), SearchPlan.for_rows(999_999)  # from 1M: IVF-PQ (test_ivfpq_index)
    assert not mid.exact and not large.exact and large.method == "hnsw"
    assert large.m >= mid.m and large.ef_construction >= mid.ef_construction and large.ef_search >= mid.ef_search
    assert mid.file_tag != large.file_tag  # an index of one plan is never loaded as the other
    assert SearchPlan.for_rows(10).as_dict() == {"method": "exact"}


def test_scores_use_one_blas_thread_and_leave_the_pool_as_it_was():
    from threadpoolctl import threadpool_info

    import explore.spaces.vector_index as vector_index

    product = vector_index._blas_threads()
    # numpy's own BLAS does the product; a BLAS another package loads later (scipy bundles its own) is not its concern
    numpy_blas = {lib.filepath for lib in product.lib_controllers if lib.user_api == "blas"}
    assert numpy_blas, "numpy's BLAS was not found"

    def blas_threads():
        return [pool["num_threads"] for pool in threadpool_info()
                if pool["user_api"] == "blas" and pool["filepath"] in numpy_blas]

    data, query = _unit(3000, 64), _unit(1, 64, seed=2)[0]
    before = blas_threads()
    seen = []

    class Recording:  # the pool size at the moment of the product, asked from inside the limit
        dtype = np.float32

        def __matmul__(self, vector):
            seen.append(blas_threads())
            return data @ vector

    with product.limit(limits=2, user_api="blas"):  # a pool larger than one, whatever the machine has
        outer = blas_threads()
        vector_index.all_scores(Recording(), query)
        assert blas_threads() == outer
    assert seen and all(n == 1 for n in seen[0])
    assert blas_threads() == before
    np.testing.assert_allclose(vector_index.all_scores(data, query), data @ query, rtol=1e-6)
