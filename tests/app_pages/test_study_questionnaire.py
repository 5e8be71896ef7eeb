"""The questionnaire on the participant page (AppTest): after each task its lists are rated blinded, the once
items close the study, an open required item is refused, and answers given survive a reload."""
from __future__ import annotations

import pytest

from explore.corpus import store_corpus
from study.report import load_questionnaire
from study.store import StoreConfig, open_store
from study.synthetic import tiny_corpus, write_tiny_study
from tests.app_pages.test_study import FIRST_FIVE, SOURCE_WORDS, open_page, rank, shown_text

QUESTIONNAIRE = {"items": [
    {"id": "fit", "kind": "likert", "scope": "per_source", "text": "These articles fit my goal."},
    {"id": "device", "kind": "single_choice", "text": "Which device did you use?", "options": ["Phone", "Computer"]},
    {"id": "remarks", "kind": "free_text", "text": "Anything else?", "required": False, "max_length": 200},
]}


@pytest.fixture
def questionnaire_env(tmp_path, monkeypatch):
    store_corpus(tiny_corpus())
    monkeypatch.setenv("ASPECTNAV_STUDY", str(write_tiny_study(tmp_path, questionnaire=QUESTIONNAIRE)))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", f"sqlite:///{tmp_path / 'page.sqlite'}")
    return tmp_path / "page.sqlite"


def radios(at, item_id: str):
    return [r for r in at.radio if r.key.endswith(f"_{item_id}")]


def resume(code: str):
    at = open_page()
    at.text_input(key="study_resume_code").input(code)
    at.button(key="study_resume").click().run()
    assert not at.exception, at.exception
    return at


def test_lists_are_rated_after_each_task_the_once_items_close_and_answers_survive_a_reload(questionnaire_env):
    at = open_page()
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    code = at.session_state["study_code"]
    rank(at, FIRST_FIVE)
    assert "questions about the suggestions you just ranked" in at.subheader[0].value
    assert not any(word in shown_text(at).lower() for word in SOURCE_WORDS)  # lists are lettered, never named
    assert "Your goal was:" in shown_text(at)  # "fit my goal" is read against the task's goal, shown again
    lists = radios(at, "fit")
    assert len(lists) == 4 and lists[0].options == ["1 · Strongly disagree", "2", "3", "4", "5 · Strongly agree"]
    assert lists[0].value is None  # nothing preselected

    at.button(key=next(b.key for b in at.button if b.key.startswith("study_q_submit_"))).click().run()
    assert "Please answer every question about list A" in at.error[0].value

    radios(at, "fit")[0].set_value(4).run()  # saved as it is given
    reloaded = resume(code)
    assert [r.value for r in radios(reloaded, "fit")] == [4, None, None, None]
    for radio in radios(reloaded, "fit")[1:]:
        radio.set_value(2).run()
    reloaded.button(key=next(b.key for b in reloaded.button if b.key.startswith("study_q_submit_"))).click().run()
    assert "Task 2 of 3" in reloaded.get("progress")[0].proto.text

    for _ in range(2):
        rank(reloaded, FIRST_FIVE)
        for radio in radios(reloaded, "fit"):
            radio.set_value(5).run()
        reloaded.button(key=next(b.key for b in reloaded.button if b.key.startswith("study_q_submit_"))).click().run()
    assert reloaded.subheader[0].value == "Last questions"
    reloaded.radio(key="study_q_once__device").set_value("Computer").run()
    reloaded.text_area(key="study_q_once__remarks").input("**bold** <b>not</b>").run()
    reloaded.button(key="study_q_submit_once").click().run()
    assert not reloaded.exception, reloaded.exception
    assert "All tasks are done" in reloaded.success[0].value

    answers = load_questionnaire(open_store("tiny_study", StoreConfig(url=f"sqlite:///{questionnaire_env}")))
    fit = [a for a in answers if a.item_id == "fit"]
    assert len(fit) == 12 and sorted(a.value for a in fit if a.task_id == fit[0].task_id) == [2, 2, 2, 4]
    assert {(a.item_id, a.value) for a in answers if a.task_id == ""} == {
        ("device", "Computer"), ("remarks", "**bold** <b>not</b>")}
