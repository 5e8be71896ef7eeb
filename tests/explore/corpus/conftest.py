from __future__ import annotations

import pytest

from explore.corpus.model import Article, Corpus, Provenance


@pytest.fixture
def small_corpus() -> Corpus:
    articles = [
        Article("curie", "Marie Curie", "Physicist and chemist.", "Polish-French physicist", "",
                ("pierre", "radium"), {"country": ("Poland", "France"), "occupation": ("physicist", "chemist")},
                aliases=("Maria Skłodowska-Curie",)),
        Article("pierre", "Pierre Curie", "French physicist.", "French physicist", "",
                ("curie",), {"country": ("France",), "occupation": ("physicist",)}),
        Article("radium", "Radium", "A chemical element.", "", "", (), {}),
        Article("mercury-planet", "Mercury", "The smallest planet.", "Planet", "", (), {"topic": ("Physical sciences",)}),
        Article("mercury-god", "Mercury", "A Roman god.", "Roman god", "", (), {"topic": ("Philosophy and religion",)}),
    ]
    return Corpus("small", articles, Provenance(source="test", date="2026-01-01"))
