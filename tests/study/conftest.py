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


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request, tmp_path):
    """The study database of one test, on each backend the store supports: an SQLite file, and a fresh
    database on a real PostgreSQL server (slow tier: it starts a server)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'study.sqlite'}"
        return
    with request.getfixturevalue("postgres").scratch_database() as url:
        yield url


@pytest.fixture
def store(study, db_url):
    return open_store(study.name, StoreConfig(url=db_url))


@pytest.fixture
def flow(study, store, corpus):
    return open_flow(study, store, SyntheticProvider(corpus), corpus)
