"""Named regions of a 2-D map: k-means on the layout, each cluster named by its most characteristic labels
and title words (class-based TF-IDF, as BERTopic names topics), so a reader sees what a part of the map is about
without hovering over it.

Why k-means on the 2-D coordinates (not on the space's vectors): a region must be a patch the reader sees, and
t-SNE has already drawn the clusters; k-means is deterministic with a fixed random state and takes tens of
milliseconds at 10,000 points. Why c-TF-IDF: a term scores by how much of a cluster it covers times how
rare it is across clusters, so a label every region shares ("20th century") names none of them.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from explore.corpus.model import Article

MIN_REGIONS, MAX_REGIONS = 3, 12
POINTS_PER_REGION = 60  # regions ≈ sqrt(points / 60): 3 at 120 points, 12 at 10,000
TERMS_PER_REGION = 2
MIN_SHARE = 0.05  # a term names a region only if at least this share of its articles carry it
_WORD = re.compile(r"[^\W\d_]{3,}")


@dataclass(frozen=True)
class Region:
    """One cluster of a map: where its name sits (its most central point), its name, the map rows in it."""

    x: float
    y: float
    terms: tuple[str, ...]
    rows: tuple[int, ...]

    @property
    def name(self) -> str:
        return " · ".join(self.terms)


def region_count(points: int) -> int:
    return int(min(MAX_REGIONS, max(MIN_REGIONS, round(math.sqrt(points / POINTS_PER_REGION)))))


def article_terms(article: Article) -> list[str]:
    """What may name a region an article is in: each of its labels (whole, any aspect), then its title's words
    (lower case, three letters or more, English stop words left out), each once."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    labels = [label for values in article.aspects.values() for label in values]
    words = [w for w in _WORD.findall(article.title.lower()) if w not in ENGLISH_STOP_WORDS]
    return list(dict.fromkeys(labels + words))


def name_clusters(documents: Sequence[Sequence[str]], clusters: np.ndarray, n_clusters: int,
                  terms: int = TERMS_PER_REGION, min_share: float = MIN_SHARE) -> list[tuple[str, ...]]:
    """The `terms` most characteristic terms of each cluster by c-TF-IDF: a cluster is one document made of its
    articles' terms; a term's weight is its share of the cluster's terms times log(1 + average terms per
    cluster / the term's count over all clusters). Terms carried by under `min_share` of a cluster's articles
    are left out (one article's odd word must not name a region)."""
    from sklearn.feature_extraction.text import CountVectorizer

    merged = [[] for _ in range(n_clusters)]
    for cluster, document in zip(clusters, documents):
        merged[int(cluster)].extend(document)
    if not any(merged):
        return [() for _ in range(n_clusters)]
    vectorizer = CountVectorizer(analyzer=lambda tokens: tokens)  # terms are already tokens (labels, words)
    counts = vectorizer.fit_transform(merged).toarray().astype(np.float64)
    vocabulary = vectorizer.get_feature_names_out()
    per_cluster = counts.sum(axis=1, keepdims=True)
    tf = counts / np.maximum(per_cluster, 1)
    idf = np.log(1 + per_cluster.mean() / np.maximum(counts.sum(axis=0), 1))
    scores = tf * idf
    sizes = np.bincount(clusters, minlength=n_clusters)
    scores[counts < np.maximum(1, min_share * sizes)[:, None]] = 0  # each article holds a term once
    names = []
    for row in scores:
        best = [i for i in np.argsort(-row, kind="stable")[:terms] if row[i] > 0]
        names.append(tuple(str(vocabulary[i]) for i in best))
    return names


def map_regions(coords: np.ndarray, documents: Sequence[Sequence[str]], n_regions: int | None = None,
                random_state: int = 0) -> list[Region]:
    """The named regions of a map whose points sit at `coords` and carry `documents` (article_terms), largest
    first; a region no term names is left out (nothing true to write on it)."""
    from sklearn.cluster import KMeans

    coords = np.asarray(coords, dtype=np.float64)
    if len(coords) != len(documents):
        raise ValueError(f"{len(coords)} points but {len(documents)} documents: one each.")
    n_regions = min(n_regions or region_count(len(coords)), len(coords))
    if n_regions < 2:
        return []
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # 0.1 s at 10,000 points; threads on a busy machine made it ten times slower
        clusters = KMeans(n_clusters=n_regions, n_init=3, random_state=random_state).fit_predict(coords)
    names = name_clusters(documents, clusters, n_regions)
    regions = []
    for cluster, terms in enumerate(names):
        rows = np.flatnonzero(clusters == cluster)
        if not terms or len(rows) == 0:
            continue
        centre = coords[rows].mean(axis=0)
        anchor = rows[np.argmin(((coords[rows] - centre) ** 2).sum(axis=1))]  # a point of the cluster, not a gap
        regions.append(Region(float(coords[anchor, 0]), float(coords[anchor, 1]), terms, tuple(rows.tolist())))
    return sorted(regions, key=lambda region: -len(region.rows))
