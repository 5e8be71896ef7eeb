"""Aspects for every article, as a reader sees them in headless Chromium at 1600x1200: an event reads on by its
century and country, a work by what kind it is (each served with a setting of its own), each labelled column saying
what it shares; the seed card says where a label came from. Screenshots: test-artifacts/aspects_*.png.
"""
from __future__ import annotations

import time

import pytest

from tests.browser import buttons, column_headings, idle, shot, wait

pytestmark = pytest.mark.slow


def _open(driver, url: str) -> str:
    driver.get(url)
    wait(driver, lambda d: len(buttons(d, "card-generic")) >= 3, message=f"cards at {url}")
    idle(driver)
    time.sleep(1)
    return driver.find_element("css selector", '[data-testid="stMain"]').text


def _column_text(driver, heading: str) -> str:
    """The column's text once it is scrolled into view (a column below the fold draws its cards when seen)."""
    driver.execute_script("""
        const h = [...document.querySelectorAll('.an-heading')].find(e => e.textContent.trim() === arguments[0]);
        if (h) h.scrollIntoView({block: 'start'});""", heading)
    time.sleep(1)
    return driver.execute_script("""
        const h = [...document.querySelectorAll('.an-heading')].find(e => e.textContent.trim() === arguments[0]);
        return h ? h.closest('.an-col').innerText : '';""", heading)


def test_an_event_reads_on_by_its_century_country_and_field(server, browser):
    text = _open(browser, f"{server}/?seed=French+Revolution")
    headings = column_headings(browser)
    assert {"century space", "country space", "field space"} <= set(headings), headings
    century = _column_text(browser, "century space")
    assert "also 18th century" in century and "Napoleon" in century
    assert "ordered 10% by the century space, 90% by overall similarity" in century
    country = _column_text(browser, "country space")
    assert "also France" in country and "country: France" in country
    seed_card = browser.find_element("css selector", ".an-seed").text
    assert "century: 18th century" in seed_card and "country: France" in seed_card
    assert "not drawn as a column" not in text and "Traceback" not in text
    _column_text(browser, "century space")
    shot(browser, "aspects_french_revolution.png")


def test_a_work_reads_on_by_its_kind_and_field(server, browser):
    text = _open(browser, f"{server}/?seed=Pride+and+Prejudice")
    headings = column_headings(browser)
    assert {"field space", "kind space", "century space"} <= set(headings), headings
    assert "not drawn as a column" not in text
    assert "kind: novel" in browser.find_element("css selector", ".an-seed").text
    kind = _column_text(browser, "kind space")
    assert "also novel" in kind and "Jane Austen" in kind
    field = _column_text(browser, "field space")
    assert "also Writers" in field
    _column_text(browser, "kind space")
    shot(browser, "aspects_pride_and_prejudice.png")


def _scroll_to_top(driver) -> None:
    driver.execute_script("document.querySelector('.an-seed').scrollIntoView({block: 'start'});")
    time.sleep(0.5)


def test_the_maps_show_the_new_spaces_coloured_by_what_kind(server, browser):
    from tests.browser_maps import READ_MAPS, drawn_maps

    browser.get(f"{server}/maps?seed=French+Revolution&left=century&right=kind&colour=kind")
    wait(browser, lambda d: drawn_maps(d) == 2, timeout=600, message="the century and kind maps")
    idle(browser, timeout=600)
    time.sleep(1.5)
    maps = browser.execute_script(READ_MAPS)
    assert len(maps) == 2
    text = browser.find_element("css selector", '[data-testid="stMain"]').text
    assert "century" in text and "kind" in text and "Traceback" not in text
    shot(browser, "aspects_maps_century_kind.png")


def test_the_evaluation_page_shows_how_right_the_labels_are(server, browser):
    browser.get(f"{server}/evaluation")
    wait(browser, lambda d: "How right the labels are" in d.find_element("css selector", '[data-testid="stMain"]').text,
         timeout=300, message="the label-precision section of /evaluation")
    idle(browser)
    browser.execute_script("""
        const h = [...document.querySelectorAll('[data-testid="stMain"] *')]
            .find(e => e.children.length === 0 && e.textContent.startsWith('How right the labels are'));
        h.scrollIntoView({block: 'start'});""")
    time.sleep(1)
    text = browser.find_element("css selector", '[data-testid="stMain"]').text
    assert "kind" in text and "90.0%" in text and "birthplace" in text and "inferred from nearby articles" in text
    shot(browser, "aspects_evaluation_label_precision.png")
