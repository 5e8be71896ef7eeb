"""2-D maps of a space: the whole corpus up to FULL_MAP_UP_TO articles, a fixed random sample above that,
projected once with t-SNE (or UMAP, explore/map_umap.py: the reader's `Projector` choice) and cached on disk, plus the seed and its neighbours placed into that map.

The *base sample* depends only on the corpus size, the sample size and a random seed; its projection
is read, in this order, from the cache under `<data home>/maps/` (keyed by space + sample +
parameters), from the shipped projections (assets/maps/, explore/shipped_maps.py: the default page's
maps of the shipped spaces, verified before use), or computed (`tsne`, seconds) and cached. Several
spaces missing a map are projected side by side (`project_samples`), each with its share of the cores.
Articles the map must show that are not in the base sample (the seed, its neighbours) are placed at the
similarity-weighted mean of their nearest sampled articles in the same space (explore/map_placement.py): the
initial position openTSNE's own `transform` starts from, without its optimisation (instant, stable).
Points take the colour of their label's rank in the whole corpus (`label_ranks`), never of their
place in the sample, so a label keeps its colour across seeds, samples and spaces.

Why these t-SNE settings (issue #14, 2,000 sampled articles of vital, trustworthiness@10 with the cosine
metric): 125 early-exaggeration + 250 normal iterations over the exact kNN score within 0.01 of the
former 250 + 500 over Annoy on all six shipped spaces (generic 0.950 vs 0.949-0.955 as Annoy's threads
vary, country 0.914 vs 0.911-0.914, occupation 0.939 vs 0.934, topic 0.969 vs 0.968, union 0.919 vs 0.911,
intersection 0.945 vs 0.943); 100 + 150 is faster but drops country to 0.904. At 10,000 articles (FFT,
Annoy) 125 + 250 scores 0.985 like 250 + 500, in 17 s instead of 41 s on two busy cores; Barnes-Hut there
is no faster (17.5 s).
The exact kNN is one matrix product (0.3 s at 2,000 points, against 0.7 s for openTSNE's own exact search).
Threads: a BH run on 2,000 points gains little from a second thread and loses much when the other core is
busy (two maps one after the other with 2 threads each: 11.7 s; side by side with one each: 7.8 s).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import zipfile
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import Sequence, Union

import numpy as np

from explore.atomic_files import file_written_atomically, remove_non_file
from explore.corpus.model import Corpus
from explore.errors import AspectNavError
from explore.map_placement import Placement, neighbour_weights
from explore.map_umap import UmapParams, umap_layout
from explore.settings import data_home
from explore.spaces.vector_index import exact_neighbours_among

log = logging.getLogger(__name__)

FULL_MAP_UP_TO = 20_000  # articles: a corpus up to this size is mapped whole (WebGL draws it; t-SNE takes ~20 s)
DEFAULT_SAMPLE = FULL_MAP_UP_TO  # the Maps page's default: the whole corpus up to FULL_MAP_UP_TO, a sample above
TOP_LABELS = 10  # coloured labels: more colours stop being told apart
OTHER = "other"
NO_LABEL = "(no label)"
FILTERED_OUT = "(not the chosen label)"  # points a label filter leaves faint
FAINT = (NO_LABEL, FILTERED_OUT)  # drawn faint and out of the legend
PLACE_NEIGHBOURS = 5


EXACT_NEIGHBOURS_UP_TO = 5000  # points: an exact cosine kNN (one matrix product) beats building Annoy's trees
BARNES_HUT_UP_TO = 5000  # points: Barnes-Hut is the faster gradient below a few thousand points; FFT above


@dataclass(frozen=True)
class ProjectionParams:
    """t-SNE settings; every field is part of the cache key (the number of threads is not: it does not
    change the map). The defaults are half the iterations of openTSNE's, at the same trustworthiness
    (the figures are in the module's docstring)."""

    perplexity: float = 30.0
    n_iter: int = 250  # normal iterations, after the early-exaggeration ones
    early_iter: int = 125  # early-exaggeration iterations
    random_state: int = 0
    method: str = "auto"  # "auto" (openTSNE, else sklearn) | "opentsne" | "sklearn"
    neighbours: str = "auto"  # "auto": exact up to EXACT_NEIGHBOURS_UP_TO points, else approximate | "exact" | "approx"
    gradient: str = "auto"  # "auto": Barnes-Hut up to BARNES_HUT_UP_TO points, else FFT | "bh" | "fft"

    @property
    def total_iter(self) -> int:
        return self.early_iter + self.n_iter

    def describe(self) -> str:
        """The settings in words, for the map's caption."""
        return (f"t-SNE (perplexity={self.perplexity:g}, {self.early_iter} early-exaggeration + {self.n_iter} "
                f"iterations, metric=cosine, random_state={self.random_state})")


MapParams = Union[ProjectionParams, UmapParams]  # the settings of either projection


class Projector(str, Enum):
    """How a map is projected to 2-D, parsed once from the page's control or the URL (`proj=umap`)."""

    TSNE = "tsne"
    UMAP = "umap"

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        return {"tsne": "t-SNE", "umap": "UMAP"}[self.value]

    @classmethod
    def parse(cls, text: str) -> "Projector":
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"unknown projection {text!r}: say one of {', '.join(p.value for p in cls)}") from None

    def default_params(self) -> MapParams:
        """The page's settings for this projection (t-SNE: the shipped maps' ones)."""
        return ProjectionParams() if self is Projector.TSNE else UmapParams()

    @staticmethod
    def of(params: MapParams) -> "Projector":
        return Projector.UMAP if isinstance(params, UmapParams) else Projector.TSNE


