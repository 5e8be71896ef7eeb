"""2-D maps of a space: a fixed sample projected once with t-SNE and cached on disk, plus the
seed and its neighbours placed into that map.

Projecting 2,000 articles takes openTSNE ~10–20 s on two cores, far too slow to redo per seed.
So the *base sample* depends only on the corpus size, the sample size and a random seed; its
projection is cached under `<data home>/maps/` keyed by space + sample + parameters. Articles
the map must show that are not in the base sample (the seed, its neighbours) are placed at the
similarity-weighted mean of their nearest sampled articles in the same space: the initial
position openTSNE's own `transform` starts from, without its optimisation (instant, stable).
Points take the colour of their label's rank in the whole corpus (`label_ranks`), never of their
place in the sample, so a label keeps its colour across seeds, samples and spaces.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from explore.atomic_files import file_written_atomically
from explore.corpus.model import Corpus
from explore.settings import data_home

log = logging.getLogger(__name__)

DEFAULT_SAMPLE = 2000
TOP_LABELS = 10  # coloured labels: more colours stop being told apart
OTHER = "other"
NO_LABEL = "(no label)"
PLACE_NEIGHBOURS = 5


@dataclass(frozen=True)
class ProjectionParams:
    """t-SNE settings; every field is part of the cache key."""

    perplexity: float = 30.0
    n_iter: int = 500
    early_iter: int = 250  # early-exaggeration iterations (openTSNE's default)
    random_state: int = 0
    method: str = "auto"  # "auto" (openTSNE, else sklearn) | "opentsne" | "sklearn"


@dataclass(frozen=True)
class Sample:
    """Rows of the corpus in the map. `base` is projected; `extra` is placed into it."""

    base: np.ndarray
    extra: np.ndarray
    requested: int
    clipped: bool  # the requested size was larger than the corpus

    @property
    def rows(self) -> np.ndarray:
        return np.concatenate([self.base, self.extra])

    @property
    def key(self) -> str:
        return hashlib.sha256(np.ascontiguousarray(self.base, dtype=np.int64).tobytes()).hexdigest()[:16]


def select_sample(n_rows: int, size: int, required: Sequence[int] = (), random_state: int = 0) -> Sample:
    """A random base sample of `size` rows (all rows when `size` ≥ `n_rows`), plus `required`.

    The base sample does not depend on `required`, so changing the seed reuses the cached map.
    """
    if n_rows <= 0:
        raise ValueError("The corpus is empty: nothing to map.")
    size = max(1, int(size))
    clipped = size > n_rows
    if size >= n_rows:
        base = np.arange(n_rows)
    else:
        base = np.sort(np.random.default_rng(random_state).choice(n_rows, size=size, replace=False))
    in_base = set(base.tolist())
    extra = [r for r in dict.fromkeys(int(r) for r in required) if r not in in_base and 0 <= r < n_rows]
    return Sample(base, np.asarray(extra, dtype=np.int64), requested=size, clipped=clipped)


def tsne(vectors: np.ndarray, params: ProjectionParams = ProjectionParams()) -> tuple[np.ndarray, str]:
    """2-D t-SNE of `vectors` (cosine); returns the coordinates and the method used."""
    n = len(vectors)
    if n < 4:  # t-SNE needs a perplexity below the number of points; a line is honest enough
        return np.column_stack([np.arange(n, dtype=float), np.zeros(n)]), "trivial"
    perplexity = min(params.perplexity, (n - 1) / 3)
    vectors = np.asarray(vectors, dtype=np.float32)
    if params.method in ("auto", "opentsne"):
        try:
            from openTSNE import TSNE

            # Barnes-Hut is the faster gradient below a few thousand points; FFT above.
            embedding = TSNE(perplexity=perplexity, n_iter=params.n_iter, early_exaggeration_iter=params.early_iter,
                             negative_gradient_method="bh" if n <= 5000 else "fft",
                             metric="cosine", initialization="pca",
                             random_state=params.random_state, n_jobs=min(2, os.cpu_count() or 1),
                             verbose=False).fit(vectors)
            return np.asarray(embedding, dtype=np.float32), "openTSNE"
        except ImportError:
            if params.method == "opentsne":
                raise
            log.info("openTSNE is not installed; using scikit-learn's t-SNE")
    from sklearn.manifold import TSNE as SkTSNE

    coords = SkTSNE(perplexity=perplexity, max_iter=max(250, params.n_iter), metric="cosine", init="pca",
                    random_state=params.random_state).fit_transform(vectors)
    return np.asarray(coords, dtype=np.float32), "scikit-learn"


def place(base_vectors: np.ndarray, base_coords: np.ndarray, new_vectors: np.ndarray,
          neighbours: int = PLACE_NEIGHBOURS) -> np.ndarray:
    """Coordinates for `new_vectors`: the similarity-weighted mean of their nearest base points."""
    if len(new_vectors) == 0:
        return np.zeros((0, 2), dtype=np.float32)
    sims = _unit(new_vectors) @ _unit(base_vectors).T
    k = min(neighbours, sims.shape[1])
    nearest = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    weights = np.clip(np.take_along_axis(sims, nearest, axis=1), 1e-3, None)
    weights /= weights.sum(axis=1, keepdims=True)
    return np.einsum("nk,nkd->nd", weights, base_coords[nearest]).astype(np.float32)


def _unit(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def maps_dir() -> Path:
    return data_home() / "maps"


def cache_path(space_key: str, sample: Sample, params: ProjectionParams) -> Path:
    key = json.dumps({"space": space_key, "sample": sample.key, "n": len(sample.base), "params": asdict(params)},
                     sort_keys=True)
    return maps_dir() / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.npz"


def project_sample(space_key: str, vectors: np.ndarray, sample: Sample,
                   params: ProjectionParams = ProjectionParams()) -> tuple[np.ndarray, str, bool]:
    """Coordinates of `sample.rows` (base then extra) in the space whose row vectors are `vectors`.

    `space_key` must change whenever the space's vectors change (e.g. name + content fingerprint).
    Returns (coordinates, method, whether the base projection came from the disk cache).
    """
    path = cache_path(space_key, sample, params)
    stored = _read_cache(path, len(sample.base))
    cached = stored is not None
    if stored is None:
        stored = tsne(vectors[sample.base], params)
        _save_atomically(path, coords=stored[0], method=np.array(stored[1]))
    base_coords, method = stored
    extra_coords = place(vectors[sample.base], base_coords, vectors[sample.extra])
    return np.concatenate([base_coords, extra_coords]), method, cached


def _read_cache(path: Path, rows: int) -> tuple[np.ndarray, str] | None:
    """The cached (coordinates, method), or None when there is none or it is stale: a damaged file
    (truncated, flipped, empty, garbage) or one of another shape must never stop the Maps page; the
    caller recomputes the map and its atomic write replaces the file."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as stored:
            coords, method = stored["coords"], str(stored["method"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        problem = f"{error.__class__.__name__}: {error}"
    else:
        if coords.shape == (rows, 2) and np.issubdtype(coords.dtype, np.floating) and np.isfinite(coords).all():
            return coords, method
        problem = f"coordinates {coords.shape} {coords.dtype} for {rows} sampled rows"
    log.warning("Map cache %s is stale (%s): recomputing it.", path, problem)
    return None


def _save_atomically(path: Path, **arrays) -> None:
    with file_written_atomically(path, suffix=".npz") as staging, open(staging, "wb") as stream:
        np.savez(stream, **arrays)


def label_ranks(corpus: Corpus, aspect: str | None, top: int = TOP_LABELS) -> dict[str, int]:
    """The `top` most frequent labels of `aspect` in the whole corpus, most frequent first → rank 0.

    A label's colour is its rank here, not its place in a sample: it keeps its colour whatever the
    seed, the sample or the space, so two maps side by side and two seeds read alike."""
    if not aspect:
        return {}
    return {label: rank for rank, (label, _) in enumerate(corpus.label_counts(aspect).most_common(top))}


def colour_labels(corpus: Corpus, rows: Sequence[int], aspect: str | None, ranks: dict[str, int]) -> list[str]:
    """Per row: its label with the lowest rank in `ranks` (label_ranks), "other" when none of its
    labels is ranked, NO_LABEL when it has no label of `aspect`."""
    if not aspect:
        return [NO_LABEL] * len(rows)
    colours = []
    for row in rows:
        labels = corpus.articles[row].labels(aspect)
        ranked = [label for label in labels if label in ranks]
        colours.append(min(ranked, key=ranks.__getitem__) if ranked else OTHER if labels else NO_LABEL)
    return colours


@dataclass
class MapPoints:
    """Everything a map view draws, in sample order (base rows, then placed rows)."""

    ids: list[str]
    titles: list[str]
    colour: list[str]
    role: list[str]  # "seed" | "neighbour" | "sample"
    coords: np.ndarray
    placed: np.ndarray  # True for rows placed into the map rather than projected
    method: str = ""
    cached: bool = False
    legend: list[str] = field(default_factory=list)  # the ranked labels shown, by rank, then "other"
    # Hover labels are HTML, so the app view writes them (app_views.markdown.map_hover, which escapes
    # corpus text); the engine hands over plain data only.
    hover: list[str] = field(default_factory=list)
    ranks: dict[str, int] = field(default_factory=dict)  # label → its colour's rank (label_ranks)
    aspect: str | None = None  # the aspect the colours are labels of

    @property
    def unlabelled_share(self) -> float:
        """The share of points without a label of the aspect (drawn faint, named in a caption)."""
        return self.colour.count(NO_LABEL) / len(self.colour) if self.colour else 0.0


def map_points(corpus: Corpus, sample: Sample, coords: np.ndarray, colour_aspect: str | None,
               seed_id: str | None = None, neighbour_ids: Sequence[str] = (), method: str = "",
               cached: bool = False) -> MapPoints:
    rows = sample.rows.tolist()
    ranks = label_ranks(corpus, colour_aspect)
    colours = colour_labels(corpus, rows, colour_aspect, ranks)
    neighbours = set(neighbour_ids)
    ids, titles, role = [], [], []
    for row in rows:
        article = corpus.articles[row]
        ids.append(article.id)
        titles.append(article.title)
        role.append("seed" if article.id == seed_id else "neighbour" if article.id in neighbours else "sample")
    present = set(colours)
    legend = sorted((label for label in present if label in ranks), key=ranks.__getitem__)
    legend += [OTHER] if OTHER in present else []
    placed = np.arange(len(rows)) >= len(sample.base)
    return MapPoints(ids, titles, colours, role, coords, placed, method, cached, legend, ranks=ranks,
                     aspect=colour_aspect)


def top_overlap(first: Sequence[str], second: Sequence[str]) -> float:
    """Jaccard overlap of two neighbour lists: shared / in either (1 = the same articles, 0 = none shared)."""
    a, b = set(first), set(second)
    return len(a & b) / len(a | b) if a | b else 1.0
