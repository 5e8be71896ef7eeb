"""The layout of every article of a corpus too large to project whole (above explore.maps.FULL_MAP_UP_TO): the
projected sample keeps its coordinates and every other article is placed by its nearest sampled articles
(explore.maps.place, the similarity-weighted mean openTSNE's own `transform` starts from), a chunk at a time, and
cached beside the sample's map. The Maps page draws it as a density image (explore/map_density.py).

Why place by a sub-sample of PLACE_BY rows: each chunk is one matrix product against the base, so the cost is rows ×
base; 5,000 base rows keep 1,000,000 placements to minutes on two cores (benchmarks/million_map.py measures it)
where the whole 20,000-row base would take four times as long, for positions that move by a fraction of a region.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from explore.maps import (FAINT, OTHER, MapParams, ProjectionParams, Sample, _read_cache, _save_atomically,
                          cache_path, place)

PLACE_BY = 5_000  # base rows every other article is placed by
CHUNK = 4_096  # rows placed per matrix product (4,096 × 5,000 similarities: 80 MB of float32)

Progress = Callable[[float, str], None]


def place_by_rows(n_base: int, limit: int = PLACE_BY) -> np.ndarray:
    """Which base rows (positions in the base sample) the rest is placed by: evenly spread, all when few."""
    if n_base <= limit:
        return np.arange(n_base)
    return np.linspace(0, n_base - 1, limit).round().astype(np.int64)


def whole_layout_path(space_key: str, sample: Sample, params: MapParams):
    base = cache_path(space_key, sample, params)
    return base.with_name(f"{base.stem}-whole.npz")


def stored_whole_layout(space_key: str, sample: Sample, params: MapParams, rows: int) -> np.ndarray | None:
    """The cached layout of all `rows` (whole_layout's), or None when there is none or it is damaged."""
    stored = _read_cache(whole_layout_path(space_key, sample, params), rows)
    return stored[0] if stored is not None else None


def whole_layout(space_key: str, vectors: np.ndarray, sample: Sample, base_coords: np.ndarray,
                 params: MapParams = ProjectionParams(), progress: Progress | None = None,
                 cache: bool = True) -> np.ndarray:
    """Coordinates of every row of `vectors` (corpus order): `sample.base` rows at `base_coords`, the others
    placed; read from the cache when there (keyed as the sample's map, so a rebuilt space is placed again)."""
    n = len(vectors)
    if len(base_coords) != len(sample.base):
        raise ValueError(f"{len(base_coords):,} coordinates for a base sample of {len(sample.base):,} rows.")
    if cache:
        stored = stored_whole_layout(space_key, sample, params, n)
        if stored is not None:
            return stored
    report = progress or (lambda fraction, stage: None)
    layout = np.empty((n, 2), dtype=np.float32)
    layout[sample.base] = base_coords
    rest = np.setdiff1d(np.arange(n), sample.base, assume_unique=True)
    by = place_by_rows(len(sample.base))
    by_vectors, by_coords = np.asarray(vectors[sample.base[by]], dtype=np.float32), base_coords[by]
    for begin in range(0, len(rest), CHUNK):
        rows = rest[begin:begin + CHUNK]
        layout[rows] = place(by_vectors, by_coords, vectors[rows])
        report((begin + len(rows)) / max(len(rest), 1), "placing every article")
    if cache:
        _save_atomically(whole_layout_path(space_key, sample, params), coords=layout, method=np.array("placed"))
    return layout


def label_codes(labels: Sequence[str], legend: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """Per point, the index of its label among the faint labels present, then `legend`, then OTHER (any label
    not in the legend counts as OTHER): (codes, that order of labels), for density_image's colours."""
    order = [label for label in FAINT if label in set(labels)] + [label for label in legend]
    if OTHER not in order:
        order.append(OTHER)
    index = {label: i for i, label in enumerate(order)}
    other = index[OTHER]
    return np.fromiter((index.get(label, other) for label in labels), dtype=np.int16, count=len(labels)), order
