"""Spaces on demand in a real headless Chromium: a reader finds no way to train and no shell command (free-text
Explore, the Evaluation page's maintainers' section asks for the password); a maintainer gives the password and
trains a `birthplace` space on the vital corpus from the Evaluation page, with a progress bar, and Explore shows its
column on the next page, without a restart. Screenshots: test-artifacts/train_space_*.png. Its own server and data
home: the new space must not reach the other browser tests' columns."""
from __future__ import annotations

import pytest

from tests.browser import buttons, column_headings, idle, shot, streamlit_server, wait

pytestmark = pytest.mark.slow
MAIN = '[data-testid="stMain"]'


PASSWORD = "maintainers only"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from benchmarks.common import environment

    with environment(ASPECTNAV_STUDY_PASSWORD=PASSWORD), streamlit_server(
            tmp_path_factory.mktemp("train-home"), tmp_path_factory.mktemp("train-log") / "s.log",
            "streamlit_train_space.log") as url:
        yield url


def _headings(driver) -> list[str]:
    return column_headings(driver)


def _maintainers(driver):
    """The expander, found afresh: Streamlit may replace the element while the page reruns."""
    return next((e for e in driver.find_elements("css selector", '[data-testid="stExpander"]')
                 if "For maintainers" in e.text), None)


def test_a_space_trained_in_the_app_appears_as_a_column(server, browser):
    driver = browser
    driver.get(f"{server}/?seed=Marie+Curie")
    wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, message="generic column")
    idle(driver)
    assert "birthplace space" not in _headings(driver) and not buttons(driver, "card-aspect-birthplace-")

    # a reader: free text names the aspects without a space, never a command; the Evaluation page asks for the password
    driver.get(f"{server}/?text=a+Japanese+painter")
    wait(driver, lambda d: "No space yet for aspects" in d.find_element("css selector", MAIN).text,
         message="the free-text notes")
    idle(driver)
    assert "python -m" not in driver.find_element("css selector", MAIN).text
    shot(driver, "train_space_reader_free_text.png")
    driver.get(f"{server}/evaluation")
    wait(driver, lambda d: _maintainers(d), message="maintainers' expander").find_element("css selector",
                                                                                        "summary").click()
    password = wait(driver, lambda d: _maintainers(d).find_element("css selector", "input[type='password']"),
                    message="the maintainers' password box")
    idle(driver)
    assert "python -m" not in driver.find_element("css selector", MAIN).text and "Train the space" not in \
        driver.find_element("css selector", MAIN).text
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", _maintainers(driver))
    shot(driver, "train_space_locked.png")
    password.send_keys(PASSWORD)
    next(b for b in _maintainers(driver).find_elements("css selector", "button") if b.text.strip() == "Unlock").click()
    hint = "No space yet for aspects birthplace, place_type"
    wait(driver, lambda d: hint in _maintainers(d).text, message="the expander open, its hint shown")
    wait(driver, lambda d: d.find_element("css selector", '[data-testid="stForm"]'), message="training form")
    idle(driver)
    form = driver.find_element("css selector", '[data-testid="stForm"]')  # settled: no rerun replaces it now
    box = form.find_element("css selector", ".st-key-train_aspect")
    picked = " ".join([box.text, *(i.get_attribute("value") or "" for i in box.find_elements("css selector", "input"))])
    assert "birthplace" in picked, picked  # the first aspect without a space
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", form)
    shot(driver, "train_space_form.png")
    form.find_element("css selector", '[data-testid="stFormSubmitButton"] button').click()
    wait(driver, lambda d: d.find_elements("css selector", '[data-testid="stProgress"]'), timeout=30,
         message="a progress bar while it trains")
    done = wait(driver, lambda d: next((a for a in d.find_elements("css selector", '[data-testid="stAlert"]')
                                        if "is ready" in a.text or "rror" in a.text), None), timeout=300,
                message="training finished")
    assert "Space 'birthplace' for aspect 'birthplace' is ready" in done.text, done.text
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", done)
    shot(driver, "train_space_done.png")

    driver.get(f"{server}/?seed=Marie+Curie")  # the same server: no restart
    wait(driver, lambda d: len(buttons(d, "card-aspect-birthplace-")) >= 3, message="the birthplace column")
    idle(driver)
    assert "birthplace space" in _headings(driver)
    column = buttons(driver, "card-aspect-birthplace-")[0]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", column)
    shot(driver, "train_space_column.png")
