"""The participant page in headless Chromium: direct ranking (click in order, take back, undo), a reload
that keeps the participant's place without the code in the URL, the finish that forgets it, the answers
in the database. Screenshots go to test-artifacts/study_*.png."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser import ARTIFACTS, REPO, chromium, free_port, idle, shot, wait

pytestmark = pytest.mark.slow
ENTRY = "tests/app_pages/study_page_entry.py"


@contextmanager
def serve(entry: str, env: dict, log_name: str):
    """`streamlit run entry` on loopback with `env`; yields its URL; the log lands in test-artifacts/."""
    port = free_port()
    log = (ARTIFACTS / log_name).open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", entry, "--server.headless", "true", "--server.address", "127.0.0.1",
         "--server.port", str(port), "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=REPO, env={**os.environ, **env, "PYTHONPATH": str(REPO)}, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if urllib.request.urlopen(f"{url}_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.3)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


@pytest.fixture
def study_env(tmp_path, monkeypatch):
    """The tiny study (2 tasks, fake candidates) with its own data home and database."""
    from explore.corpus import store_corpus
    from study.synthetic import TINY_STUDY, tiny_corpus, write_tiny_study

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("ASPECTNAV_HOME", str(home))  # store_corpus writes under it; the servers get it too
    store_corpus(tiny_corpus())
    ARTIFACTS.mkdir(exist_ok=True)
    return {"ASPECTNAV_HOME": str(home), "ASPECTNAV_STUDY_DB": f"sqlite:///{home / 'browser.sqlite'}",
            "ASPECTNAV_STUDY": str(write_tiny_study(home, tasks=TINY_STUDY["tasks"][:2])),
            "ASPECTNAV_STUDY_PASSWORD": "browser test password"}


def body(driver) -> str:
    return driver.find_element("tag name", "body").text


def label(button) -> str:
    """A button's words without its icon (a Material icon is a ligature: its name is text before the label)."""
    return button.text.strip().split("\n")[-1]


def click_button(driver, text: str) -> None:
    wait(driver, lambda d: [b for b in d.find_elements("css selector", "button") if label(b).startswith(text)
                            and b.is_enabled()], message=f"no enabled button {text!r}")[0].click()


def pick(driver, rank: int, nth: int = 0) -> None:
    """Click the `nth` article still offered as the next rank; wait for it to be ranked."""
    offered = wait(driver, lambda d: [b for b in d.find_elements("css selector", "button")
                                      if label(b) == f"Pick as #{rank}" and b.is_enabled()])
    offered[nth].click()
    wait(driver, lambda d: f"Ranked #{rank}" in body(d), message=f"rank {rank} not taken")


