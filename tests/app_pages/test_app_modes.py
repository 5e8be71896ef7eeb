"""app.py, the frame, in its two modes: the full app, and an instance that serves a study to participants only."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from explore.corpus import store_corpus
from explore.errors import UnknownSpaceError
from study import engine_provider
from tests.app_pages.conftest import engine_opener
from study.synthetic import SyntheticProvider, tiny_corpus, write_tiny_study

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def study_instance(tmp_path, monkeypatch):
    store_corpus(tiny_corpus())
    monkeypatch.setenv("ASPECTNAV_STUDY", str(write_tiny_study(tmp_path)))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", f"sqlite:///{tmp_path / 'page.sqlite'}")
    monkeypatch.setattr(engine_provider, "engine_provider", SyntheticProvider)
    return monkeypatch


def credit(at: AppTest) -> str:
    return next(c.value for c in at.sidebar.caption if "Source:" in c.value)


def started_app(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_study_instance_opens_on_the_study_and_offers_no_explore_pages(study_instance):
    study_instance.setenv("ASPECTNAV_STUDY_ONLY", "yes")
    at = started_app()
    assert at.title[0].value == "Tiny study"
    assert at.checkbox(key="study_consent")
    assert credit(at) == "Texts of the corpus *tiny*. Source: test (2026\\-01\\-01)."
    assert not at.sidebar.selectbox and not at.sidebar.slider  # no corpus picker, no k: nothing about sources
    for hidden in ("explore", "maps", "corpus", "evaluation"):
        with pytest.raises(ValueError, match="Known pages"):
            at.switch_page(f"app_pages/{hidden}.py")
    at.switch_page("app_pages/study_results.py").run()
    assert not at.exception, at.exception
    assert credit(at)


def test_the_full_app_credits_wikipedia_on_every_page_and_picks_corpora_on_the_explore_pages(study_instance):
    def no_spaces(corpus):
        raise UnknownSpaceError(f"Corpus {corpus.name!r} has no space 'generic'.")

    engine_opener(study_instance, no_spaces)
    at = started_app(corpus="tiny")
    assert at.title[0].value == "Explore" and at.sidebar.selectbox(key="corpus_picker")
    for page, picker in (("maps", True), ("corpus", True), ("evaluation", True), ("study", False),
                         ("study_results", False)):
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, (page, at.exception)
        assert "Source: test" in credit(at), page  # every page credits its corpus (tiny is not Wikipedia text)
        assert bool([box for box in at.sidebar.selectbox if box.key == "corpus_picker"]) == picker, page


def test_a_misspelt_study_only_setting_is_refused_with_its_name(study_instance):
    study_instance.setenv("ASPECTNAV_STUDY_ONLY", "ture")
    at = started_app()
    assert "ASPECTNAV_STUDY_ONLY='ture' is not understood" in at.error[0].value
    assert not at.title
