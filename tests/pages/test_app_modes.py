"""app.py in its two modes: the full app, and an instance that serves a study to participants only."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from study import engine_provider
from explore.corpus import store_corpus
from tests.study.fakes import FakeProvider, tiny_corpus, write_tiny_study

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def study_instance(tmp_path, monkeypatch):
    store_corpus(tiny_corpus())
    monkeypatch.setenv("ASPECTNAV_STUDY", str(write_tiny_study(tmp_path)))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", f"sqlite:///{tmp_path / 'page.sqlite'}")
    monkeypatch.setattr(engine_provider, "engine_provider", FakeProvider)
    return monkeypatch


def started_app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_study_instance_opens_on_the_study_and_offers_no_explore_pages(study_instance):
    study_instance.setenv("ASPECTNAV_STUDY_ONLY", "yes")
    at = started_app()
    assert at.title[0].value == "Tiny study"
    assert at.checkbox(key="study_consent")
    for hidden in ("explore", "maps", "corpus", "evaluation"):
        with pytest.raises(ValueError, match="Known pages"):
            at.switch_page(f"pages/{hidden}.py")
    at.switch_page("pages/study_results.py").run()
    assert not at.exception, at.exception


def test_a_misspelt_study_only_setting_is_refused_with_its_name(study_instance):
    study_instance.setenv("ASPECTNAV_STUDY_ONLY", "ture")
    at = started_app()
    assert "ASPECTNAV_STUDY_ONLY='ture' is not understood" in at.error[0].value
    assert not at.title
