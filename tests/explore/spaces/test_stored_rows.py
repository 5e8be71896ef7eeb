"""Rows of a memory-mapped space read with pread: the same values as through the map, without mapping its pages in."""
from pathlib import Path

import numpy as np
import pytest

from explore.spaces.stored_rows import PREAD_ROWS, stored_rows


@pytest.fixture(scope="module")
def mapped(tmp_path_factory):
    """20,000 x 384 fp16 rows stored and opened as a large space's are (np.load's mmap_mode)."""
    path = tmp_path_factory.mktemp("rows") / "embeddings.npy"
    rng = np.random.default_rng(0)
    np.save(path, rng.standard_normal((20_000, 384)).astype(np.float16))
    return np.load(path, mmap_mode="r")


def test_rows_in_any_order_with_repeats_and_from_the_end_equal_the_mapped_ones(mapped):
    rows = np.array([19_999, 3, 3, 0, 12_345, -1, -20_000])
    got = stored_rows(mapped, rows)
    assert got.dtype == np.float32 and got.shape == (7, 384)
    np.testing.assert_array_equal(got, np.asarray(mapped[rows], dtype=np.float32))
    np.testing.assert_array_equal(stored_rows(mapped, 42), np.asarray(mapped[42], dtype=np.float32))
    assert stored_rows(mapped, np.array([], dtype=np.int64)).shape == (0, 384)


def test_a_view_an_array_in_memory_and_many_rows_read_as_numpy_indexes_them(mapped):
    view = mapped[100:]  # a memmap view keeps its parent's offset: it must not be read from the file
    np.testing.assert_array_equal(stored_rows(view, [0, 5]), np.asarray(mapped[[100, 105]], dtype=np.float32))
    in_memory = np.asarray(mapped[:50], dtype=np.float32)
    np.testing.assert_array_equal(stored_rows(in_memory, [49, 1]), in_memory[[49, 1]])
    many = np.arange(PREAD_ROWS + 1)
    np.testing.assert_array_equal(stored_rows(mapped, many), np.asarray(mapped[many], dtype=np.float32))


def test_a_row_out_of_range_is_refused(mapped):
    with pytest.raises(IndexError, match="out of range for 20000"):
        stored_rows(mapped, [20_000])


def _mapped_kib(path: Path) -> int:
    """Resident KiB of this process's mappings of `path` (/proc/self/smaps)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and ":" not in fields[0]:
            inside = fields[-1] == str(path)
        elif inside and fields[0] == "Rss:":
            total += int(fields[1])
    return total


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="reads Linux's /proc/self/smaps")
def test_reading_rows_maps_none_of_the_file_into_the_process(tmp_path):
    path = tmp_path / "embeddings.npy"
    np.save(path, np.ones((20_000, 384), dtype=np.float16))
    vectors = np.load(path, mmap_mode="r")
    rows = np.random.default_rng(1).choice(20_000, 300, replace=False)
    stored_rows(vectors, rows)
    assert _mapped_kib(path) == 0
    np.asarray(vectors[rows], dtype=np.float32)  # the same rows through the map: their pages are now resident
    assert _mapped_kib(path) >= 300 * 384 * 2 // 4096
