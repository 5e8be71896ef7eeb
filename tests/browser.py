"""What the app's browser tests share: `streamlit run serve.py` (the README's command) on loopback with its own data home,
Debian's headless Chromium driven by selenium, waits that survive Streamlit's reruns, screenshots.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 120  # seconds: the first render opens the corpus and every space


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def streamlit_server(home: Path, log_path: Path, log_name: str = "streamlit.log"):
    """`streamlit run serve.py` on 127.0.0.1 over the data home `home`; yields the base URL. Its log is
    copied to test-artifacts/`log_name` when it stops."""
    with served_page(home, log_path, log_name) as (url, _):
        yield url


@contextmanager
def served_page(home: Path, log_path: Path, log_name: str = "streamlit.log", script: str = "serve.py",
                options: tuple[str, ...] = ()):
    """`streamlit run SCRIPT` from the checkout as the README starts it (its .streamlit/config.toml applies:
    no file watching), with more `options` (`--server.baseUrlPath`, ...), on a free loopback port; yields the base URL
    (below any base path) and the server's process id."""
    port = free_port()
    env = os.environ | {"ASPECTNAV_HOME": str(home), "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    log = Path(log_path).open("w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true", "--server.address",
         "127.0.0.1", "--server.port", str(port), *options],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = options[options.index("--server.baseUrlPath") + 1].strip("/") if "--server.baseUrlPath" in options else ""
    url = f"http://127.0.0.1:{port}" + (f"/{base}" if base else "")
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
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.seek(0)
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / log_name).write_text(log.read())
        log.close()


@contextmanager
def chromium(profile: Path, flags: tuple[str, ...] = ()):
    """A headless Chromium with its own profile and no background traffic of its own; `flags` adds switches
    (`--ignore-certificate-errors` for a loopback proxy's self-signed certificate)."""
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail("Needs Debian's chromium and chromium-driver: apt-get install -y chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 "--window-size=1920,1300", f"--user-data-dir={profile}", *flags):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver, condition, timeout=WAIT, message=""):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # Streamlit re-renders elements on every rerun: a found element may go stale; look again.
    return WebDriverWait(driver, timeout, poll_frequency=0.25,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                         ).until(condition, message)


def idle(driver, timeout=WAIT):
    """Wait until the app has finished its rerun (Streamlit shows a running indicator meanwhile)."""
    time.sleep(0.5)
    wait(driver, lambda d: not d.find_elements("css selector", '[data-testid="stStatusWidget"] *') or
         "Running" not in d.find_element("css selector", '[data-testid="stStatusWidget"]').text, timeout)
    wait(driver, lambda d: not d.find_elements("css selector", '[data-testid="stSpinner"]'), timeout)


def subheaders(driver) -> list[str]:
    """The page's level-3 headings, the explore panel's seed card title among them."""
    return [e.text for e in driver.find_elements("css selector", '[data-testid="stHeading"] h3, .an-seed h3')]


def shot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    driver.save_screenshot(str(path))
    return path


def shot_of_text(driver, prefix: str, name: str) -> Path:
    """A screenshot scrolled to the first Markdown block starting with `prefix` (the block at the top)."""
    block = next(e for e in driver.find_elements("css selector", '[data-testid="stMarkdownContainer"]')
                 if e.text.startswith(prefix))
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'});", block)
    time.sleep(0.8)
    return shot(driver, name)


def buttons(driver, prefix: str):
    """The buttons whose widget key starts with `prefix`. Explore's panel draws its own: `card-<column>` (a
    column's query with ':' written '-', e.g. card-aspect-country-) gives the title links of that column's cards;
    `back`, `forward`, `crumb-` (every crumb) and `crumb-<n>` the trail's buttons. The Maps panel draws `map_from`,
    the marked article's "Map from"."""
    if prefix == "map_from":
        return driver.find_elements("css selector", ".an-mp-marked .an-mp-map-from")
    if prefix.startswith("card-"):
        return card_links(driver, prefix.removeprefix("card-").rstrip("-"))
    if prefix in ("back", "forward"):
        steps = driver.find_elements("css selector", ".an-trail .an-step")
        return steps[:1] if prefix == "back" else steps[1:2]
    if prefix.startswith("crumb-"):
        crumbs = driver.find_elements("css selector", ".an-trail .an-crumb")
        index = prefix.removeprefix("crumb-")
        return crumbs[int(index):int(index) + 1] if index else crumbs
    return driver.find_elements("css selector", f'[class*="st-key-{prefix}"] button')


def card_links(driver, column: str):
    """The title links of the cards in the Explore column whose query is `column` ('aspect-country' or
    'aspect:country', 'links', 'generic', 'blend…')."""
    wanted = column.replace(":", "-")
    return [link for box in driver.find_elements("css selector", ".an-col[data-column]")
            if box.get_attribute("data-column").replace(":", "-").startswith(wanted)
            for link in box.find_elements("css selector", "a.an-title")]


def column_headings(driver) -> list[str]:
    """Explore's column headings, in page order."""
    return [e.text for e in driver.find_elements("css selector", ".an-grid .an-heading")]


def grid_seed(driver) -> str:
    """The seed whose neighbours the card grid shows (its title, or the free text)."""
    grids = driver.find_elements("css selector", ".an-grid")
    return grids[0].get_attribute("data-seed") if grids else ""
