"""A few rows of a space's stored vectors as float32, read from the file (pread) when the space is memory-mapped.

Why: a row read through the mapping maps the 64 KB of page cache around it into the process (the kernel's fault-around;
`madvise(MADV_RANDOM)` does not stop it), so the rows a seed change rescores (the IVF-PQ index's 100 candidates, its
links, its seed) leave about 6 MB of RSS a seed change, and a hundred seed changes most of a million-row file.
Measured on the 1M space (benchmarks/RESULTS.md, serving): 10,000 random rows, 0.62 GiB of RSS read through the map,
0.02 GiB read with pread, in the same 17-20 ms. A whole pass (exact search) still reads through the map, a block at
a time (explore/spaces/vector_index.py all_scores).
"""
from __future__ import annotations

import mmap
import os

import numpy as np

PREAD_ROWS = 4_096  # more rows than this are read through the map: one call per row would cost more than it saves


def stored_rows(vectors: np.ndarray, rows: "np.ndarray | list[int] | int") -> np.ndarray:
    """`vectors[rows]` as float32 (any order, repeats allowed; an int gives one row), not mapped into the process
    when `vectors` is a whole memory-mapped file (np.load's mmap_mode)."""
    if np.ndim(rows) == 0:
        return stored_rows(vectors, np.asarray([rows]))[0]
    rows = np.asarray(rows, dtype=np.int64)
    if not _whole_mapped_file(vectors) or len(rows) > PREAD_ROWS:
        return np.asarray(vectors[rows], dtype=np.float32)
    if len(rows) and (rows.min() < -len(vectors) or rows.max() >= len(vectors)):
        raise IndexError(f"rows out of range for {len(vectors)} stored vectors")
    rows = rows % len(vectors) if len(rows) else rows
    width = vectors.shape[1] * vectors.dtype.itemsize
    out = np.empty((len(rows), vectors.shape[1]), dtype=vectors.dtype)
    handle = os.open(vectors.filename, os.O_RDONLY)
    try:
        for i, row in enumerate(rows.tolist()):
            out[i] = np.frombuffer(os.pread(handle, width, vectors.offset + row * width), dtype=vectors.dtype)
    finally:
        os.close(handle)
    return out.astype(np.float32, copy=False)


def _whole_mapped_file(vectors: np.ndarray) -> bool:
    """A C-ordered 2-d memmap over its own mapping (not a view of one, whose `offset` is its parent's)."""
    return (isinstance(vectors, np.memmap) and isinstance(vectors.base, mmap.mmap) and vectors.filename is not None
            and vectors.ndim == 2 and vectors.flags.c_contiguous)
