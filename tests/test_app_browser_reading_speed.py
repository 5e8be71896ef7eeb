"""Explore at reading speed, in headless Chromium (issue #24): a card's title is a link that reseeds and brings
the new seed's card into view; cards stay readable at 10 columns per row and on a 420 px phone (one column at a
time, *your mix* first); a corpus imported while the app runs opens in a fresh session without a restart.
Screenshots: test-artifacts/reading_*.png.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from selenium.webdriver.support.ui import Select

from tests.browser import (REPO, buttons, card_links, chromium, column_headings, grid_seed, idle, shot, streamlit_server,
                           wait)

pytestmark = pytest.mark.slow


def _open(driver, url: str, seed: str) -> None:
    driver.get(url)
    wait(driver, lambda d: grid_seed(d) == seed and len(card_links(d, "generic")) >= 3, message=f"cards of {seed}")
    idle(driver)


def _scroll_offset(driver) -> float:
    return driver.execute_script("""
        const panes = [...document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"]')];
        return Math.max(window.scrollY, ...panes.map(p => p.scrollTop));""")


def test_a_click_deep_in_the_page_reseeds_and_shows_the_new_seed_at_the_top(server, browser):
    _open(browser, f"{server}/?seed=Marie+Curie&k=8", "Marie Curie")
    title = card_links(browser, "generic")[-1]  # the last card of its column: far below the seed's card
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", title)
    time.sleep(0.5)
    assert _scroll_offset(browser) > 800
    chosen = title.text.strip()
    shot(browser, "reading_before_deep_click.png")
    title.click()
    wait(browser, lambda d: grid_seed(d) == chosen, message=f"{chosen} became the seed")
    idle(browser)
    seed_heading = browser.find_element("css selector", '.an-seed h3')
    assert seed_heading.text.strip() == chosen
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top;", seed_heading)
    assert 0 <= top < browser.execute_script("return window.innerHeight;") / 2, top  # in view, near the top
    assert _scroll_offset(browser) < 100
    assert chosen in browser.current_url.replace("+", " ")
    shot(browser, "reading_after_deep_click.png")


def test_a_first_click_draws_no_placeholder_and_keeps_the_layout(server, browser):
    """The trail's buttons are on the page from the first seed: a first click used to add them, and the page
    showed grey placeholders while their code loaded (~0.1 s on a busy 2-core machine)."""
    _open(browser, f"{server}/?seed=Marie+Curie", "Marie Curie")
    assert [b.text.split("\n")[-1] for b in buttons(browser, "crumb-")] == ["Marie Curie"]
    assert not buttons(browser, "back")[0].is_enabled() and not buttons(browser, "forward")[0].is_enabled()
    shot(browser, "reading_first_seed_trail.png")
    top = browser.execute_script(
        "return document.querySelector('.an-seed').getBoundingClientRect().top;")
    browser.execute_script("""
        window.__placeholders = 0;
        new MutationObserver(() => { if (document.querySelector('[data-testid="stSkeleton"]')) window.__placeholders++; })
          .observe(document.body, {subtree: true, childList: true});""")
    title = card_links(browser, "generic")[1]
    chosen = title.text.strip()
    title.click()
    wait(browser, lambda d: grid_seed(d) == chosen, message=f"{chosen} became the seed")
    idle(browser)
    assert browser.execute_script("return window.__placeholders;") == 0
    after = browser.execute_script(
        "return document.querySelector('.an-seed').getBoundingClientRect().top;")
    assert abs(after - top) < 2, (top, after)  # the seed's card did not move down for a new row of controls
    assert [b.text.split("\n")[-1] for b in buttons(browser, "crumb-")] == ["Marie Curie", chosen]


def test_a_title_is_a_link_with_the_articles_own_address(server, browser):
    _open(browser, f"{server}/?seed=Marie+Curie", "Marie Curie")
    link = card_links(browser, "generic")[0]
    assert link.tag_name == "a" and link.get_attribute("href").startswith(f"{server}/?seed=")
    style = browser.execute_script("const s = getComputedStyle(arguments[0]); return [s.fontWeight, s.cursor];", link)
    assert int(style[0]) >= 600 and style[1] == "pointer"
    reads = browser.find_elements("css selector", ".an-card a.an-read")
    assert reads and all(r.get_attribute("href").startswith("https://en.wikipedia.org/wiki/") for r in reads)
    assert all(r.get_attribute("target") == "_blank" and "noopener" in r.get_attribute("rel") for r in reads)


def test_ten_columns_per_row_stay_readable(server, browser):
    _open(browser, f"{server}/?seed=Marie+Curie", "Marie Curie")
    browser.execute_script("window.scrollTo(0, 0);")
    Select(browser.find_element("css selector", ".an-per-row select")).select_by_value("10")
    idle(browser)
    wait(browser, lambda d: d.execute_script(
        "return getComputedStyle(document.querySelector('.an-columns')).getPropertyValue('--per-row')") == "10",
        message="10 columns per row")
    widths = browser.execute_script(
        "return [...document.querySelectorAll('.an-col')].map(c => c.getBoundingClientRect().width);")
    assert min(widths) >= 170, widths  # never squeezed below 11rem: the grid wraps instead
    chips = browser.execute_script("""
        return [...document.querySelectorAll('.an-chip')].map(c => [c.scrollWidth <= c.clientWidth + 1,
            c.getBoundingClientRect().right <= c.closest('.an-card, .an-seed').getBoundingClientRect().right + 1]);""")
    assert chips and all(fits and inside for fits, inside in chips), chips
    shot(browser, "reading_ten_per_row.png")
    # cards per column sit beside it: the server ranks again, and the URL keeps it
    Select(browser.find_element("css selector", ".an-k select")).select_by_value("3")
    wait(browser, lambda d: len(card_links(d, "generic")) == 3 and "k=3" in d.current_url, message="3 cards per column")
    idle(browser)
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('.an-columns')).getPropertyValue('--per-row')") == "10"


def test_on_a_phone_one_column_at_a_time_your_mix_first(server, tmp_path):
    with chromium(tmp_path / "phone") as phone:
        phone.set_window_size(420, 900)
        _open(phone, f"{server}/?seed=Marie+Curie", "Marie Curie")
        chooser = phone.find_element("css selector", ".an-chooser select")
        assert chooser.is_displayed()
        options = [o.text for o in chooser.find_elements("css selector", "option")]
        assert options[0] == "your mix" and "generic" in options, options
        shown = [c for c in phone.find_elements("css selector", ".an-col") if c.is_displayed()]
        assert len(shown) == 1 and shown[0].get_attribute("data-column").startswith("blend:")
        wide = phone.execute_script("return document.documentElement.scrollWidth;")
        assert wide <= 420, wide  # nothing runs off the right edge
        first_card = next(c for c in phone.find_elements("css selector", ".an-col .an-card") if c.is_displayed())
        phone.execute_script("arguments[0].scrollIntoView({block: 'center'});", first_card)
        time.sleep(0.5)
        assert phone.execute_script("const r = arguments[0].getBoundingClientRect(); "
                                    "return r.top >= 0 && r.bottom <= window.innerHeight;", chooser)  # sticky
        shot(phone, "reading_phone_mix.png")
        from selenium.webdriver.support.ui import Select

        Select(chooser).select_by_visible_text("generic")
        wait(phone, lambda d: [c.get_attribute("data-column") for c in d.find_elements("css selector", ".an-col")
                               if c.is_displayed()] == ["generic"], message="the chooser shows generic")
        shot(phone, "reading_phone_generic.png")


def test_a_corpus_imported_while_the_app_runs_opens_in_a_fresh_session(tmp_path):
    """The CLI imports a corpus while the server runs; the first session opens it (its spaces encode), and every
    later session gets it too, without a restart (it used to show CacheReplayClosureError there)."""
    topics = ["river", "mountain", "painter", "composer", "city"]
    lines = [json.dumps({"id": f"a{i}", "title": f"Article {i}", "text": f"Article {i} is a {topics[i % 5]} of note "
                         f"number {i}, described in the sources of {topics[(i + 1) % 5]} studies.",
                         "aspects": {"kind": [topics[i % 5]]}}) for i in range(40)]
    source = tmp_path / "imported.jsonl"
    source.write_text("\n".join(lines) + "\n")
    home = tmp_path / "home"
    with streamlit_server(home, tmp_path / "s.log", "streamlit_imported.log") as url:
        env = {"ASPECTNAV_HOME": str(home), "HF_HUB_OFFLINE": "1"}
        import os

        subprocess.run([sys.executable, "-m", "explore", "corpus", "import", str(source), "--name", "imported"],
                       cwd=REPO, env=os.environ | env, check=True, capture_output=True)
        for session in range(3):
            with chromium(tmp_path / f"profile-{session}") as driver:
                _open(driver, f"{url}/?corpus=imported&seed=Article+3", "Article 3")
                assert not driver.find_elements("css selector", '[data-testid="stException"]')
                assert "CacheReplayClosureError" not in driver.find_element("css selector", "body").text
                driver.get(f"{url}/maps?corpus=imported&seed=Article+3")
                idle(driver)
                assert not driver.find_elements("css selector", '[data-testid="stException"]')
                if session == 2:
                    shot(driver, "reading_imported_maps_third_session.png")
