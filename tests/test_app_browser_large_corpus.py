"""A large corpus in the app, as a reader sees it in headless Chromium: Explore opens a seed of the columnar
corpus (benchmarks/million_corpus.py) with its links and generic columns, a recombined article by its title,
and Maps draws a sample with the seed placed. By default a 200,000-article corpus is made in the test's data
home (minutes); ASPECTNAV_LARGE_HOME=<data home holding the corpus "million"> serves that one instead (the
million-article run of benchmarks/NOTES.md). Screenshots: test-artifacts/large_*.png."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser import buttons, column_headings, idle, served_page, shot, wait
from tests.browser_maps import READ_MAPS, drawn_maps

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    """(base URL, corpus name, its row count) of a server over a data home holding a large corpus."""
    given = os.environ.get("ASPECTNAV_LARGE_HOME")
    if given:
        home, name = Path(given), "million"
    else:
        home, name = tmp_path_factory.mktemp("large-home"), "large"
        from benchmarks.common import environment
        from benchmarks.million_corpus import make_million_corpus

        with environment(ASPECTNAV_HOME=str(home)):
            make_million_corpus(200_000, name)
    from explore.corpus.columnar_store import load_columnar

    rows = len(load_columnar(home / "corpora" / name))
    with served_page(home, tmp_path_factory.mktemp("large-log") / "streamlit.log", "streamlit_large.log") as (url, _):
        yield url, name, rows
    if not given:  # made here, 0.6 GB: the module's tests are done with it, and the disk may be a shared one
        shutil.rmtree(home, ignore_errors=True)


def _main_text(driver) -> str:
    return driver.find_element("css selector", '[data-testid="stMain"]').text


def test_explore_opens_a_seed_of_the_large_corpus(large, browser):
    url, name, _ = large
    started = time.monotonic()
    browser.get(f"{url}/?corpus={name}&seed=Marie+Curie")
    wait(browser, lambda d: len(buttons(d, "card-generic")) >= 3, timeout=600, message="generic cards")
    idle(browser, timeout=120)
    first_open = time.monotonic() - started
    shot(browser, "large_explore_marie_curie.png")
    headings = column_headings(browser)
    assert any(h.startswith("Links") or "link" in h.lower() for h in headings), headings
    assert any("generic" in h.lower() or "similar" in h.lower() for h in headings), headings
    text = _main_text(browser)
    assert "Marie Curie" in text and "Pierre Curie" in text
    assert first_open < 600


def test_a_recombined_article_opens_by_its_title(large, browser):
    url, name, _ = large
    browser.get(f"{url}/?corpus={name}&seed={quote('S150000')}")
    wait(browser, lambda d: len(buttons(d, "card-generic")) >= 3, timeout=300, message="generic cards of S150000")
    idle(browser, timeout=120)
    title = browser.find_element("css selector", '[data-testid="stMain"] h3').text
    assert " · " in title, title
    shot(browser, "large_explore_recombined.png")


def test_maps_draw_a_sample_with_the_seed_placed(large, browser):
    url, name, rows = large
    browser.get(f"{url}/maps?corpus={name}&seed=Marie+Curie")
    wait(browser, lambda d: drawn_maps(d) >= 1, timeout=900,
         message="a map of the large corpus")
    idle(browser, timeout=300)
    time.sleep(2)
    shot(browser, "large_maps_marie_curie.png")
    seeds = [len(plot["seed"]["x"]) for plot in browser.execute_script(READ_MAPS)]
    assert seeds and all(count == 1 for count in seeds), seeds
    assert "random sample" in _main_text(browser).lower() and f"{rows:,}" in _main_text(browser)
