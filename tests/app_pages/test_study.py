"""The participant page through AppTest: consent, blinded tasks, validation, resume, finish."""
from __future__ import annotations

import os
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


def pick_buttons(at: AppTest):
    return [b for b in at.button if b.key.startswith("study_pick_")]


def rank(at: AppTest, indexes: list[int]) -> None:
    """Click the candidates at `indexes` in order (ranks 1, 2, …) and save."""
    for index in indexes:
        pick_buttons(at)[index].click()
        at.run()
    at.button(key="study_save").click()
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

    # Ranking is direct: a click gives the next rank; a second click takes it back; no article twice.
    assert at.button(key="study_save").disabled
    assert pick_buttons(at)[0].label == "Pick as #1"
    pick_buttons(at)[0].click().run()
    assert pick_buttons(at)[0].label == "Ranked #1" and pick_buttons(at)[1].label == "Pick as #2"
    pick_buttons(at)[0].click().run()  # taken back
    assert pick_buttons(at)[0].label == "Pick as #1"
    for index in (3, 1, 2):
        pick_buttons(at)[index].click().run()
    at.button(key="study_undo").click().run()
    assert [b.label for b in pick_buttons(at)][1:4] == ["Ranked #2", "Pick as #3", "Ranked #1"]
    at.button(key="study_clear").click().run()
    assert all(b.label == "Pick as #1" for b in pick_buttons(at))
    for index in FIRST_FIVE:
        pick_buttons(at)[index].click().run()
    assert all(b.disabled for b in pick_buttons(at)[5:])  # the list is full: nothing more to pick
    assert not at.button(key="study_save").disabled
    at.button(key="study_save").click().run()
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


def test_not_you_starts_over_and_keeps_the_first_participants_answers(study_env):
    at = open_page()
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    first = at.session_state["study_code"]
    rank(at, FIRST_FIVE)
    at.button(key="study_not_me").click().run()
    assert "study_code" not in at.session_state
    assert at.button(key="study_start").disabled  # consent again
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    assert at.session_state["study_code"] != first
    assert "Task 1 of 3" in at.get("progress")[0].proto.text
    other = open_page()
    other.text_input(key="study_resume_code").input(first)
    other.button(key="study_resume").click().run()
    assert "Task 2 of 3" in other.get("progress")[0].proto.text


PROLIFIC_IDS = {"PROLIFIC_PID": "5f1a2b3c4d5e6f7a8b9c0d1e", "STUDY_ID": "60aa11bb22cc33dd44ee55ff",
                "SESSION_ID": "sess0123456789"}


@pytest.fixture
def prolific_env(tmp_path, monkeypatch):
    from tests.study.test_platform import PROLIFIC

    store_corpus(tiny_corpus())
    completion_only = {key: value for key, value in PROLIFIC.items() if not key.startswith("screen_out")}
    monkeypatch.setenv("ASPECTNAV_STUDY", str(write_tiny_study(tmp_path, tasks=tiny_study_tasks(),
                                                               platform=completion_only)))
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", f"sqlite:///{tmp_path / 'page.sqlite'}")


def tiny_study_tasks():
    from study.synthetic import TINY_STUDY

    return TINY_STUDY["tasks"][:1]


def arrive(ids: dict) -> AppTest:
    at = AppTest.from_file(ENTRY, default_timeout=30)
    for name, value in ids.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_prolific_participant_is_kept_by_id_the_ids_leave_the_url_and_the_end_returns_the_code(prolific_env):
    at = arrive({**PROLIFIC_IDS, "lang": "en"})
    assert "PROLIFIC_PID" in at.query_params  # kept until the participant exists
    # Prolific brings its participant back by id: no code to note down or type
    assert not at.text_input and "Resume" not in [header.value for header in at.subheader]
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    code = at.session_state["study_code"]
    assert not any("Note it down" in info.value for info in at.info)
    assert dict(at.query_params) == {"lang": "en"}  # the ids are out of the address bar, the rest stays

    again = arrive(PROLIFIC_IDS)  # Prolific opens the study again: the same participant, no second consent
    assert again.session_state["study_code"] == code
    assert any("Welcome back" in info.value for info in again.info)
    rank(again, FIRST_FIVE)
    assert "thank you" in again.success[0].value
    assert "C1OK2345" in shown_text(again)
    link = again.get("link_button")[0].proto
    assert link.url == "https://app.prolific.com/submissions/complete?cc=C1OK2345"


