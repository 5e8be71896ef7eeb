"""A small fixture corpus with aspect labels and links, stored in the test's data home, and a
neighbour engine over hand-made spaces (labels + noise), so page tests need no model or assets."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from app_views import engine_cache
from explore.corpus.model import Corpus
from explore.corpus.registry import store_corpus
from explore.neighbours import Neighbourhood
from explore.spaces import Space
from tests.fixture_corpora import fixture_corpus, hostile_corpus

APP = str(Path(__file__).resolve().parents[2] / "app.py")


class FixedEncoder:
    """Stands in for a model: returns precomputed vectors (free text is refused by the registry)."""

    def __init__(self, vectors: np.ndarray, fingerprint: str):
        self.vectors = vectors
        self.fingerprint = fingerprint

    def encode(self, texts, progress=True):
        return self.vectors


def fixture_engine(corpus: Corpus) -> Neighbourhood:
    rng = np.random.default_rng(0)
    n = len(corpus)

    def one_hot(aspect):
        values = list(dict.fromkeys(label for article in corpus for label in article.labels(aspect)))
        matrix = np.zeros((n, len(values)), dtype=np.float32)
        for row, article in enumerate(corpus):
            for label in article.labels(aspect):
                matrix[row, values.index(label)] = 3.0
        return matrix

    noise = lambda dim: rng.normal(size=(n, dim)).astype(np.float32)  # noqa: E731
    vectors = {"generic": noise(16)}
    for aspect in ("country", "occupation"):  # any other aspect has no space: the pages say so
        if aspect in corpus.aspect_names:
            vectors[aspect] = np.hstack([one_hot(aspect), noise(8)])
    spaces = []
    for name, matrix in vectors.items():
        kind = "generic" if name == "generic" else "aspect"
        spaces.append(Space(name, kind, "fixture").fit(corpus, encoder=FixedEncoder(matrix, f"fixture-{name}"),
                                                      progress=False))
    return Neighbourhood(corpus, spaces)


def engine_opener(monkeypatch, open_engine) -> None:
    """Make the app's engine cache open engines with `open_engine(corpus)` instead of reading spaces."""

    class Opener:
        @classmethod
        def open(cls, corpus, progress=True):
            return open_engine(corpus)

    monkeypatch.setattr(engine_cache, "Neighbourhood", Opener)


@pytest.fixture
def app(isolated_home, monkeypatch):
    """An AppTest on the fixture corpus; `app(page, **query)` runs it once."""
    engines = {}
    engine_opener(monkeypatch, lambda corpus: engines.setdefault(corpus.name, fixture_engine(corpus)))
    store_corpus(fixture_corpus())
    store_corpus(fixture_corpus("plain", aspects=False))
    st.cache_resource.clear()

    def run(page: str | None = None, **query) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params["corpus"] = query.pop("corpus", "fixture")
        for key, value in query.items():
            at.query_params[key] = value
        if page:
            at.switch_page(page)
        at.run()
        assert not at.exception, at.exception
        return at

    yield run
    st.cache_resource.clear()


HOSTILE_HOST = "127.0.0.1:9"  # the discard port; AppTest renders nothing, the browser test serves a real one


@pytest.fixture
def hostile(app):
    """`app`, with the hostile corpus (tests/fixture_corpora.py) stored too; returns that corpus."""
    corpus = hostile_corpus(HOSTILE_HOST)
    store_corpus(corpus)
    return corpus


# --- Explore's card grid (one component element; app_views/card_grid) ------------------------------------


def grid(at: AppTest) -> dict:
    """The data the Explore page gave its card grid ({} when the page drew none)."""
    import json

    grids = [e for e in at.get("bidi_component") if e.proto.component_name == "aspectnav_card_grid"]
    return json.loads(grids[0].proto.json) if grids else {}


class GridCard:
    """One card of the grid as a test sees it: its title (`label`), key `card-<column>-<id>`, and a click that
    does what the grid's click does (the view's set_seed, then the page's rerun: `.click().run()`)."""

    def __init__(self, at: AppTest, column: str, data: dict):
        self.at, self.data = at, data
        self.label, self.id = data["title"], data["id"]
        self.key = f"card-{column}-{data['id']}"

    def click(self) -> AppTest:
        from app_views.view_session import VIEW_KEY

        self.at.session_state[VIEW_KEY].set_seed(self.id)
        return self.at


def cards(at: AppTest, kind: str) -> list[GridCard]:
    """The cards of the column whose query is `kind` (links, generic, aspect:country, blend:…)."""
    return [GridCard(at, column["key"], card) for column in grid(at).get("columns", []) if column["key"] == kind
            for card in column["cards"]]


def headings(at: AppTest) -> list[str]:
    """The grid's column headings, in bold as the page used to write them."""
    return [f"**{column['heading']}**" for column in grid(at).get("columns", [])]


def grid_text(at: AppTest) -> str:
    """Every description, note and card text of the grid, as one string to search."""
    parts = []
    for column in grid(at).get("columns", []):
        parts += [column["heading"], column["description"], column["note"]]
        for card in column["cards"]:
            parts += [card["title"], card["snippet"], *(c["text"] for c in card["shared"]), *card["missing"],
                      "also in: " + ", ".join(card["also_in"])]
    return " ".join(parts)
