"""A small labelled corpus (people with countries and occupations, a few unlabelled articles) and
generic-like embeddings that carry a weak signal of both aspects, so a head can learn in seconds."""
from __future__ import annotations

import numpy as np
import pytest

from explore.corpus.model import Article, Corpus, Provenance

COUNTRIES = ["France", "Japan", "Brazil", "Kenya"]
OCCUPATIONS = ["painter", "physicist", "composer"]


def make_corpus(people: int = 72, unlabelled: int = 12, seed: int = 0) -> Corpus:
    rng = np.random.default_rng(seed)
    articles = []
    for i in range(people):
        country = COUNTRIES[i % len(COUNTRIES)]
        occupation = OCCUPATIONS[(i // len(COUNTRIES)) % len(OCCUPATIONS)]
        countries = (country,) if i % 9 else (country, COUNTRIES[(i + 1) % len(COUNTRIES)])  # some multi-label
        articles.append(Article(
            f"person-{i}", f"Person {i}", f"Person {i} was a {occupation} from {country}.",
            aspects={"country": countries, "occupation": (occupation,)}))
    for i in range(unlabelled):
        articles.append(Article(f"thing-{i}", f"Thing {i}", f"Thing {i} is an object number {rng.integers(1000)}."))
    return Corpus("fixture", articles, Provenance(source="test", date="2026-01-01"))


def make_embeddings(corpus: Corpus, dim: int = 32, signal: float = 0.5, seed: int = 0) -> np.ndarray:
    """Noise plus a small per-label direction: retrieval by aspect is possible but generic-level weak."""
    rng = np.random.default_rng(seed)
    directions = {label: rng.normal(size=dim) for label in COUNTRIES + OCCUPATIONS}
    rows = []
    for article in corpus.articles:
        vector = rng.normal(size=dim)
        for labels in article.aspects.values():
            for label in labels:
                vector += signal * directions[label]
        rows.append(vector)
    matrix = np.asarray(rows, dtype=np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


@pytest.fixture
def fixture_corpus() -> Corpus:
    return make_corpus()


@pytest.fixture
def fixture_embeddings(fixture_corpus) -> np.ndarray:
    return make_embeddings(fixture_corpus)
