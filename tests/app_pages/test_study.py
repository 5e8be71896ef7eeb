"""The participant page through AppTest: consent, blinded tasks, validation, resume, finish."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from explore.corpus import store_corpus
from study.synthetic import tiny_corpus, write_tiny_study

ENTRY = str(Path(__file__).resolve().parent / "study_page_entry.py")
SOURCE_WORDS = ("links", "generic", "union", "aspect", "score")


@pytest.fixture
def study_env(tmp_path, monkeypatch):
    store_corpus(tiny_corpus())
    monkeypatch.setenv("ASPECTNAV_STUDY", str(write_tiny_study(tmp_path)))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", f"sqlite:///{tmp_path / 'page.sqlite'}")


def open_page() -> AppTest:
    at = AppTest.from_file(ENTRY, default_timeout=30)
    at.run()
    assert not at.exception, at.exception
    return at


def shown_text(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "subheader", "info", "title") for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


def rank(at: AppTest, indexes: list[int]) -> None:
    """Pick the candidates at `indexes` for ranks 1, 2, … and submit."""
    boxes = [box for box in at.selectbox if box.key.startswith("study_rank_")]
    for box, index in zip(boxes, indexes):
        box.select_index(index)
    next(b for b in at.button if b.label == "Save and continue").click()
    at.run()
    assert not at.exception, at.exception


FIRST_FIVE = [0, 1, 2, 3, 4]


def test_a_participant_consents_ranks_blinded_candidates_resumes_and_finishes(study_env):
    at = open_page()
    assert at.title[0].value == "Tiny study"
    assert at.button(key="study_start").disabled
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    code = at.session_state["study_code"]
    assert code in at.info[0].value
    assert "Task 1 of 3" in at.get("progress")[0].proto.text
    text = shown_text(at).lower()
    assert not any(word in text for word in SOURCE_WORDS)

    rank(at, [0] * 5)  # one article for every rank
    assert "only one rank" in at.error[0].value

    rank(at, FIRST_FIVE)
    assert "Task 2 of 3" in at.get("progress")[0].proto.text

    # Another device: a fresh session resumes with the code, typed sloppily.
    other = open_page()
    other.text_input(key="study_resume_code").input(code.lower().replace("-", " "))
    other.button(key="study_resume").click().run()
    assert "Task 2 of 3" in other.get("progress")[0].proto.text
    rank(other, FIRST_FIVE)
    rank(other, FIRST_FIVE)
    assert "thank you" in other.success[0].value


def test_an_unknown_code_is_refused(study_env):
    at = open_page()
    at.text_input(key="study_resume_code").input("AAAA-BBBB-CCCC")
    at.button(key="study_resume").click().run()
    assert "No participant with this code" in at.error[0].value


def test_a_broken_study_file_is_reported_naming_the_task(study_env, tmp_path, monkeypatch):
    bad = write_tiny_study(tmp_path / "..", tasks=[{"id": "broken", "aspect": "country", "label": "France",
                                                   "seed": "Nope", "goal": "g"}])
    monkeypatch.setenv("ASPECTNAV_STUDY", str(bad))
    at = open_page()
    assert "task 'broken': seed" in at.error[0].value