# The settings maps were drawn with before issue #14: openTSNE's defaults (250 + 500, Annoy from 1,000 points).
LEGACY_PARAMS = ProjectionParams(n_iter=500, early_iter=250, neighbours="approx")

Progress = Callable[[float, str], None]  # (fraction done, what it is doing); called from the computing thread


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, e.g. a container's share), not the machine's."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Sample:
    """Rows of the corpus in the map. `base` is projected; `extra` is placed into it."""

    base: np.ndarray
    extra: np.ndarray
    requested: int
    clipped: bool  # the requested size was larger than the corpus
    corpus_size: int = 0  # articles in the corpus: the map is whole when `base` holds them all

    @property
    def rows(self) -> np.ndarray:
        return np.concatenate([self.base, self.extra])

    @property
    def whole(self) -> bool:
        return len(self.base) >= self.corpus_size

    def describe(self) -> str:
        """How many articles the map shows and which, in one sentence: the one place the page counts them."""
        if self.whole:
            return f"All {self.corpus_size:,} articles of the corpus"
        placed = f", plus {len(self.extra):,} placed beside their nearest sampled articles (the seed and " \
                 f"its neighbours)" if len(self.extra) else ""
        return f"A random sample of {len(self.base):,} of the corpus's {self.corpus_size:,} articles{placed}"

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
    return Sample(base, np.asarray(extra, dtype=np.int64), requested=size, clipped=clipped, corpus_size=n_rows)


def tsne(vectors: np.ndarray, params: ProjectionParams = ProjectionParams(), n_jobs: int | None = None,
         progress: Progress | None = None) -> tuple[np.ndarray, str]:
    """2-D t-SNE of `vectors` (cosine); returns the coordinates and the method used. `n_jobs` defaults to
    every usable core; `progress` hears how far it has come (openTSNE reports every few iterations)."""
    n = len(vectors)
    report = progress or (lambda fraction, stage: None)
    if n < 4:  # t-SNE needs a perplexity below the number of points; a line is honest enough
        return np.column_stack([np.arange(n, dtype=float), np.zeros(n)]).astype(np.float32), "trivial"
    perplexity = min(params.perplexity, (n - 1) / 3)
    vectors = np.asarray(vectors, dtype=np.float32)
    n_jobs = n_jobs or usable_cores()
    if params.method in ("auto", "opentsne"):
        try:
            from openTSNE import TSNE
        except ImportError:
            if params.method == "opentsne":
                raise
            log.info("openTSNE is not installed; using scikit-learn's t-SNE")
        else:
            report(0.0, "finding neighbours")
            affinities = _affinities(vectors, perplexity, params, n_jobs)
            gradient = params.gradient if params.gradient != "auto" else "bh" if n <= BARNES_HUT_UP_TO else "fft"
            every = 5
            embedding = TSNE(n_iter=params.n_iter, early_exaggeration_iter=params.early_iter,
                             negative_gradient_method=gradient, initialization="pca",
                             random_state=params.random_state, n_jobs=n_jobs, verbose=False,
                             callbacks=_IterationsDone((params.early_iter, params.n_iter), report),
                             callbacks_every_iters=every).fit(vectors, affinities=affinities)
            report(1.0, "done")
            return np.asarray(embedding, dtype=np.float32), "openTSNE"
    from sklearn.manifold import TSNE as SkTSNE

    # scikit-learn's max_iter counts its 250 early-exaggeration iterations (fixed, not a parameter) and must be
    # at least 250: the same total as openTSNE's early + normal iterations.
    report(0.0, "scikit-learn t-SNE")
    coords = SkTSNE(perplexity=perplexity, max_iter=max(250, params.total_iter), metric="cosine", init="pca",
                    random_state=params.random_state, n_jobs=n_jobs).fit_transform(vectors)
    report(1.0, "done")
    return np.asarray(coords, dtype=np.float32), "scikit-learn"


