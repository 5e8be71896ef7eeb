"""What a reader trips on (issue #37), in headless Chromium at 1600x1200 against `streamlit run serve.py`: the title
search offers only what was typed, an inferred chip says what "inferred" means, the keyboard keeps its place on the
panel's controls, a free-text seed gets its own mix, and the maps' region names neither overlap nor get cut.
Screenshots: test-artifacts/trips_*.png.
"""
from __future__ import annotations

import re

import time

import pytest

from tests.browser import buttons, idle, shot, subheaders, wait
from tests.browser_maps import drawn_maps
from tests.test_app_browser_navigation import search_box, type_in_search

pytestmark = pytest.mark.slow


def offered(driver) -> list[str]:
    """The title search's suggestions, in order ("United Kingdom · “UK”" when an alias matched)."""
    return [b.text.strip() for b in buttons(driver, "suggestion-") if b.text.strip()
            and not b.text.strip().startswith("Read about")]


def _open(driver, url: str) -> None:
    driver.get(url)
    wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, message=f"the columns at {url}")
    idle(driver)
    time.sleep(0.5)


def test_the_search_offers_what_the_reader_typed_and_the_article_they_mean_first(server, browser):
    driver = browser
    _open(driver, f"{server}/?seed=Marie+Curie")
    cases = {  # query → what must come first, what must never be offered
        "uk": (["United Kingdom · “UK”", "Ukraine"], ["Industrialisation", "Skepticism", "Air conditioning",
                                                      "Palaeography", "Peanut"]),
        "usa": (["United States · “USA”"], ["Jerusalem", "Crusades", "One Thousand and One Nights"]),
        "mozart": (["Wolfgang Amadeus Mozart"], ["Moat"]),
        "gandhi": (["Mahatma Gandhi"], []),
    }
    for query, (first, never) in cases.items():
        type_in_search(driver, query)
        wait(driver, lambda d: offered(d)[:len(first)] == first and search_box(d).get_attribute("value") == query,
             timeout=30, message=f"{first} first for {query!r} (offered: {offered(driver)})")
        idle(driver)
        shown = offered(driver)
        assert not [title for title in shown if title.split(" · ")[0] in never], shown
        assert not any("“UK”" in title or "“US”" in title for title in shown if not title.startswith("United")), shown
        if query in ("uk", "usa", "gandhi"):
            shot(driver, f"trips_search_{query}.png")
    from selenium.webdriver.common.keys import Keys

    search_box(driver).send_keys(Keys.ENTER)  # Enter opens the first suggestion: the one readers mean
    wait(driver, lambda d: "Mahatma Gandhi" in subheaders(d), message="Enter on 'gandhi' opens Mahatma Gandhi")


def test_an_inferred_chip_belongs_to_its_own_article_and_says_what_inferred_means(server, browser):
    driver = browser
    _open(driver, f"{server}/?seed=Marie+Curie")  # her topic, People, is inferred: the vital list files her nowhere
    legend = driver.find_element("css selector", ".an-seed .an-legend").text
    assert legend.startswith("Labels marked inferred are not in the source data") and "97%" in legend
    seed_chip = next(c for c in driver.find_elements("css selector", ".an-seed .an-chip.an-inferred"))
    assert "Marie Curie's topic is inferred" in seed_chip.get_attribute("title")
    chips = driver.execute_script("""
        return [...document.querySelectorAll('.an-card .an-chip.an-shared')].map(chip => [
            chip.closest('.an-card').querySelector('.an-title').textContent, chip.textContent,
            chip.classList.contains('an-inferred'), chip.title]);""")
    topics = [(title, text, inferred, help) for title, text, inferred, help in chips if text.startswith("topic:")]
    assert any(not inferred and text == "topic: People" for _, text, inferred, _ in topics), topics  # a plain label
    for title, text, inferred, help in topics:  # marked only where that card's own article has it inferred
        assert inferred == text.endswith("(inferred)")
        assert (help.startswith(f"{title}'s topic is inferred: not in the source data") if inferred else help == "")
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).move_to_element(seed_chip).perform()
    time.sleep(0.3)
    shot(driver, "trips_inferred_chip.png")


