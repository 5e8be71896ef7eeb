"""End to end in a real headless Chromium (Debian's chromium + chromium-driver, driven by
selenium) against `streamlit run app.py` on loopback: pick a seed with the type-ahead, click a
neighbour, go back, open Maps, click a point. Screenshots go to test-artifacts/.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SEED = "Marie Curie"
WAIT = 120  # seconds: the first render opens the corpus and every space


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`streamlit run app.py` on 127.0.0.1 with its own data home; yields the base URL."""
    home = tmp_path_factory.mktemp("browser-home")
    port = _free_port()
    env = os.environ | {"ASPECTNAV_HOME": str(home), "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    log = (tmp_path_factory.mktemp("browser-log") / "streamlit.log").open("w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.address",
         "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"streamlit did not start:\n{log.read()[-3000:]}")
            time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.seek(0)
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "streamlit.log").write_text(log.read())
        log.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail("Needs Debian's chromium and chromium-driver: apt-get install -y chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 "--window-size=1920,1300", f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


def _wait(driver, condition, timeout=WAIT, message=""):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # Streamlit re-renders elements on every rerun: a found element may go stale; look again.
    return WebDriverWait(driver, timeout, poll_frequency=0.25,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                         ).until(condition, message)


def _idle(driver, timeout=WAIT):
    """Wait until the app has finished its rerun (Streamlit shows a running indicator meanwhile)."""
    time.sleep(0.5)
    _wait(driver, lambda d: not d.find_elements("css selector", '[data-testid="stStatusWidget"] *') or
          "Running" not in d.find_element("css selector", '[data-testid="stStatusWidget"]').text, timeout)
    _wait(driver, lambda d: not d.find_elements("css selector", '[data-testid="stSpinner"]'), timeout)


def _subheaders(driver) -> list[str]:
    return [e.text for e in driver.find_elements("css selector", '[data-testid="stHeading"] h3')]


def _shot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    driver.save_screenshot(str(path))
    return path


def _credit(driver) -> str:
    """The sidebar's Wikipedia credit (drawn by the frame, app.py, on every page)."""
    return driver.find_element("css selector", '[data-testid="stSidebar"]').text


def _buttons(driver, prefix: str):
    return driver.find_elements("css selector", f'[class*="st-key-{prefix}"] button')


def test_explore_then_maps_in_chromium(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver = browser
    started = time.monotonic()
    driver.get(server)
    picker = _wait(driver, lambda d: d.find_element("css selector", '.st-key-seed_picker input'),
                   message="seed picker")
    first_render = time.monotonic() - started
    picker.click()
    picker.send_keys(SEED)
    time.sleep(1)
    picker.send_keys(Keys.ENTER)
    _wait(driver, lambda d: SEED in _subheaders(d), message="seed card")
    _wait(driver, lambda d: len(_buttons(d, "card-generic-")) >= 3, message="generic column")
    _idle(driver)
    assert "seed=Marie+Curie" in driver.current_url or "seed=Marie%20Curie" in driver.current_url
    headings = driver.find_element("css selector", '[data-testid="stMain"]').text
    assert "Wikipedia links" in headings and "generic" in headings
    assert "CC BY-SA" in _credit(driver)
    _shot(driver, "explore.png")

    # Click the first generic neighbour: it becomes the seed, and the trail can go back.
    neighbour = _buttons(driver, "card-generic-")[0]
    title = neighbour.text.strip()
    neighbour.click()
    _wait(driver, lambda d: title in _subheaders(d), message=f"reseeded to {title}")
    _idle(driver)
    _shot(driver, "explore-reseeded.png")
    _buttons(driver, "back")[0].click()
    _wait(driver, lambda d: SEED in _subheaders(d), message="back to the first seed")
    _idle(driver)

    # Maps: two plotly charts with the seed starred; clicking a point makes it the seed.
    driver.find_element("css selector", '[data-testid="stSidebarNav"] a[href$="/maps"]').click()
    _wait(driver, lambda d: len(d.find_elements("css selector", ".js-plotly-plot")) == 2, timeout=600,
          message="two maps")
    _idle(driver, timeout=600)
    time.sleep(1)
    assert "CC BY-SA" in _credit(driver)
    _shot(driver, "maps.png")
    plot = driver.find_elements("css selector", ".js-plotly-plot")[0]
    # Pixel position of the first neighbour marker, computed by plotly itself.
    x, y, neighbour_id = driver.execute_script("""
        const gd = arguments[0];
        const index = gd._fullData.findIndex(t => t.name === 'neighbour');
        const point = gd.calcdata[index][0];
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        return [xa._offset + xa.c2p(point.x), ya._offset + ya.c2p(point.y), gd._fullData[index].customdata[0]];
    """, plot)
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", plot)
    ActionChains(driver).move_to_element_with_offset(plot, int(x - rect[0] / 2), int(y - rect[1] / 2)).click().perform()
    _wait(driver, lambda d: "seed=" in d.current_url and "Marie" not in d.current_url, timeout=600,
          message=f"map click reseeds to {neighbour_id}")
    _idle(driver, timeout=600)
    _shot(driver, "maps-reseeded.png")
    (ARTIFACTS / "timings.txt").write_text(f"first render (picker visible): {first_render:.1f} s\n")