def _affinities(vectors: np.ndarray, perplexity: float, params: ProjectionParams, n_jobs: int):
    """openTSNE's perplexity-based affinities over the exact cosine kNN (small samples) or Annoy's."""
    from openTSNE import affinity
    from openTSNE.nearest_neighbors import PrecomputedNeighbors

    exact = params.neighbours == "exact" or (params.neighbours == "auto" and len(vectors) <= EXACT_NEIGHBOURS_UP_TO)
    if not exact:
        return affinity.PerplexityBasedNN(vectors, perplexity=perplexity, method="annoy", metric="cosine",
                                          n_jobs=n_jobs, random_state=params.random_state)
    neighbours, distances = exact_cosine_neighbours(vectors, min(len(vectors) - 1, int(3 * perplexity)))
    return affinity.PerplexityBasedNN(knn_index=PrecomputedNeighbors(neighbours, distances), perplexity=perplexity,
                                      n_jobs=n_jobs)


def exact_cosine_neighbours(vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's k nearest other rows by cosine distance, nearest first: (indices, distances). One matrix
    product: a tenth of a second at 2,000 points, where openTSNE's exact search takes most of a second."""
    nearest, sims = exact_neighbours_among(_unit(vectors), k)
    return nearest, np.clip(1.0 - sims, 0.0, 2.0).astype(np.float64)


class _IterationsDone:
    """An openTSNE callback turning (phase, iteration) into the fraction of all iterations done."""

    def __init__(self, phases: tuple[int, ...], report: Progress):
        self.phases, self.report = phases, report
        self.phase = -1

    def optimization_about_to_start(self) -> None:  # openTSNE calls this before each phase
        self.phase += 1

    def __call__(self, iteration: int, error: float, embedding) -> bool:
        done = sum(self.phases[:max(self.phase, 0)]) + iteration
        stage = "early exaggeration" if self.phase <= 0 else "refining"
        self.report(min(done / max(sum(self.phases), 1), 1.0), stage)
        return False  # never stop early


def place(base_vectors: np.ndarray, base_coords: np.ndarray, new_vectors: np.ndarray,
          neighbours: int = PLACE_NEIGHBOURS) -> np.ndarray:
    """Coordinates for `new_vectors`: the similarity-weighted mean of their nearest base points."""
    if len(new_vectors) == 0:
        return np.zeros((0, 2), dtype=np.float32)
    sims = _unit(new_vectors) @ _unit(base_vectors).T
    k = min(neighbours, sims.shape[1])
    nearest = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    weights = neighbour_weights(np.take_along_axis(sims, nearest, axis=1))
    return np.einsum("nk,nkd->nd", weights, base_coords[nearest]).astype(np.float32)


def _unit(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def maps_dir() -> Path:
    return data_home() / "maps"


def cache_path(space_key: str, sample: Sample, params: MapParams) -> Path:
    """The cached map's file: keyed by space, sample, projection and every one of its settings."""
    key = json.dumps({"space": space_key, "sample": sample.key, "n": len(sample.base),
                      "projection": Projector.of(params).value, "params": asdict(params)}, sort_keys=True)
    return maps_dir() / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.npz"


@dataclass(frozen=True)
class Projection:
    """Coordinates of `sample.rows` (base then extra), the method that projected the base, and where the base
    projection came from: "cache" (the data home), "shipped" (assets/maps, verified) or "computed" (now)."""

    coords: np.ndarray
    method: str
    source: str

    @property
    def cached(self) -> bool:
        return self.source != "computed"


def stored_projection(space_key: str, sample: Sample, params: MapParams = ProjectionParams()
                      ) -> tuple[np.ndarray, str, str] | None:
    """The base sample's (coordinates, method, source) from the disk cache or the shipped projections, or None."""
    from explore.shipped_maps import shipped_projection

    stored = _read_cache(cache_path(space_key, sample, params), len(sample.base))
    if stored is not None:
        return (*stored, "cache")
    shipped = shipped_projection(space_key, sample, params)
    return (*shipped, "shipped") if shipped is not None else None


def projection(space_key: str, vectors: np.ndarray, sample: Sample, params: MapParams = ProjectionParams(),
               n_jobs: int | None = None, progress: Progress | None = None) -> Projection:
    """The map of `sample` in the space whose row vectors are `vectors`: stored (cache, then shipped) or
    computed now and cached. `space_key` must change whenever the space's vectors change (`projection_key`).
    Safe to call from a worker thread (no Streamlit; `progress` is called from that thread)."""
    stored = stored_projection(space_key, sample, params) or _computed(space_key, vectors, sample, params, n_jobs,
                                                                       progress)
    return _with_extra_rows(vectors, sample, *stored)


def _computed(space_key: str, vectors: np.ndarray, sample: Sample, params: MapParams, n_jobs: int | None,
              progress: Progress | None) -> tuple[np.ndarray, str, str]:
    if isinstance(params, UmapParams):  # one thread whatever `n_jobs`: reproducible
        base_coords, method = umap_layout(vectors[sample.base], params, progress)
    else:
        extra = {key: value for key, value in (("n_jobs", n_jobs), ("progress", progress)) if value is not None}
        base_coords, method = tsne(vectors[sample.base], params, **extra)
    _save_atomically(cache_path(space_key, sample, params), coords=base_coords, method=np.array(method))
    return base_coords, method, "computed"


def _with_extra_rows(vectors: np.ndarray, sample: Sample, base_coords: np.ndarray, method: str,
                     source: str) -> Projection:
    if not len(sample.extra):  # the usual case: no copy of the sample's vectors on every page run
        return Projection(base_coords, method, source)
    extra_coords = place(vectors[sample.base], base_coords, vectors[sample.extra])
    return Projection(np.concatenate([base_coords, extra_coords]), method, source)


def project_sample(space_key: str, vectors: np.ndarray, sample: Sample,
                   params: MapParams = ProjectionParams()) -> tuple[np.ndarray, str, bool]:
    """`projection` as (coordinates, method, whether the base projection was read from disk)."""
    found = projection(space_key, vectors, sample, params)
    return found.coords, found.method, found.cached


def project_samples(spaces: Sequence[tuple[str, np.ndarray]], sample: Sample,
                    params: MapParams = ProjectionParams(),
                    on_wait: Callable[[dict[int, tuple[float, str]]], None] | None = None,
                    poll_s: float = 0.25) -> list[Projection]:
    """`projection` for several (space key, vectors) at once. Stored maps are read; the others are computed
    side by side, one thread each with an equal share of the usable cores (openTSNE's gradients run without
    the GIL). Meanwhile the calling thread calls `on_wait({index: (fraction, stage)})` every `poll_s` seconds
    with the maps being computed: a page draws its progress there, in its own thread."""
    stored = [stored_projection(key, sample, params) for key, _ in spaces]
    first = {key: i for i, (key, _) in reversed(list(enumerate(spaces)))}  # one computation per space key
    todo = [i for i, found in enumerate(stored) if found is None and first[spaces[i][0]] == i]
    if todo:
        share = max(1, usable_cores() // len(todo))
        state = {i: (0.0, "starting") for i in todo}

        def reporter(i: int) -> Progress:
            return lambda fraction, stage: state.__setitem__(i, (fraction, stage))  # one atomic store per report

        with ThreadPoolExecutor(max_workers=len(todo), thread_name_prefix=Projector.of(params).label) as pool:
            futures = {i: pool.submit(_computed, *spaces[i], sample, params, share, reporter(i)) for i in todo}
            pending = set(futures.values())
            while pending:
                if on_wait is not None:
                    on_wait(dict(state))
                _, pending = wait(pending, timeout=poll_s, return_when=FIRST_COMPLETED)
            for i, future in futures.items():
                stored[i] = future.result()
        stored = [found or stored[first[key]] for found, (key, _) in zip(stored, spaces)]
        if on_wait is not None:
            on_wait(dict(state))
    return [_with_extra_rows(vectors, sample, *found) for (_, vectors), found in zip(spaces, stored)]


def projection_key(space) -> str:
    """The key of a space's maps (cache and shipped): changes whenever its vectors may change, i.e. with
    its name, the corpus's content, the encoder (for a head: its files and its base encoder) or what computed
    them (backend and precision: an int8 rebuild moves neighbours, so its map is not the fp32 one)."""
    return (f"{space.corpus_name_}/{space.name}/{space.corpus_hash_}/{space.encoder_fingerprint_}/"
            f"{space.backend_}-{space.precision_}")


def _read_cache(path: Path, rows: int) -> tuple[np.ndarray, str] | None:
    """The cached (coordinates, method), or None when there is none or it is stale: a damaged file
    (truncated, flipped, empty, garbage) or one of another shape must never stop the Maps page; the
    caller recomputes the map and its atomic write replaces the file. A folder in its place is damage too: it
    is removed (or, when it cannot be, named) so the map is still shown."""
    try:
        other = remove_non_file(path)
    except OSError as error:
        raise AspectNavError(f"A folder sits where the map cache file {path} belongs and cannot be removed "
                             f"({error.strerror or error}); remove it, then open the map again.") from None
    if other:
        log.warning("Map cache %s was %s, not a file (damaged): removed it, recomputing the map.", path, other)
        return None
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


def most_labelled_aspect(corpus: Corpus, aspects: Sequence[str] | None = None) -> str | None:
    """The aspect (of `aspects`, default all the corpus's) that labels the most articles: the default colouring,
    so as few points as possible are drawn faint for want of a label. Ties go to the first named."""
    aspects = list(corpus.aspect_names if aspects is None else aspects)
    return _asked_before(corpus, ("most labelled", *aspects),
                         lambda: max(aspects, key=corpus.coverage) if aspects else None)


def label_ranks(corpus: Corpus, aspect: str | None, top: int = TOP_LABELS) -> dict[str, int]:
    """The `top` most frequent labels of `aspect` in the whole corpus, most frequent first → rank 0.

    A label's colour is its rank here, not its place in a sample: it keeps its colour whatever the
    seed, the sample or the space, so two maps side by side and two seeds read alike."""
    if not aspect:
        return {}
    return dict(_asked_before(corpus, ("ranks", aspect, top), lambda: {
        label: rank for rank, (label, _) in enumerate(corpus.label_counts(aspect).most_common(top))}))


def colour_labels(corpus: Corpus, rows: Sequence[int], aspect: str | None, ranks: dict[str, int]) -> list[str]:
    """Per row: its label with the lowest rank in `ranks` (label_ranks), "other" when none of its
    labels is ranked, NO_LABEL when it has no label of `aspect`, not even an inferred one (an article the source
    leaves unlabelled, Marie Curie's topic, takes the colour of the label inferred for it; the hover says so)."""
    if not aspect:
        return [NO_LABEL] * len(rows)
    colours = []
    for article in _articles(corpus, rows):
        labels = article.labels(aspect, inferred=True)
        ranked = [label for label in labels if label in ranks]
        colours.append(min(ranked, key=ranks.__getitem__) if ranked else OTHER if labels else NO_LABEL)
    return colours


_ANSWERS: dict[tuple, tuple[Corpus, object]] = {}  # (question, corpus object id, ...) → (corpus, answer), latest few
_ANSWERS_KEPT = 32
_ANSWERS_LOCK = threading.Lock()


def _asked_before(corpus: Corpus, key: tuple, make: Callable[[], object]) -> object:
    """`make()`, kept for the latest few questions `key` about this corpus object: a page asks the same of the same
    corpus on every run and for both of its maps (10,000 articles' labels read each time)."""
    key = (id(corpus), *key)
    with _ANSWERS_LOCK:
        kept = _ANSWERS.get(key)
    if kept is not None and kept[0] is corpus:
        return kept[1]
    answer = make()
    with _ANSWERS_LOCK:
        _ANSWERS[key] = (corpus, answer)
        while len(_ANSWERS) > _ANSWERS_KEPT:
            _ANSWERS.pop(next(iter(_ANSWERS)))
    return answer


def point_colours(corpus: Corpus, rows: Sequence[int], aspect: str | None,
                  only: str | None = None) -> tuple[list[str], dict[str, int]]:
    """Each row's colour label (colour_labels) and the ranks that colour them; with `only` (one label of `aspect`)
    the articles carrying it take its colour and every other one is faint (FILTERED_OUT). Kept for the latest few
    questions per corpus object."""
    digest = hashlib.sha1(np.asarray(rows, dtype=np.int64).tobytes()).hexdigest()
    colours, ranks = _asked_before(corpus, ("colours", digest, aspect, only),
                                   lambda: _point_colours(corpus, rows, aspect, only))
    return list(colours), dict(ranks)


def _point_colours(corpus: Corpus, rows: Sequence[int], aspect: str | None,
                   only: str | None) -> tuple[list[str], dict[str, int]]:
    ranks = label_ranks(corpus, aspect)
    if not (only and aspect):
        return colour_labels(corpus, rows, aspect, ranks), ranks
    ranks = ranks if only in ranks else ranks | {only: len(ranks)}  # a rarer label gets the next colour
    return [only if only in article.labels(aspect, inferred=True) else FILTERED_OUT
            for article in _articles(corpus, rows)], ranks


def _articles(corpus: Corpus, rows: Sequence[int]):
    """The articles of `rows`: the corpus read in order when they are all its rows (a columnar corpus then reads a
    batch at a time, not one row at a time: a density map colours every article)."""
    if isinstance(rows, range) and rows == range(len(corpus)):
        return iter(corpus)
    return (corpus.articles[row] for row in rows)


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
    source: str = ""  # where the base projection came from: "cache" | "shipped" | "computed" (Projection)
    legend: list[str] = field(default_factory=list)  # the ranked labels shown, by rank, then "other"
    # Hover labels are HTML, so the app view writes them (app_views.markdown.map_hover, which escapes
    # corpus text); the engine hands over plain data only.
    hover: list[str] = field(default_factory=list)
    ranks: dict[str, int] = field(default_factory=dict)  # label → its colour's rank (label_ranks)
    aspect: str | None = None  # the aspect the colours are labels of
    text_seed: str | None = None  # a free-text seed: no row of the map, drawn at `text_placement`
    text_placement: Placement | None = None  # where the free-text seed was placed, by its neighbours here
    seed_lacks: tuple[str, ...] = ()  # the aspects of this map's space the seed article has no label of
    only: str | None = None  # the label of `aspect` a filter keeps in colour (others faint)

    def count(self, label: str) -> int:
        return self.colour.count(label)

    @property
    def unlabelled_share(self) -> float:
        """The share of points without a label of the aspect (drawn faint, named in a caption)."""
        return self.colour.count(NO_LABEL) / len(self.colour) if self.colour else 0.0


def map_points(corpus: Corpus, sample: Sample, coords: np.ndarray, colour_aspect: str | None,
               seed_id: str | None = None, neighbour_ids: Sequence[str] = (), method: str = "",
               cached: bool = False, source: str = "", only: str | None = None) -> MapPoints:
    """The points of a map in sample order, coloured by `colour_aspect`; with `only` (one label of that aspect) the
    articles carrying it are coloured and every other point is faint (FILTERED_OUT)."""
    rows = sample.rows.tolist()
    colours, ranks = point_colours(corpus, rows, colour_aspect, only)
    ids, titles, at = _ids_and_titles(corpus, rows)
    role = ["sample"] * len(rows)
    for article_id in neighbour_ids:
        if article_id in at:
            role[at[article_id]] = "neighbour"
    if seed_id in at:
        role[at[seed_id]] = "seed"
    present = set(colours)
    legend = sorted((label for label in present if label in ranks), key=ranks.__getitem__)
    legend += [OTHER] if OTHER in present else []
    placed = np.arange(len(rows)) >= len(sample.base)
    return MapPoints(ids, titles, colours, role, coords, placed, method, cached, source, legend, ranks=ranks,
                     aspect=colour_aspect, only=only if only and colour_aspect else None)


def _ids_and_titles(corpus: Corpus, rows: list[int]) -> tuple[list[str], list[str], dict[str, int]]:
    """The ids and titles of `rows` and each id's place among them, once per corpus object and rows: both maps of
    every view read the same 10,000 articles (a tenth of the page's server time, read anew). Shared: callers copy
    the lists before they change them."""
    digest = hashlib.sha1(np.asarray(rows, dtype=np.int64).tobytes()).hexdigest()

    def read() -> tuple[list[str], list[str], dict[str, int]]:
        articles = [corpus.articles[row] for row in rows]
        ids = [article.id for article in articles]
        return ids, [article.title for article in articles], {article_id: i for i, article_id in enumerate(ids)}

    return _asked_before(corpus, ("ids and titles", digest), read)


def top_overlap(first: Sequence[str], second: Sequence[str]) -> float:
    """Jaccard overlap of two neighbour lists: shared / in either (1 = the same articles, 0 = none shared)."""
    a, b = set(first), set(second)
    return len(a & b) / len(a | b) if a | b else 1.0
