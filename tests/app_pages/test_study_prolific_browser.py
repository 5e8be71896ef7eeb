"""A Prolific study end to end in headless Chromium, against a local recording server standing in for
Prolific: a participant who arrives with the three ids ranks, answers the questionnaire (each list of a
task's suggestions rated blinded, then the closing questions), the ids leave the address bar, and the browser
lands on the completion URL with the completion code; a second fails the attention item and lands on the
screen-out URL with the screen-out code, without the closing questions; a third abandons, and once the
declared timeout passes their Latin-square row goes to the next arrival.
Screenshots: test-artifacts/study_prolific_*.png."""
from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.app_pages.test_study import SOURCE_WORDS
from tests.app_pages.test_study_browser import ENTRY, body, click_button, label, serve, study_env  # noqa: F401 - a fixture
from selenium.webdriver.common.keys import Keys

from tests.browser import chromium, idle, shot, wait

pytestmark = pytest.mark.slow
ATTENTION_ARTICLE = "a05"  # Article 05
REASSIGN_MINUTES = 0.1  # 6 s: long enough for a participant to start, short enough to wait out
QUESTIONNAIRE = {"items": [
    {"id": "fit", "kind": "likert", "scope": "per_source", "text": "These articles fit my goal."},
    {"id": "trust", "kind": "likert", "points": 7, "text": "I would trust suggestions like these.",
     "anchors": ["Not at all", "Completely"]},
    {"id": "device", "kind": "single_choice", "text": "Which device did you use?", "options": ["Phone", "Computer"]},
    {"id": "remarks", "kind": "free_text", "text": "Anything else you would like to tell us?", "required": False,
     "max_length": 200},
]}
REMARK = "Clear lists <b>thanks</b>"  # markup stays text


class Recorder(BaseHTTPRequestHandler):
    """Prolific's side: records each request's path and query, answers with a page that names them."""

    seen: list[tuple[str, dict]] = []

    def do_GET(self):  # noqa: N802 - the http.server name
        parts = urlsplit(self.path)
        self.seen.append((parts.path, parse_qs(parts.query)))
        page = f"<html><body><h1>Recording server</h1><p>{parts.path} received code {parse_qs(parts.query)}</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(page.replace("'", "").encode())

    def log_message(self, *args):
        pass


@contextmanager
def recording_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    Recorder.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def prolific_study(home: Path, recorder: str) -> Path:
    from study.synthetic import write_tiny_study

    return write_tiny_study(
        home,
        defaults={"rank_depth": 2},
        design={"order": "balanced_latin_square", "reassign_after_minutes": REASSIGN_MINUTES},
        exclusions=[{"rule": "failed_attention"}],
        platform={"kind": "prolific", "completion_url": f"{recorder}/submissions/complete",
                  "completion_code": "C1OK2345", "screen_out_url": f"{recorder}/submissions/complete",
                  "screen_out_code": "CSCREEN9"},
        tasks=[{"id": "country-france", "aspect": "country", "label": "France", "seed": "Article 00",
                "goal": "Learn about France"},
               {"id": "attention", "aspect": "occupation", "label": "painter", "seed": "Article 01",
                "goal": "To show you are reading, rank “Article 05” first.",
                "check": {"kind": "attention", "rank_first": "Article 05"}}],
        questionnaire=QUESTIONNAIRE)


def ids_of(n: int) -> dict[str, str]:
    return {"PROLIFIC_PID": f"5f1a2b3c4d5e6f7a8b9c0d{n:02d}", "STUDY_ID": "60aa11bb22cc33dd44ee55ff",
            "SESSION_ID": f"session{n:04d}"}


def arrive(driver, url: str, ids: dict, welcome_shot: str = "") -> None:
    driver.get(url + "?" + "&".join(f"{k}={v}" for k, v in ids.items()))
    wait(driver, lambda d: "I have read this and agree" in body(d))
    # Prolific brings its participant back by id: no Resume box, no code to note down (issue #37)
    assert "Resume" not in body(driver) and "participant code" not in body(driver).lower()
    if welcome_shot:
        idle(driver)
        shot(driver, welcome_shot)
    driver.find_element("xpath", "//label[contains(., 'I have read this and agree')]").click()
    click_button(driver, "Start")
    wait(driver, lambda d: "Task 1 of 2" in body(d) and "Pick as #1" in body(d))
    wait(driver, lambda d: "PROLIFIC_PID" not in d.current_url, message="the ids stayed in the address bar")


