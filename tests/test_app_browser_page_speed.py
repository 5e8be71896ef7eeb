"""Every page at reading speed (issue #37, item 8), as a reader sees it in headless Chromium at 1600x1200: UMAP maps of
the default pair shipped (drawn at once, said to be shipped); a map that is computed shows its progress from its first
second (a stage and the seconds so far, not a silent 0 %); Evaluation draws the open tab only (its text, table and HTML
bars), and another tab when it is opened. Screenshots: test-artifacts/speed_*.png.
"""
from __future__ import annotations

import re
import time

import pytest

from tests.browser import idle, shot, wait
from tests.browser_maps import READ_MAPS

pytestmark = pytest.mark.slow


def _main_text(driver) -> str:
    return driver.find_element("css selector", '[data-testid="stMain"]').text


def test_the_default_umap_maps_are_shipped_and_drawn_at_once(server, browser):
    browser.get(f"{server}/maps?seed=Ada+Lovelace&proj=umap")
    wait(browser, lambda d: sum(m["ready"] for m in d.execute_script(READ_MAPS)) == 2, timeout=120,
         message="two UMAP maps")
    idle(browser)
    time.sleep(1.5)
    shot(browser, "speed_umap_shipped.png")
    maps = browser.execute_script(READ_MAPS)
    assert [m["title"] for m in maps] == ["generic · UMAP, shipped", "country (aspect) · UMAP, shipped"], maps
    assert all(m["points"] == 10_033 for m in maps), maps
    text = _main_text(browser)
    assert text.count("random_state=0): shipped with AspectNav, checksum verified") == 2, text
    assert not browser.find_elements("css selector", '[data-testid="stProgress"]')


def test_a_computed_umap_map_shows_progress_from_its_first_second(server, browser):
    """A pair that is not shipped (generic beside occupation, UMAP): occupation's map is computed, its bar there at
    once, naming its stage and counting seconds; then both maps (generic's is the shipped one)."""
    browser.get(f"{server}/maps?seed=Ada+Lovelace&proj=umap&right=occupation")
    bars = '[data-testid="stProgress"]'
    start = time.monotonic()
    wait(browser, lambda d: len(d.find_elements("css selector", bars)) == 1, timeout=60, message="occupation's bar")
    first = [p.text for p in browser.find_elements("css selector", bars)]
    shot(browser, "speed_umap_progress_first.png")
    assert time.monotonic() - start < 15, "the bars came late"  # the page's first run opens the engine
    assert all(re.search(r"UMAP map of 10,033 articles in occupation.*: \w[\w ]* \(\d+ s\), \d+%$", p)
               for p in first), first
    assert not any("waiting" in p for p in first), first
    seconds = lambda texts: [int(re.search(r"\((\d+) s\), \d+%$", t).group(1)) for t in texts]  # noqa: E731
    time.sleep(3)
    later = [p.text for p in browser.find_elements("css selector", bars)]
    if later:  # still computing: the seconds moved, so the bar is alive even where the share is not
        shot(browser, "speed_umap_progress_later.png")
        assert max(seconds(later)) > max(seconds(first)), (first, later)
    wait(browser, lambda d: _main_text(d).count("projected just now, cached for next time") == 1, timeout=600,
         message="the occupation map computed (generic's is shipped)")
    idle(browser, timeout=600)
    time.sleep(1.5)
    shot(browser, "speed_umap_computed.png")
    assert not browser.find_elements("css selector", bars)
    assert [m["points"] for m in browser.execute_script(READ_MAPS)] == [10_033, 10_033]


