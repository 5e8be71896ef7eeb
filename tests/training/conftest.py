"""The training tests' corpus and embeddings (built in tests/fixture_corpora.py) as fixtures."""
from __future__ import annotations

import numpy as np
import pytest

from explore.corpus.model import Corpus
from tests.fixture_corpora import make_corpus, make_embeddings


@pytest.fixture
def fixture_corpus() -> Corpus:
    return make_corpus()


@pytest.fixture
def fixture_embeddings(fixture_corpus) -> np.ndarray:
    return make_embeddings(fixture_corpus)