def test_the_keyboard_keeps_its_place_on_a_slider_and_columns_per_row_live_in_the_url(server, browser):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver = browser
    _open(driver, f"{server}/?seed=Marie+Curie")
    slider = driver.find_element("css selector", ".an-links input[type=range]")
    start, step = float(slider.get_attribute("value")), float(slider.get_attribute("step"))
    driver.execute_script("arguments[0].focus();", slider)
    for press in range(1, 4):
        driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        wait(driver, lambda d: "blend=" in d.current_url and abs(float(
            d.find_element("css selector", ".an-links input[type=range]").get_attribute("value"))
            - (start + press * step)) < 1e-6, timeout=30, message=f"the links share {press} step(s) on")
        idle(driver)
    focused = driver.execute_script("const a = document.activeElement; return [a.tagName, a.type, a.dataset.focus];")
    assert focused == ["INPUT", "range", "links"], focused  # still the slider, after three redraws
    assert abs(float(driver.find_element("css selector", ".an-links input[type=range]").get_attribute("value"))
               - (start + 3 * step)) < 1e-6
    shot(driver, "trips_slider_focused.png")

    per_row = driver.find_element("css selector", ".an-per-row select")
    Select(per_row).select_by_value("3")
    wait(driver, lambda d: "cols=3" in d.current_url, timeout=30, message="columns per row in the URL")
    idle(driver)
    assert driver.execute_script("return document.activeElement.dataset.focus;") == "an-per-row"
    Select(driver.find_element("css selector", ".an-k select")).select_by_value("6")
    wait(driver, lambda d: "k=6" in d.current_url, timeout=30, message="cards per column in the URL")
    idle(driver)
    assert driver.execute_script("return document.activeElement.dataset.focus;") == "an-k"

    def pill(d):
        return next(p for p in d.find_elements("css selector", ".an-pill") if p.text.strip() == "union")

    driver.execute_script("arguments[0].focus();", pill(driver))
    driver.switch_to.active_element.send_keys(Keys.SPACE)  # a pill pressed from the keyboard
    wait(driver, lambda d: pill(d).get_attribute("aria-pressed") == "true", timeout=30, message="union in the mix")
    idle(driver)
    assert driver.execute_script("return document.activeElement.dataset.focus;") == "pill:union"
    driver.get(driver.current_url)  # a reload (or a shared link) keeps the layout
    wait(driver, lambda d: d.find_elements("css selector", ".an-per-row select"), message="the panel again")
    idle(driver)
    assert Select(driver.find_element("css selector", ".an-per-row select")).first_selected_option.text == "3"


def test_a_free_text_seed_gets_its_own_mix_said_in_its_column(server, browser):
    driver = browser
    _open(driver, f"{server}/?text=a+mountain+in+the+Alps")
    headings = [e.text.strip() for e in driver.find_elements("css selector", ".an-heading")]
    assert headings[:2] == ["generic", "your mix"], headings
    column = next(c for c in driver.find_elements("css selector", ".an-col") if
                  c.find_element("css selector", ".an-heading").text.strip() == "your mix")
    assert "Free text has no labels to pick spaces by" in column.text and re.search(r"(59|60|61)% generic similarity", column.text)  # 2-decimal weights, rounded
    assert len(column.find_elements("css selector", ".an-card")) >= 3
    shot(driver, "trips_free_text_mix.png")


def test_region_names_on_a_centred_map_neither_overlap_nor_leave_the_map(server, browser):
    driver = browser
    driver.get(f"{server}/maps?seed=Marie+Curie")
    wait(driver, lambda d: drawn_maps(d) >= 2, message="both maps")
    idle(driver)
    time.sleep(2)
    boxes = driver.execute_script("""
        return [...document.querySelectorAll('.an-map')].map(chart => {
            const area = chart.querySelector('.an-map-plot').getBoundingClientRect();
            const names = [...chart.querySelectorAll('.an-map-region')].filter(a => !a.hidden)
                .map(a => { const b = a.getBoundingClientRect(); return [a.textContent, b.left, b.right, b.top, b.bottom]; });
            return [[area.left, area.right, area.top, area.bottom], names];
        });""")
    assert len(boxes) >= 2
    for (left, right, top, bottom), names in boxes:
        assert names, "regions are named"
        for name, x0, x1, y0, y1 in names:
            assert left - 1 <= x0 and x1 <= right + 1 and top - 1 <= y0 and y1 <= bottom + 1, (name, left, right)
        for n, (name, *a) in enumerate(names):
            for other, *b in names[n + 1:]:
                assert not (a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]), (name, other)
    shot(driver, "trips_maps_regions.png")


def test_the_corpus_pages_reader_says_what_inferred_means(server, browser):
    driver = browser
    driver.get(f"{server}/corpus")
    box = wait(driver, lambda d: d.find_element("css selector", ".st-key-browse_query input"), message="the search box")
    idle(driver)
    box.send_keys("Marie Curie\n")
    wait(driver, lambda d: "topic: People · inferred" in d.find_element("css selector", '[data-testid="stMain"]').text,
         timeout=30, message="Marie Curie's labels")
    idle(driver)
    main = driver.find_element("css selector", '[data-testid="stMain"]').text
    assert "Labels marked inferred are not in the source data" in main
    shot(driver, "trips_corpus_inferred.png")


def test_the_maps_colour_a_famous_article_by_its_inferred_topic_and_say_so(server, browser):
    driver = browser
    driver.get(f"{server}/maps?seed=Marie+Curie&right=topic&colour=topic")
    wait(driver, lambda d: drawn_maps(d) >= 2, message="both maps")
    idle(driver)
    time.sleep(2)
    found = driver.execute_script("""
        return Array.from(document.querySelectorAll('.an-map')).map(m => {
            const trace = m.anMap.traces.find(t => !['★ seed', '◇ neighbours', 'clicked', 'selected'].includes(t.name)
                && Array.from(t.customdata || []).includes('Marie_Curie'));
            if (!trace) return null;
            const at = Array.from(trace.customdata).indexOf('Marie_Curie');
            return [trace.name, Array.from(trace.hovertext)[at]];
        });""")
    for name, hover in found:  # in People's colour, the hover saying the label is inferred
        assert name.startswith("People (") and "topic: People (inferred)" in hover, (name, hover)
    main = driver.find_element("css selector", '[data-testid="stMain"]').text
    assert "Marie Curie has no topic label" not in main and "no topic label ·" not in main
    assert "takes the label inferred for it" in main
    shot(driver, "trips_maps_inferred_topic.png")