def test_a_participant_ranks_by_clicking_reloads_and_finishes(study_env, tmp_path):
    from study.report import load_answers
    from study.store import StoreConfig, open_store

    db_url = study_env["ASPECTNAV_STUDY_DB"]
    with serve(ENTRY, study_env, "study_streamlit.log") as url, chromium(tmp_path / "profile") as driver:
        driver.set_window_size(1600, 1200)
        driver.get(url)
        wait(driver, lambda d: "I have read this and agree" in body(d))
        driver.find_element("xpath", "//label[contains(., 'I have read this and agree')]").click()
        click_button(driver, "Start")
        wait(driver, lambda d: "Task 1 of 2" in body(d) and "Pick as #1" in body(d))
        code = re.search(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", body(driver)).group(0)
        idle(driver)
        shot(driver, "study_task_start.png")

        pick(driver, 1, nth=2)
        pick(driver, 2, nth=0)
        chosen = [label(b) for b in driver.find_elements("css selector", "button") if "Ranked #" in b.text]
        assert sorted(chosen) == ["Ranked #1", "Ranked #2"]
        assert not [b for b in driver.find_elements("css selector", "button")
                    if label(b) == "Save and continue" and b.is_enabled()]
        shot(driver, "study_task_partial.png")
        click_button(driver, "Undo")
        wait(driver, lambda d: "Ranked #2" not in body(d) and "Pick as #2" in body(d))
        for rank in range(2, 6):
            pick(driver, rank)
        wait(driver, lambda d: "Your top list is full" in body(d))
        idle(driver)
        shot(driver, "study_task_full.png")
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        for _ in range(10):  # Streamlit scrolls its own main section, not the window
            driver.execute_script("document.querySelector('[data-testid=\"stMain\"]').scrollBy(0, 600)")
        panel = driver.find_element("css selector", ".st-key-study_ranking")
        assert 0 <= panel.rect["y"] < 1200, "the ranking panel scrolled out of view"
        shot(driver, "study_task_scrolled.png")
        click_button(driver, "Save and continue")
        wait(driver, lambda d: "Task 2 of 2" in body(d))
        idle(driver)

        # A reload keeps the place and the picks so far: same participant, task 2, rank 1 still taken, and
        # the code never entered the URL.
        pick(driver, 1)
        driver.refresh()
        wait(driver, lambda d: "Welcome back" in body(d) and "Task 2 of 2" in body(d) and "Ranked #1" in body(d))
        assert code not in driver.current_url and code in body(driver)
        idle(driver)
        shot(driver, "study_reloaded.png")
        for rank in range(2, 6):
            pick(driver, rank)
        click_button(driver, "Save and continue")
        wait(driver, lambda d: "All tasks are done" in body(d))
        idle(driver)
        shot(driver, "study_finished.png")

        # Finished: this browser forgets the code, so the next person starts at the welcome page.
        driver.refresh()
        wait(driver, lambda d: "I have read this and agree" in body(d))
        assert "Welcome back" not in body(driver)

    stored = load_answers(open_store("tiny_study", StoreConfig(url=db_url)))
    assert (stored.started, stored.finished, len(stored.answers)) == (1, 1, 2)
    first = next(a for a in stored.answers if a.task_id == stored.participants[0].task_order[0])
    assert len(first.ranking) == 5 and len(set(first.ranking)) == 5



def test_the_results_page_shows_design_checks_exclusions_and_kendalls_w(study_env, tmp_path):
    """12 participants of the designed tiny study (Latin square, gold task, attention item); every fourth
    ranks the attention item wrong."""
    from study.definition import check_study, load_study
    from study.sessions import open_flow
    from study.store import StoreConfig, open_store
    from study.synthetic import TINY_DESIGN, SyntheticProvider, tiny_corpus, write_tiny_study

    corpus = tiny_corpus()
    home = Path(study_env["ASPECTNAV_HOME"])
    env = {**study_env, "ASPECTNAV_STUDY": str(write_tiny_study(home, **TINY_DESIGN)),
           "ASPECTNAV_STUDY_DB": f"sqlite:///{home / 'designed.sqlite'}"}
    study = check_study(load_study(env["ASPECTNAV_STUDY"]), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=env["ASPECTNAV_STUDY_DB"])),
                     SyntheticProvider(corpus), corpus)
    for participant in range(12):
        code = flow.start()
        while (screen := flow.next_task(code)) is not None:
            # the gold decoy a04 never first; the attention item's a05 first, except for every fourth
            ids = sorted((c.id for c in screen.candidates),
                         key=lambda i: (i == "a04", (i != "a05") ^ (participant % 4 == 0)))
            flow.submit(code, screen.task_id, ids[: screen.rank_depth])
    with serve("tests/app_pages/study_results_entry.py", env, "study_results_streamlit.log") as url, \
            chromium(tmp_path / "profile-results") as driver:
        driver.set_window_size(1600, 1200)
        driver.get(url)
        password = wait(driver, lambda d: d.find_element("css selector", "input[type='password']"))
        password.send_keys(env["ASPECTNAV_STUDY_PASSWORD"])
        click_button(driver, "Unlock")
        wait(driver, lambda d: "Friedman test and Kendall's W" in body(d) and "Design, checks and exclusions" in body(d))
        wanted = ("balanced Latin square", "3 of 12", "Apply the declared exclusions")
        wait(driver, lambda d: all(words in body(d) for words in wanted), message=f"missing one of {wanted}")
        idle(driver)
        shot(driver, "study_results.png")
        driver.execute_script("document.querySelector('[data-testid=\"stMain\"]').scrollBy(0, 1700)")
        idle(driver)
        shot(driver, "study_results_tests.png")