def test_evaluation_draws_the_open_tab_s_chart_and_another_when_opened(server, browser):
    browser.get(f"{server}/evaluation")
    tabs = wait(browser, lambda d: d.find_elements("css selector", '[role="tab"]'), message="aspect tabs")
    idle(browser)
    time.sleep(1)

    def charts_in_panels():
        return browser.execute_script("""return [...document.querySelectorAll('[role="tabpanel"]')].map(p => [
            p.offsetParent !== null, p.querySelectorAll('figure.an-bars .an-line').length > 0])""")

    panels = charts_in_panels()
    assert [drawn for shown, drawn in panels if shown] == [True], panels  # the open tab's chart
    assert sum(drawn for _, drawn in panels) == 1, panels  # and no hidden tab's
    panel = next(p for p in browser.find_elements("css selector", '[role="tabpanel"]') if p.is_displayed())
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'});", tabs[0])
    time.sleep(0.5)
    shot(browser, "speed_evaluation_first_tab.png")
    assert "MRR@10 (mean reciprocal rank)" in panel.text

    second = browser.find_elements("css selector", '[role="tab"]')[1]
    label = second.text
    second.click()
    wait(browser, lambda d: [drawn for shown, drawn in charts_in_panels() if shown] == [True], timeout=60,
         message=f"the {label} tab's chart")
    idle(browser)
    time.sleep(1)
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'});",
                           browser.find_elements("css selector", '[role="tab"]')[1])
    time.sleep(0.5)
    shot(browser, "speed_evaluation_second_tab.png")
    title = browser.execute_script("""const p = [...document.querySelectorAll('[role="tabpanel"]')]
        .find(p => p.offsetParent !== null); return p.querySelector('figure.an-bars figcaption').innerText;""")
    assert title.startswith(label), (title, label)


HEALTH_PROBES = """return performance.getEntriesByType('resource').map(r => r.name)
    .filter(name => name.endsWith('/_stcore/health'));"""


def _opened_with_one_probe(browser, address: str, expected_probe: str, picture: str) -> None:
    """`address` opened afresh is interactive (its title search enabled) after one health probe, at `expected_probe`:
    the frontend was told the page's address is a page (app_server/page_address_hint.py), not a base path to try."""
    browser.get(address)
    wait(browser, lambda d: d.find_elements("css selector", '[class*="st-key-browse_query"] input'),
         message="the Corpus page's title search")
    idle(browser)
    assert browser.find_element("css selector", '[class*="st-key-browse_query"] input').is_enabled()
    assert browser.execute_script(HEALTH_PROBES) == [expected_probe]
    assert browser.find_elements("css selector", "figure.an-bars .an-line"), "the label charts drawn"
    time.sleep(0.5)
    shot(browser, picture)


def test_a_page_opened_afresh_connects_at_the_first_try(server, browser):
    """Before the hint, /corpus asked /corpus/_stcore/health first, got a 404 and waited 100 ms to try the root."""
    _opened_with_one_probe(browser, f"{server}/corpus", f"{server}/_stcore/health", "speed_corpus_one_probe.png")
    browser.find_element("css selector", '[data-testid="stSidebarNav"] a[href$="/maps"]').click()
    wait(browser, lambda d: len(d.execute_script(READ_MAPS)) == 2, message="the maps after a page change")
    assert "/maps?" in browser.current_url and browser.execute_script(HEALTH_PROBES) == [f"{server}/_stcore/health"]


def test_under_a_base_path_a_page_connects_below_it(tmp_path):
    """A server with `--server.baseUrlPath aspectnav` (and so a proxy that keeps its prefix): /aspectnav/corpus
    connects at /aspectnav/_stcore, at the first try, and its root page still opens."""
    from tests.browser import chromium, served_page

    with served_page(tmp_path / "home", tmp_path / "base.log", "streamlit-base-path.log",
                     options=("--server.baseUrlPath", "aspectnav")) as (url, _), \
            chromium(tmp_path / "profile") as driver:
        driver.set_window_size(1600, 1343)
        assert url.endswith("/aspectnav")
        _opened_with_one_probe(driver, f"{url}/corpus", f"{url}/_stcore/health", "speed_base_path_corpus.png")
        driver.get(f"{url}/?seed=Marie+Curie")
        wait(driver, lambda d: d.find_elements("css selector", "a.an-title"), message="Explore's cards at the base")
        assert driver.execute_script(HEALTH_PROBES) == [f"{url}/_stcore/health"]
