"""Issue #13, item 3: a damaged or mismatched map cache is stale: recomputed, replaced, logged once."""
from __future__ import annotations

import io
import logging

import numpy as np
import pytest

from explore import maps
from explore.maps import ProjectionParams, cache_path, project_sample, select_sample

PARAMS = ProjectionParams()


@pytest.fixture
def projections(monkeypatch):
    """t-SNE stands in as a counted, instant projection: the cache is what is under test."""
    calls = []

    def first_two_columns(vectors, params):
        calls.append(len(vectors))
        return np.asarray(vectors[:, :2], dtype=np.float32), "stub"

    monkeypatch.setattr(maps, "tsne", first_two_columns)
    return calls


def _truncated(good: bytes) -> bytes:
    return good[: len(good) // 2]


def _flipped(good: bytes) -> bytes:
    data = bytearray(good)
    data[len(data) // 2] ^= 0xFF  # inside the coordinates: the zip's CRC no longer matches
    return bytes(data)


def _empty(good: bytes) -> bytes:
    return b""


def _garbage(good: bytes) -> bytes:
    return b"PK\x03\x04" + np.random.default_rng(0).bytes(len(good))  # looks like a zip, is not one


def _wrong_rows(good: bytes) -> bytes:
    return _npz(coords=np.zeros((29, 2), dtype=np.float32), method=np.array("openTSNE"))


def _wrong_width(good: bytes) -> bytes:
    return _npz(coords=np.zeros((30, 3), dtype=np.float32), method=np.array("openTSNE"))


def _npz(**arrays) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


@pytest.mark.parametrize("damage", [_truncated, _flipped, _empty, _garbage, _wrong_rows, _wrong_width],
                         ids=lambda damage: damage.__name__.strip("_"))
def test_damaged_map_cache_is_recomputed_replaced_and_logged_once(isolated_home, projections, caplog, damage):
    vectors = np.random.default_rng(1).normal(size=(30, 4)).astype(np.float32)
    sample = select_sample(30, 30)
    first, _, _ = project_sample("s", vectors, sample, PARAMS)
    path = cache_path("s", sample, PARAMS)
    path.write_bytes(damage(path.read_bytes()))

    with caplog.at_level(logging.WARNING, logger="explore.maps"):
        coords, _, cached = project_sample("s", vectors, sample, PARAMS)
    assert not cached and projections == [30, 30] and np.array_equal(coords, first)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and str(path) in lines[0] and "recomputing" in lines[0], lines

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="explore.maps"):
        _, _, cached = project_sample("s", vectors, sample, PARAMS)
    assert cached and projections == [30, 30] and not caplog.records  # the stale file was replaced
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no staging file left behind


@pytest.mark.parametrize("inside", [False, True], ids=["empty folder", "folder with a file"])
def test_a_folder_where_the_cache_file_should_be_is_a_damaged_cache(isolated_home, projections, caplog, inside):
    """Issue #38, item 10: not a generic OS error on every load; said once, recomputed, the file put in place."""
    vectors = np.random.default_rng(1).normal(size=(30, 4)).astype(np.float32)
    sample = select_sample(30, 30)
    path = cache_path("s", sample, PARAMS)
    path.mkdir(parents=True)
    if inside:
        (path / "stray.txt").write_text("x")

    with caplog.at_level(logging.WARNING, logger="explore.maps"):
        coords, _, cached = project_sample("s", vectors, sample, PARAMS)
    assert not cached and coords.shape == (30, 2) and path.is_file()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and str(path) in lines[0] and "not a file" in lines[0], lines
    _, _, cached = project_sample("s", vectors, sample, PARAMS)
    assert cached and projections == [30]
