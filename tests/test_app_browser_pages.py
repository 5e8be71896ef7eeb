"""Issue #12 point 7 in a real headless Chromium at 1600x1200: Explore shows no developer hint; the
Evaluation page reads (one aspect per tab, metrics named and explained, nothing clipped, no "None"); the
Corpus page searches first, says when it caps its matches, keeps chart titles clear of the toolbar, and
opens Explore in a new tab. Screenshots: test-artifacts/pages_*.png.
"""
from __future__ import annotations

import time

import pytest

from tests.browser import buttons, idle, shot, wait

pytestmark = pytest.mark.slow

MAIN = '[data-testid="stMain"]'


def _main_text(driver) -> str:
    return driver.find_element("css selector", MAIN).text


def _scroll_to(driver, element, margin: int = 80) -> None:
    """Scroll the main area so that `element` sits `margin` px below the top of the page."""
    driver.execute_script("""
        const [el, margin] = arguments;
        const main = document.querySelector('[data-testid="stMain"]');
        main.scrollBy(0, el.getBoundingClientRect().top - margin);""", element, margin)
    time.sleep(0.4)


def _overlaps(a: dict, b: dict) -> bool:
    return (a["width"] > 0 and b["width"] > 0 and a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


RECT = "const r = arguments[0].getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height};"


def test_explore_shows_no_developer_hint(server, browser):
    driver = browser
    driver.get(f"{server}/?seed=Marie+Curie")
    wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, message="generic column")
    idle(driver)
    text = _main_text(driver)
    assert "Marie Curie" in text and "python -m" not in text and "No space yet" not in text
    shot(driver, "pages_explore_no_hint.png")


def test_evaluation_one_aspect_per_tab_nothing_clipped(server, browser):
    driver = browser
    driver.get(f"{server}/evaluation")
    tabs = wait(driver, lambda d: d.find_elements("css selector", '[role="tab"]'), message="aspect tabs")
    idle(driver)
    labels = [tab.text for tab in tabs]
    assert labels[:3] == ["country", "occupation", "topic"] and "country or occupation" in labels
    box = driver.find_element("css selector", ".st-key-eval_report")
    picker = " ".join([box.text, *(i.get_attribute("value") or "" for i in box.find_elements("css selector", "input"))])
    assert "vital — main comparison of the spaces" in picker and "assets/reports" not in picker, picker
    shot(driver, "pages_evaluation_top.png")
    for index, label in enumerate(labels):
        tab = driver.find_elements("css selector", '[role="tab"]')[index]
        tab.click()
        idle(driver)
        panel = wait(driver, lambda d: next((p for p in d.find_elements("css selector", '[role="tabpanel"]')
                                            if p.is_displayed()), None), message=f"tab {label}")
        text = panel.text
        assert "MRR@10 (mean reciprocal rank)" in text and "MAP@10 (mean average precision)" in text
        assert "None" not in text and "nan" not in text.split()
        table = panel.find_element("css selector", '[data-testid="stTable"]')
        clipped = driver.execute_script(
            "const t = arguments[0]; return [t.scrollWidth - t.clientWidth, "
            "[...t.querySelectorAll('th')].filter(h => h.scrollWidth > h.clientWidth + 1).map(h => h.innerText)];",
            table)
        assert clipped[0] <= 1 and clipped[1] == [], f"tab {label}: table clipped {clipped}"
        if ":" not in label and label in ("country", "occupation", "topic"):
            assert "Overlap@50" in text
        else:
            assert "n/a: measured in the tabs of one aspect and of the seed's own aspects" in text
        assert "Wikipedia links" in text and "union space" in text  # rows named as Explore names its columns
        _scroll_to(driver, driver.find_element("css selector", '[role="tablist"]'))
        shot(driver, "pages_evaluation.png" if index == 0 else f"pages_evaluation_{index}.png")

    # What the numbers mean (AgTS in plain words), and the maintainers' commands, each behind an expander.
    for title, expected in (("What the numbers mean", "Spearman correlation"),
                            ("For maintainers", "python -m training")):
        summary = next(s for s in driver.find_elements("css selector", '[data-testid="stExpander"] summary')
                       if title in s.text)
        _scroll_to(driver, summary)
        summary.click()
        wait(driver, lambda d: expected in _main_text(d), timeout=180, message=f"{title} opened")
        idle(driver, timeout=180)
    _scroll_to(driver, summary, margin=300)
    shot(driver, "pages_evaluation_maintainers.png")
    _scroll_to(driver, next(s for s in driver.find_elements("css selector", '[data-testid="stExpander"] summary')
                            if "What the numbers mean" in s.text), margin=20)
    assert "MRR@10 (mean reciprocal rank of the first relevant article in the top 10)" in _main_text(driver)
    shot(driver, "pages_evaluation_meanings.png")


def test_corpus_search_first_capped_titles_clear_and_new_tab_link(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver = browser
    driver.get(f"{server}/corpus")
    wait(driver, lambda d: len(d.find_elements("css selector", ".js-plotly-plot")) >= 2, message="label charts")
    idle(driver)
    main = _main_text(driver)
    assert main.index("Find an article") < main.index("Aspect labels")

    # Hovering a chart shows plotly's and Streamlit's toolbars: neither may cover the chart's title.
    chart = driver.find_elements("css selector", ".js-plotly-plot")[1]
    ActionChains(driver).move_to_element(chart).perform()
    time.sleep(0.8)
    title = driver.execute_script(RECT, chart.find_element("css selector", ".gtitle"))
    toolbars = [driver.execute_script(RECT, bar) for bar in
                driver.find_elements("css selector", '.modebar-container, [data-testid="stElementToolbar"]')
                if bar.is_displayed()]
    assert toolbars and not [bar for bar in toolbars if _overlaps(title, bar)], (title, toolbars)
    shot(driver, "pages_corpus_chart_hover.png")
    driver.execute_script(f"document.querySelector('{MAIN}').scrollTo(0, 0)")
    ActionChains(driver).move_by_offset(-400, 0).perform()
    time.sleep(0.5)
    shot(driver, "pages_corpus.png")

    search = driver.find_element("css selector", ".st-key-browse_query input")
    search.send_keys("war", Keys.ENTER)
    wait(driver, lambda d: "Showing 20 of" in _main_text(d), message="capped matches")
    idle(driver)
    radio = driver.find_element("css selector", ".st-key-browse_choice")
    options = radio.find_elements("css selector", '[data-testid="stRadioOption"]')
    assert len(options) == 20
    options[1].click()  # a chosen match
    idle(driver)
    link = wait(driver, lambda d: next(a for a in d.find_elements("css selector", f"{MAIN} a")
                                       if a.text.endswith("in a new tab")), message="new-tab link")
    chosen = link.text.split("\n")[-1].removeprefix("Explore from ").removesuffix(" in a new tab")
    assert link.get_attribute("target") == "_blank"
    assert link.get_attribute("href").startswith(f"{server}/?seed=")
    _scroll_to(driver, driver.find_element("css selector", ".st-key-browse_query"), margin=110)
    shot(driver, "pages_corpus_search.png")

    here = driver.current_window_handle
    link.click()
    wait(driver, lambda d: len(d.window_handles) == 2, timeout=20, message="a new tab")
    driver.switch_to.window(next(h for h in driver.window_handles if h != here))
    try:
        wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, message="Explore in the new tab")
        assert chosen in _main_text(driver) and "seed=" in driver.current_url
    finally:
        driver.close()
        driver.switch_to.window(here)
    assert "/corpus" in driver.current_url  # this tab stays on the Corpus page
