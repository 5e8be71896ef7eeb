"""Read next worth reading, in headless Chromium: the columns are relevant first, then the aspect. The seeds a reader
named when every column shared the seed's label and little else (DNA's topic column read Tomato and Spider), now with
cards about the seed; a column that would only repeat generic is left out in words; a nickname's link comes last.
Screenshots: test-artifacts/read_next_*.png.
"""
from __future__ import annotations

import time

import pytest

from tests.browser import card_links, column_headings, grid_seed, idle, shot, wait

pytestmark = pytest.mark.slow


def _open(driver, server: str, seed: str, extra: str = "") -> None:
    driver.get(f"{server}/?seed={seed.replace(' ', '+')}{extra}")
    wait(driver, lambda d: grid_seed(d) == seed and d.find_elements("css selector", ".an-col a.an-title"),
         message=f"columns of {seed}")
    idle(driver)
    time.sleep(0.5)


def _titles(driver, column: str) -> list[str]:
    return [link.text for link in card_links(driver, column)]


def _mix_column(driver) -> str:
    return next(box.get_attribute("data-column") for box in driver.find_elements("css selector", ".an-col[data-column]")
                if box.get_attribute("data-column").startswith("blend"))


@pytest.mark.parametrize("seed, unrelated", [
    ("DNA", {"Tomato", "Spider"}),
    ("Water", {"Molecular cloud", "Sodium", "Oxide"}),
    ("Buddhism", {"Human", "African traditional religions"}),
    ("Cleopatra", {"Edmund Burke", "Rupert Murdoch", "Talcott Parsons", "Louis B. Mayer"}),
])
def test_the_topic_column_and_the_mix_show_what_the_seed_is_about(server, browser, seed, unrelated):
    _open(browser, server, seed)
    assert "topic space" in column_headings(browser) and "your mix" in column_headings(browser)
    generic = _titles(browser, "generic")
    for column in ("aspect:topic", _mix_column(browser)):
        titles = _titles(browser, column)
        assert len(titles) >= 5 and not unrelated & set(titles), (column, titles)
        assert set(titles) & set(generic), (column, titles)  # about the seed: it shares articles with generic
    # the topic column still shares the seed's topic: every card of it says so in a chip, none says "no shared"
    chips = browser.execute_script("""
        const col = [...document.querySelectorAll('.an-col[data-column]')]
            .find(c => c.dataset.column === 'aspect:topic');
        return [...col.querySelectorAll('.an-card')].map(card =>
            [card.querySelectorAll('.an-chip:not(.an-missing)').length, card.querySelectorAll('.an-missing').length]);
    """)
    assert sum(shared > 0 and not missing for shared, missing in chips) >= 4, chips
    shot(browser, f"read_next_{seed.lower()}.png")
    browser.execute_script("""document.querySelector('.an-col[data-column="aspect:topic"]')
        .scrollIntoView({block: 'start'});""")
    time.sleep(0.4)
    shot(browser, f"read_next_{seed.lower()}_topic.png")  # the topic column, wherever its row is


def test_a_nickname_link_comes_last_and_a_seed_without_labels_keeps_generic_links_and_the_mix(server, browser):
    _open(browser, server, "Paris", "&k=8")
    links = _titles(browser, "links")
    assert "France" in links[:2] and links.index("Light") > links.index("Age of Enlightenment"), links
    shot(browser, "read_next_paris.png")
    _open(browser, server, "Renaissance")
    headings = column_headings(browser)
    assert headings[:3] == ["Wikipedia links", "generic", "your mix"] and "topic space" not in headings
    text = browser.find_element("css selector", '[data-testid="stMain"]').text
    assert "Renaissance has no country, occupation or topic label" in text
    mix = _titles(browser, _mix_column(browser))
    assert len(mix) >= 5 and set(mix[:3]) & set(_titles(browser, "generic"))
    shot(browser, "read_next_renaissance.png")


def test_a_column_that_would_repeat_generic_is_left_out_in_words(server, browser):
    _open(browser, server, "José Martí")
    headings = column_headings(browser)
    assert "intersection space" not in headings and "country space" in headings
    text = browser.find_element("css selector", '[data-testid="stMain"]').text
    assert "Few articles close to José Martí share its country and occupation, so the intersection space is left out" \
        in text
    shot(browser, "read_next_left_out.png")
