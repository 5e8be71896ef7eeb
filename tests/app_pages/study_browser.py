"""One participant through the study page in a real browser (Selenium + headless Chromium).

`take_part(driver, page_url, tasks)` is for the app's browser harness: open the study page,
consent, start, rank the first candidates of `tasks` tasks, and return the participant code.
`python -m tests.app_pages.study_browser` runs it against a Streamlit server it starts on the tiny
test study (fake candidates) and checks the stored answers.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_S = 60


def _click_text(driver, tag: str, text: str) -> None:
    wait = WebDriverWait(driver, TIMEOUT_S)
    element = wait.until(EC.element_to_be_clickable((By.XPATH, f"//{tag}[contains(normalize-space(.), '{text}')]")))
    element.click()


def _wait_for_text(driver, text: str) -> None:
    WebDriverWait(driver, TIMEOUT_S).until(lambda d: text in d.find_element(By.TAG_NAME, "body").text)


def take_part(driver, page_url: str, tasks: int) -> str:
    """Consent, start, answer `tasks` tasks (ranks 1..N = candidates 1..N); return the code."""
    driver.get(page_url)
    _click_text(driver, "label", "I have read this and agree")
    _click_text(driver, "button", "Start")
    _wait_for_text(driver, "Your participant code is")
    code = re.search(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", driver.find_element(By.TAG_NAME, "body").text).group(0)
    for number in range(1, tasks + 1):
        _wait_for_text(driver, f"Task {number} of")
        boxes = driver.find_elements(By.CSS_SELECTOR, "[data-testid='stSelectbox']")
        for rank, box in enumerate(boxes):
            box.find_element(By.CSS_SELECTOR, "input").click()
            options = WebDriverWait(driver, TIMEOUT_S).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "[role='option']"))
            option = next(o for o in options if o.text.startswith(f"{rank + 1}. "))
            option.click()
        _click_text(driver, "button", "Save and continue")
        if number < tasks:
            _wait_for_text(driver, f"Task {number + 1} of")
    return code


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    """Start a server on the tiny study (2 tasks), take part in Chromium, check the database."""
    from selenium import webdriver

    from study.synthetic import TINY_STUDY, tiny_corpus, write_tiny_study
    from explore.corpus import store_corpus
    from study.report import load_answers
    from study.store import StoreConfig, open_store

    home = Path(tempfile.mkdtemp(prefix="aspectnav-browser-"))
    os.environ["ASPECTNAV_HOME"] = str(home)
    store_corpus(tiny_corpus())
    study_file = write_tiny_study(home, tasks=TINY_STUDY["tasks"][:2])
    db_url = f"sqlite:///{home / 'browser.sqlite'}"
    port = _free_port()
    env = {**os.environ, "ASPECTNAV_STUDY": str(study_file), "ASPECTNAV_STUDY_DB": db_url, "PYTHONPATH": str(REPO)}
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "tests/app_pages/study_page_entry.py", "--server.headless", "true",
         "--server.port", str(port), "--browser.gatherUsageStats", "false"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))  # no Selenium Manager download
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,3000"):
        options.add_argument(flag)
    driver = None
    try:
        time.sleep(3)
        driver = webdriver.Chrome(options=options, service=service)
        code = take_part(driver, f"http://127.0.0.1:{port}/", tasks=2)
        _wait_for_text(driver, "All tasks are done")
        stored = load_answers(open_store("tiny_study", StoreConfig(url=db_url)))
        assert (stored.started, stored.finished, len(stored.answers)) == (1, 1, 2), stored
        assert all(len(a.ranking) == 5 for a in stored.answers)
        print(f"OK: participant {code} answered 2 tasks in the browser; 2 answers stored.")
        return 0
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
