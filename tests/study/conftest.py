from __future__ import annotations

import pytest

from study.sessions import open_flow
from study.store import StoreConfig, open_store
from study.synthetic import SyntheticProvider, tiny_corpus, tiny_study


@pytest.fixture
def corpus():
    return tiny_corpus()


@pytest.fixture
def study(tmp_path):
    return tiny_study(tmp_path)


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'study.sqlite'}"


@pytest.fixture
def store(study, db_url):
    return open_store(study.name, StoreConfig(url=db_url))


@pytest.fixture
def flow(study, store, corpus):
    return open_flow(study, store, SyntheticProvider(corpus), corpus)
