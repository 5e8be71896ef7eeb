"""The app's engine and corpus caches notice a space trained or an aspect attached while the server runs."""
import streamlit as st

from app_views import corpus_choice, engine_cache
from explore.corpus.registry import store_corpus
from explore.settings import spaces_dir
from tests.app_pages.conftest import engine_opener, fixture_engine, panel
from tests.fixture_corpora import fixture_corpus


def test_a_space_written_meanwhile_reopens_the_engine_once(monkeypatch):
    opened = []
    engine_opener(monkeypatch, lambda corpus: opened.append(corpus.name) or fixture_engine(corpus))
    st.cache_resource.clear()
    store_corpus(fixture_corpus())
    corpus = corpus_choice.load_corpus("fixture")
    first = engine_cache.cached_engine(corpus)
    assert engine_cache.cached_engine(corpus) is first and opened == ["fixture"]
    manifest = spaces_dir() / "fixture" / "era" / "manifest.json"  # what training's space build leaves
    manifest.parent.mkdir(parents=True)
    manifest.write_text("{}")
    second = engine_cache.cached_engine(corpus)
    assert second is not first and opened == ["fixture", "fixture"]
    assert engine_cache.cached_engine(corpus) is second  # and only once
    st.cache_resource.clear()


def test_a_corpus_stored_meanwhile_is_read_again_with_its_engine(monkeypatch):
    engine_opener(monkeypatch, fixture_engine)
    st.cache_resource.clear()
    store_corpus(fixture_corpus())
    before = corpus_choice.load_corpus("fixture")
    assert corpus_choice.load_corpus("fixture") is before
    engine = engine_cache.cached_engine(before)
    store_corpus(fixture_corpus())  # e.g. `aspectnav corpus attach-aspect`
    after = corpus_choice.load_corpus("fixture")
    assert after is not before and engine_cache.cached_engine(after).corpus is after
    assert engine_cache.cached_engine(after) is not engine
    st.cache_resource.clear()


def test_a_corpus_encoded_on_its_first_open_opens_in_every_later_session(monkeypatch):
    """A corpus imported while the app runs is encoded on its first open, which draws a bar; a later session
    (a new reader, or a reload) must get the opened engine, not a replay of that bar (CacheReplayClosureError)."""
    from streamlit.testing.v1 import AppTest

    from tests.app_pages.conftest import APP

    class EncodingOpener:  # what Neighbourhood.open does for a corpus whose spaces are not built yet
        @classmethod
        def open(cls, corpus, progress=True):
            for done in (0, 5, 10):
                progress(done, 10)
            return fixture_engine(corpus)

    monkeypatch.setattr(engine_cache, "Neighbourhood", EncodingOpener)
    st.cache_resource.clear()
    store_corpus(fixture_corpus())
    for session in range(3):
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params.update(corpus="fixture", seed="Person 7")
        at.run()
        assert not at.exception, (session, [e.value for e in at.exception])
        assert panel(at)["seed_card"]["title"] == "Person 7"
    st.cache_resource.clear()