def test_a_malformed_prolific_id_is_refused_on_the_page(prolific_env):
    at = arrive({"PROLIFIC_PID": "x y<z>"})
    assert "malformed PROLIFIC_PID" in at.error[0].value


@pytest.mark.parametrize("ids", [{}, {"PROLIFIC_PID": ""}, {"PROLIFIC_PID": "  ", "STUDY_ID": PROLIFIC_IDS["STUDY_ID"]}])
def test_a_prolific_link_without_a_prolific_id_stops_before_consent(prolific_env, ids):
    from study.report import load_answers
    from study.store import StoreConfig, open_store

    at = arrive(ids)
    assert not at.checkbox and not at.button  # no consent, no Start: nobody to match to a submission
    assert "does not carry your Prolific ID" in at.warning[0].value
    assert "go back to Prolific and open the study from its page there" in at.warning[0].value
    store = open_store("tiny_study", StoreConfig(url=os.environ["ASPECTNAV_STUDY_DB"]))
    assert load_answers(store).started == 0


def test_a_prolific_participant_is_offered_no_code_and_no_fresh_start(prolific_env):
    at = arrive(PROLIFIC_IDS)
    assert "Your Prolific ID is stored with your answers" in shown_text(at)
    assert "code" not in shown_text(at).lower()  # neither the consent nor the page asks them to keep one
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    assert "Task 1 of 1" in at.get("progress")[0].proto.text
    assert not [b for b in at.button if b.key == "study_not_me"]  # one Prolific id, one participant
    assert "code" not in shown_text(at).lower()


def test_a_participant_without_a_platform_is_told_to_keep_their_code(study_env):
    from study.definition import load_study

    welcome = [markdown.value for markdown in open_page().markdown]
    assert any("participant code: note it down" in text for text in welcome)  # the app says it, for them alone
    assert "with your code" not in load_study("vital_default").consent  # not the study's text: Prolific reads it too


def test_picks_survive_a_new_session_as_a_reload_makes_one(study_env):
    at = open_page()
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    code = at.session_state["study_code"]
    for index in (3, 1):
        pick_buttons(at)[index].click().run()
    at.button(key="study_undo").click().run()
    pick_buttons(at)[0].click().run()
    reloaded = open_page()  # a reload is a new session; here the code is typed, in the browser the cookie carries it
    reloaded.text_input(key="study_resume_code").input(code)
    reloaded.button(key="study_resume").click().run()
    labels = [b.label for b in pick_buttons(reloaded)]
    assert labels[3] == "Ranked #1" and labels[0] == "Ranked #2" and labels[1] == "Pick as #3"


def test_a_participant_marked_returned_finds_their_session_closed_without_a_code(study_env, tmp_path):
    from study.outcome import Outcome
    from study.participant_selector import ParticipantSelector
    from study.platform_outcome import mark_outcome
    from study.sessions import open_flow
    from study.store import StoreConfig, open_store
    from study.synthetic import SyntheticProvider, tiny_study

    study = tiny_study(tmp_path)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=os.environ["ASPECTNAV_STUDY_DB"])),
                     SyntheticProvider(tiny_corpus()), tiny_corpus())
    code = flow.start()
    mark_outcome(flow.store, None, ParticipantSelector(code=code), Outcome.RETURNED)
    at = AppTest.from_file(ENTRY, default_timeout=30)
    at.session_state["study_code"] = code
    at.run()
    assert not at.exception, at.exception
    shown = shown_text(at)
    assert "This session was closed (your submission was returned)" in shown
    assert "All tasks are done" not in shown and not at.success and not pick_buttons(at)