def rank_task(driver, attentive: bool) -> None:
    """Rank 2 articles; on the attention item an attentive participant picks Article 05 first."""
    wait(driver, lambda d: "Pick as #1" in body(d))
    is_attention = "rank “Article 05” first" in body(driver)
    cards = driver.find_elements("css selector", f'[class*="st-key-study_pick_"][class*="_{ATTENTION_ARTICLE}"] button')
    if is_attention and attentive:
        cards[0].click()
        wait(driver, lambda d: "Ranked #1" in body(d))
    for rank in range(1 + (is_attention and attentive), 3):
        offered = wait(driver, lambda d: [b for b in d.find_elements("css selector", "button")
                                          if label(b) == f"Pick as #{rank}" and b.is_enabled()
                                          and not (cards and b == cards[0])])
        offered[0].click()
        wait(driver, lambda d: f"Ranked #{rank}" in body(d))
    click_button(driver, "Save and continue")


def choose(driver, group, option: str) -> None:
    """Click the radio option whose label starts with `option` in `group` (a stRadio element); wait for the rerun."""
    labels = group.find_elements("css selector", '[data-testid="stRadioOption"]')
    next(o for o in labels if o.text.strip().startswith(option)).click()
    idle(driver)


def questions(driver) -> list:
    return driver.find_elements("css selector", '[data-testid="stMain"] [data-testid="stRadio"]')


def answer_lists(driver) -> int:
    """On a per-source page: rate every list 4 of 5; returns how many lists there were. Nothing is preselected."""
    wait(driver, lambda d: "A few questions about the suggestions you just ranked" in body(d))
    idle(driver)
    lists = driver.find_elements("css selector", '[class*="st-key-study_q_list_"]')
    assert lists and len(questions(driver)) == len(lists)
    assert not driver.find_elements("css selector", '[data-testid="stMain"] input[type="radio"]:checked')
    for number in range(len(lists)):
        choose(driver, questions(driver)[number], "4")
    click_button(driver, "Continue")
    return len(lists)


def answer_once(driver) -> None:
    """The closing page: a 7-point Likert, a single choice, a free text; Continue."""
    wait(driver, lambda d: "Last questions" in body(d))
    idle(driver)
    assert not driver.find_elements("css selector", '[data-testid="stMain"] input[type="radio"]:checked')
    shot(driver, "study_prolific_questionnaire_once.png")
    assert len(questions(driver)) == 2  # the Likert and the single choice
    choose(driver, questions(driver)[0], "6")
    choose(driver, questions(driver)[1], "Computer")  # looked up again: the rerun redraws the page
    remarks = driver.find_element("css selector", '[data-testid="stMain"] textarea')
    remarks.send_keys(REMARK, Keys.CONTROL, Keys.ENTER)  # Ctrl+Enter hands a text area's value to the app
    idle(driver)
    shot(driver, "study_prolific_questionnaire_once_answered.png")
    click_button(driver, "Continue")


def landed(driver, recorder: str, code: str) -> None:
    wait(driver, lambda d: d.current_url.startswith(recorder), timeout=30, message="no redirect to Prolific")
    wait(driver, lambda d: "Recording server" in body(d))
    assert ("/submissions/complete", {"cc": [code]}) in Recorder.seen


def task_order(db_url: str, platform_id: str) -> list[str]:
    from sqlalchemy import select

    from study.store import ParticipantRow, StoreConfig, open_store

    store = open_store("tiny_study", StoreConfig(url=db_url))
    with store.reading() as session:
        return json.loads(session.scalars(select(ParticipantRow.task_order)
                                          .where(ParticipantRow.platform_id == platform_id)).one())


