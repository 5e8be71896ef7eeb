"""The results page through AppTest: locked without the password, then means, tests and exports."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from study.definition import check_study, load_study
from study.sessions import open_flow
from study.store import StoreConfig, open_store
from study.synthetic import SyntheticProvider, tiny_corpus, write_tiny_study
from tests.study.test_sessions import answer_all

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "study_results.py")
PASSWORD = "correct horse battery staple"


@pytest.fixture
def answered_study(tmp_path, monkeypatch):
    study_file = write_tiny_study(tmp_path)
    db_url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    corpus = tiny_corpus()
    study = check_study(load_study(study_file), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    for _ in range(3):
        answer_all(flow, flow.start())
    monkeypatch.setenv("ASPECTNAV_STUDY", str(study_file))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", db_url)


def open_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception, at.exception
    return at


def test_results_stay_locked_without_a_configured_password(answered_study, monkeypatch):
    monkeypatch.delenv("ASPECTNAV_STUDY_PASSWORD", raising=False)
    at = open_page()
    assert "Results are locked" in at.warning[0].value
    assert not at.metric and not at.get("download_button")


def test_wrong_then_right_password(answered_study, monkeypatch):
    monkeypatch.setenv("ASPECTNAV_STUDY_PASSWORD", PASSWORD)
    at = open_page()
    at.text_input(key="study_results_password").input("guess")
    at.button[0].click().run()
    assert at.error[0].value == "Wrong password." and not at.metric
    at.text_input(key="study_results_password").input(PASSWORD)
    at.button[0].click().run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"Participants started": "3", "Finished": "3", "Answers": "9"}
    assert len(at.get("plotly_chart")) == 3  # country, occupation, all
    assert len(at.get("download_button")) == 4  # summary, answers, report, codebook
    at.radio(key="study_unranked").set_value("mid").run()
    assert not at.exception


def test_design_checks_and_exclusions_with_and_without(tmp_path, monkeypatch):
    from study.synthetic import TINY_DESIGN

    study_file = write_tiny_study(tmp_path, **TINY_DESIGN)
    db_url = f"sqlite:///{tmp_path / 'designed.sqlite'}"
    corpus = tiny_corpus()
    study = check_study(load_study(study_file), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    for _ in range(3):  # everyone ranks the attention item's "a05" below first: all fail it
        code = flow.start()
        while (screen := flow.next_task(code)) is not None:
            ids = sorted((c.id for c in screen.candidates), key=lambda i: i == "a05")
            flow.submit(code, screen.task_id, ids[: screen.rank_depth])
    monkeypatch.setenv("ASPECTNAV_STUDY", str(study_file))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", db_url)
    monkeypatch.setenv("ASPECTNAV_STUDY_PASSWORD", PASSWORD)
    at = open_page()
    at.text_input(key="study_results_password").input(PASSWORD)
    at.button[0].click().run()
    assert not at.exception, at.exception
    text = "\n".join(m.value for m in at.markdown)
    assert "balanced Latin square" in text and "10 orders" in text
    assert "3 of 3" in text  # every participant failed the attention item
    assert not at.get("plotly_chart")  # nobody left: no means with exclusions applied
    at.toggle(key="study_apply_exclusions").set_value(False).run()
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) == 3
    assert any("without exclusions (3 participants)" in c.value for c in at.caption)


def test_questionnaire_results_are_shown_and_exported(tmp_path, monkeypatch):
    from tests.study.test_questionnaire import OWN_ITEMS, play

    study_file = write_tiny_study(tmp_path, questionnaire={"preset": "resque", "items": OWN_ITEMS})
    db_url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    corpus = tiny_corpus()
    study = check_study(load_study(study_file), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    for likert in (2, 4, 5):
        play(flow, flow.start(), likert, remarks="<script>x</script>")
    monkeypatch.setenv("ASPECTNAV_STUDY", str(study_file))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", db_url)
    monkeypatch.setenv("ASPECTNAV_STUDY_PASSWORD", PASSWORD)
    at = open_page()
    at.text_input(key="study_results_password").input(PASSWORD)
    at.button[0].click().run()
    assert not at.exception, at.exception
    assert "Questionnaire" in [s.value for s in at.subheader]
    likert = at.dataframe[-5].value  # Likert, Friedman, pairwise, choices, free text
    trust = likert[likert["Item"] == "trust"].iloc[0]
    assert (trust["Median"], trust["IQR"], trust["Participants"]) == (4, "3–4.5", 3)
    assert list(at.dataframe[-1].value["Answer"]) == ["<script>x</script>"] * 3  # a cell, never rendered
    assert len(at.get("download_button")) == 5
