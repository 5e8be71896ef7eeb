"""The fetch cache stores validated responses only, atomically, and survives damage."""
from __future__ import annotations

import pytest

from explore.corpus.wikidata.fetch_cache import FetchCache


def test_a_cached_request_is_not_loaded_again(tmp_path):
    cache = FetchCache(tmp_path)
    loads = []
    for _ in range(2):
        assert cache.fetch({"q": 1}, lambda: loads.append(1) or {"rows": [1]}) == {"rows": [1]}
    assert len(loads) == 1 and (cache.counts.fetched, cache.counts.cached) == (1, 1)


def test_a_failed_load_stores_nothing(tmp_path):
    cache = FetchCache(tmp_path)

    def broken():
        raise RuntimeError("server gone")

    with pytest.raises(RuntimeError):
        cache.fetch({"q": 2}, broken)
    assert not list(tmp_path.rglob("*.json"))
    assert cache.fetch({"q": 2}, lambda: "late") == "late"


def test_a_damaged_file_is_fetched_again(tmp_path):
    cache = FetchCache(tmp_path)
    cache.fetch({"q": 3}, lambda: "first")
    cache.path_for({"q": 3}).write_text('{"request": {"q"')
    assert cache.fetch({"q": 3}, lambda: "again") == "again"
    assert FetchCache(tmp_path).fetch({"q": 3}, lambda: "never") == "again"