def test_prolific_participants_complete_are_screened_out_and_abandon(study_env, tmp_path):
    from study.report import load_answers, load_questionnaire
    from study.store import StoreConfig, open_store

    home, db_url = Path(study_env["ASPECTNAV_HOME"]), study_env["ASPECTNAV_STUDY_DB"]
    with recording_server() as recorder:
        env = {**study_env, "ASPECTNAV_STUDY": str(prolific_study(home, recorder))}
        with serve(ENTRY, env, "study_prolific_streamlit.log") as url:
            with chromium(tmp_path / "p1") as driver:  # 1. completes
                driver.set_window_size(1600, 1100)
                arrive(driver, url, ids_of(1), welcome_shot="study_prolific_welcome.png")
                idle(driver)
                assert "Note it down" not in body(driver)
                shot(driver, "study_prolific_task.png")
                rated = 0
                for number in (1, 2):
                    if "Article 05" not in body(driver):  # the comparison task: its lists are rated next
                        rank_task(driver, attentive=True)
                        wait(driver, lambda d: "questions about the suggestions" in body(d))
                        idle(driver)
                        shot(driver, "study_prolific_questionnaire_per_source.png")
                        assert not any(word in body(driver).lower() for word in SOURCE_WORDS)  # lettered, never named
                        rated = answer_lists(driver)
                    else:
                        rank_task(driver, attentive=True)
                    if number == 1:
                        wait(driver, lambda d: "Task 2 of 2" in body(d))
                answer_once(driver)
                wait(driver, lambda d: "Your completion code is C1OK2345" in body(d))
                shot(driver, "study_prolific_completed.png")
                landed(driver, recorder, "C1OK2345")
                shot(driver, "study_prolific_returned.png")

            with chromium(tmp_path / "p2") as driver:  # 2. fails the attention item
                driver.set_window_size(1600, 1100)
                arrive(driver, url, ids_of(2))
                rank_task(driver, attentive=False)
                after = wait(driver, lambda d: body(d) if any(
                    s in body(d) for s in ("Task 2 of 2", "screen-out code", "questions about the suggestions"))
                    else None)
                if "questions about the suggestions" in after:  # the comparison task came first: rate its lists
                    answer_lists(driver)
                    wait(driver, lambda d: "Task 2 of 2" in body(d))
                if "screen-out code" not in after:
                    rank_task(driver, attentive=False)
                wait(driver, lambda d: "Your screen-out code is CSCREEN9" in body(d))
                shot(driver, "study_prolific_screened_out.png")
                landed(driver, recorder, "CSCREEN9")

            with chromium(tmp_path / "p3") as driver:  # 3. starts and walks away
                driver.set_window_size(1600, 1100)
                arrive(driver, url, ids_of(3))
            time.sleep(REASSIGN_MINUTES * 60 + 1)
            with chromium(tmp_path / "p4") as driver:  # 4. arrives after the timeout: gets the abandoned row
                driver.set_window_size(1600, 1100)
                arrive(driver, url, ids_of(4))

    first, second = task_order(db_url, ids_of(1)["PROLIFIC_PID"]), task_order(db_url, ids_of(2)["PROLIFIC_PID"])
    third, fourth = task_order(db_url, ids_of(3)["PROLIFIC_PID"]), task_order(db_url, ids_of(4)["PROLIFIC_PID"])
    assert first != second  # the two rows of the square
    assert third == second  # participant 2 was screened out: their row went back to the pool
    assert fourth == third  # participant 3 abandoned: after the timeout their row is reused, not participant 1's
    stored = load_answers(open_store("tiny_study", StoreConfig(url=db_url)))
    assert [p.outcome for p in stored.participants] == ["completed", "screened_out", None, None]
    assert stored.started == 4 and len(stored.answers) in (3, 4)
    first_id = stored.participants[0].participant
    given = [a for a in load_questionnaire(open_store("tiny_study", StoreConfig(url=db_url)))
             if a.participant == first_id]
    assert sorted(a.value for a in given if a.item_id == "fit") == [4] * rated and rated >= 2
    sources = {a.source for a in given if a.item_id == "fit"}  # stored by source, shown by letter
    assert len(sources) == rated and sources <= {s.label for s in stored.study.task("country-france").sources}
    assert {(a.item_id, a.value) for a in given if a.task_id == ""} == {
        ("trust", 6), ("device", "Computer"), ("remarks", REMARK)}
    assert Recorder.seen.count(("/submissions/complete", {"cc": ["C1OK2345"]})) == 1


def test_a_prolific_link_without_an_id_stops_and_a_participant_is_offered_no_fresh_start(study_env, tmp_path):
    """Issue #49 item 7 and #54 item 5: no PROLIFIC_PID, a stop page and nothing stored; with it, no code to keep and
    no "Start over as a new participant", before and after a reload. Screenshots study_prolific_no_id.png,
    study_prolific_task_no_restart.png."""
    from study.report import load_answers
    from study.store import StoreConfig, open_store

    home, db_url = Path(study_env["ASPECTNAV_HOME"]), study_env["ASPECTNAV_STUDY_DB"]
    env = {**study_env, "ASPECTNAV_STUDY": str(prolific_study(home, "https://app.prolific.com"))}
    with serve(ENTRY, env, "study_prolific_no_id_streamlit.log") as url, chromium(tmp_path / "p") as driver:
        driver.set_window_size(1400, 900)
        driver.get(url + "?STUDY_ID=60aa11bb22cc33dd44ee55ff&PROLIFIC_PID=")
        wait(driver, lambda d: "does not carry your Prolific ID" in body(d))
        idle(driver)
        assert "I have read this and agree" not in body(driver) and "Start" not in body(driver)
        shot(driver, "study_prolific_no_id.png")

        arrive(driver, url, ids_of(7), welcome_shot="study_prolific_consent.png")
        for moment in ("started", "reloaded"):
            idle(driver)
            page = body(driver)
            assert "Start over" not in page and "participant code" not in page.lower(), moment
            if moment == "started":
                shot(driver, "study_prolific_task_no_restart.png")
                driver.refresh()  # a new session, the ids gone from the URL: the cookie carries the participant
                wait(driver, lambda d: "Welcome back" in body(d))
    assert load_answers(open_store("tiny_study", StoreConfig(url=db_url))).started == 1
