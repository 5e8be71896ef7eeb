"""The study's PostgreSQL goes away for 30 s in the middle of a task (a server of this test's own, stopped at once
and started again on the same port). Through AppTest (which reruns the whole page on a click, as a reload does): the
page's first read fails and says in words that nothing is lost and to reload in a minute, another device resuming
meanwhile is told the same instead of a traceback, and the rerun once the database is back shows the task with its
picks; the save then stores the answer once. In Chromium (the save reruns the ranking fragment alone): see the
second test."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from explore.corpus import store_corpus
from study.synthetic import tiny_corpus, write_tiny_study
from tests.postgres_server import PostgresUnavailable, postgres_server

pytestmark = pytest.mark.slow
ENTRY = str(Path(__file__).resolve().parents[1] / "app_pages" / "study_page_entry.py")
OUTAGE_S = 30


def _text(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "warning", "error", "info", "title")
                     for e in getattr(at, kind))


def _picks(at: AppTest):
    return [b for b in at.button if b.key.startswith("study_pick_")]


@pytest.fixture
def own_server():
    """A PostgreSQL server of this test's own (the outage stops it), durable: a commit survives the immediate stop.
    Skipped where none can start, failed under CI (which installs it), as the shared `postgres` fixture is."""
    try:
        with postgres_server(throwaway=False) as server:
            yield server
    except PostgresUnavailable as why:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL server under CI, which installs it (.ci/run): {why}")
        pytest.skip(f"no PostgreSQL server: {why}; runs where Debian's postgresql package is installed "
                    "(`bash .ci/run` installs it)")


def test_thirty_seconds_without_the_database_lose_nothing(tmp_path, monkeypatch, own_server):
    server = own_server
    with server.scratch_database() as database:
        store_corpus(tiny_corpus())
        monkeypatch.setenv("ASPECTNAV_STUDY", str(write_tiny_study(tmp_path)))
        monkeypatch.setenv("ASPECTNAV_STUDY_DB", database)
        at = AppTest.from_file(ENTRY, default_timeout=60)
        at.run()
        at.checkbox(key="study_consent").check().run()
        at.button(key="study_start").click().run()
        code = at.session_state["study_code"]
        for index in range(5):
            _picks(at)[index].click().run()
        at.button(key="study_save").click().run()
        assert "Task 2 of 3" in at.get("progress")[0].proto.text
        for index in range(5):
            _picks(at)[index].click().run()
        with server.outage():
            went = time.monotonic()
            at.button(key="study_save").click().run()
            assert not at.exception, at.exception
            said = _text(at)  # the page's first read fails before the answer is tried: said in words
            assert "Nothing is lost" in said and "reload" in said and code in said, said

            other = AppTest.from_file(ENTRY, default_timeout=60)  # another device, the code typed
            other.run()
            other.text_input(key="study_resume_code").input(code)
            other.button(key="study_resume").click().run()
            assert not other.exception, other.exception  # no traceback for a database away
            assert "Nothing is lost" in _text(other) and "reload" in _text(other), _text(other)
            while time.monotonic() - went < OUTAGE_S:
                time.sleep(1)
        at.run()  # the reload the message asks for: task 2 again, its five picks kept
        assert not at.exception, at.exception
        assert "Task 2 of 3" in at.get("progress")[0].proto.text
        assert [b.label for b in _picks(at)][:5] == [f"Ranked #{r}" for r in range(1, 6)]
        at.button(key="study_save").click().run()
        assert not at.exception, at.exception
        assert "Task 3 of 3" in at.get("progress")[0].proto.text
        resumed = AppTest.from_file(ENTRY, default_timeout=60)
        resumed.run()
        resumed.text_input(key="study_resume_code").input(code)
        resumed.button(key="study_resume").click().run()
        assert "Task 3 of 3" in resumed.get("progress")[0].proto.text

        from sqlalchemy import create_engine, text

        engine = create_engine(database)
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT task_id FROM answers")).scalars().all()
        engine.dispose()
        assert len(rows) == 2 == len(set(rows))


def test_in_the_browser_a_reload_while_the_database_is_away_says_so_and_then_carries_on(tmp_path, monkeypatch,
                                                                                       own_server):
    """The participant's view of the outage in Chromium, where a save reruns the ranking fragment alone: the save
    says the answer was not saved and to press again, the picks stay; a reload (the cookie resumes them) says nothing
    is lost, not a traceback; once the database is back, the reload shows the task with its picks and the save goes
    through. Screenshots: study_database_away_save.png, study_database_away.png."""
    from tests.app_pages.test_study_browser import ENTRY as BROWSER_ENTRY, body, click_button, pick, serve
    from tests.browser import chromium, idle, shot, wait

    server = own_server
    with server.scratch_database() as database:
        home = tmp_path / "home"
        home.mkdir()
        monkeypatch.setenv("ASPECTNAV_HOME", str(home))  # store_corpus writes under it; the server gets it too
        store_corpus(tiny_corpus())
        env = {"ASPECTNAV_HOME": str(home), "ASPECTNAV_STUDY_DB": database,
               "ASPECTNAV_STUDY": str(write_tiny_study(home))}
        with serve(BROWSER_ENTRY, env, "study_database_away_streamlit.log") as url, \
                chromium(tmp_path / "profile") as driver:
            driver.set_window_size(1400, 1000)
            driver.get(url)
            wait(driver, lambda d: "I have read this and agree" in body(d))
            driver.find_element("xpath", "//label[contains(., 'I have read this and agree')]").click()
            click_button(driver, "Start")
            wait(driver, lambda d: "Task 1 of 3" in body(d))
            for rank in range(1, 6):
                pick(driver, rank)
            idle(driver)
            with server.outage():
                click_button(driver, "Save and continue")
                wait(driver, lambda d: "not saved" in body(d), message="no 'not saved' message")
                idle(driver)
                assert "Ranked #5" in body(driver) and "Traceback" not in body(driver)  # the picks stay
                shot(driver, "study_database_away_save.png")
                driver.refresh()
                wait(driver, lambda d: "Nothing is lost" in body(d), message="no outage message")
                idle(driver)
                assert "Traceback" not in body(driver)
                shot(driver, "study_database_away.png")
            driver.refresh()
            wait(driver, lambda d: "Task 1 of 3" in body(d) and "Ranked #5" in body(d))  # picks saved as clicked
            click_button(driver, "Save and continue")
            wait(driver, lambda d: "Task 2 of 3" in body(d))
