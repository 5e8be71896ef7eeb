"""Issue #12 point 7 in a real headless Chromium at 1600x1200: Explore shows no developer hint; the
Evaluation page reads (one aspect per tab, metrics named and explained, nothing clipped, no "None"); the
Corpus page searches first, says when it caps its matches, draws its label charts as HTML bars with every count
written (a label opens the maps filtered to it), and opens Explore in a new tab. Screenshots: test-artifacts/pages_*.png.
"""
from __future__ import annotations

import re
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
    _scroll_to(driver, box, margin=200)  # the retrieval section's caption, the report, its caption, pool and chart
    said = _main_text(driver)
    assert "a neighbour is relevant when it shares one of the seed's labels" in said
    assert re.search(r"\d+ rows, k = 10; .*train / \d+ test articles\. File: \S+\.json\.", said), said
    pool, chart = (driver.find_element("css selector", f".st-key-{key}") for key in ("eval_pool", "eval_metric"))
    assert pool.rect["y"] == chart.rect["y"] and pool.rect["x"] + pool.rect["width"] < chart.rect["x"]  # one row
    shot(driver, "pages_evaluation_report.png")
    for index, label in enumerate(labels):
        tab = driver.find_elements("css selector", '[role="tab"]')[index]
        tab.click()
        idle(driver)
        panel = wait(driver, lambda d: next((p for p in d.find_elements("css selector", '[role="tabpanel"]')
                                            if p.is_displayed()), None), message=f"tab {label}")
        text = panel.text
        assert "MRR@10 (mean reciprocal rank)" in text and "MAP@10 (mean average precision)" in text
        assert "None" not in text and "nan" not in text.split()
        table = panel.find_element("css selector", "table.an-table")  # plain HTML: text cells, the best in bold
        assert table.find_elements("css selector", "td strong"), "the best of each column in bold"
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
        chart = panel.find_element("css selector", "figure.an-bars")  # HTML bars: every value written beside its bar
        assert chart.text.startswith(label) and "Wikipedia links" in chart.text, chart.text
        numbers = [n.text for n in chart.find_elements("css selector", ".an-num")]
        assert len(numbers) == len(chart.find_elements("css selector", "tr")), numbers
        assert all(re.fullmatch(r"\d\.\d{3}( ± \d\.\d{3})?|n/a", n) for n in numbers), numbers
        _scroll_to(driver, driver.find_element("css selector", '[role="tablist"]'))
        shot(driver, "pages_evaluation.png" if index == 0 else f"pages_evaluation_{index}.png")

    # What the numbers mean (AgTS in plain words) and what each row ranks by, each behind an expander drawn when it is
    # opened; no maintainers' section for a reader of a server without the maintainers' password (issue #54 item 1)
    assert "For maintainers" not in _main_text(driver) and "python -m" not in _main_text(driver)
    for title, expected in (("What the numbers mean", "Spearman correlation"),
                            ("What each row is", "space:country")):
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


def test_corpus_search_first_capped_titles_bars_new_tab_link_and_label_to_maps(server, browser):
    from selenium.webdriver.common.keys import Keys

    driver = browser
    driver.get(f"{server}/corpus")
    wait(driver, lambda d: len(d.find_elements("css selector", "figure.an-bars")) >= 2, message="label charts")
    idle(driver)
    main = _main_text(driver)
    assert main.index("Find an article") < main.index("Aspect labels")
    counts = driver.execute_script("""return [...document.querySelectorAll('.an-count')].map(c => [
        c.querySelector('.an-count-label').innerText, c.querySelector('.an-count-value').innerText,
        c.querySelector('.an-count-value').getBoundingClientRect().height, c.getBoundingClientRect().left])""")
    assert [c[0] for c in counts] == ["Articles", "Links", "Aspects", "Labels"] and counts[0][1] == "10,033", counts
    assert all(c[2] > 30 for c in counts), counts  # figures as large as st.metric's
    title = driver.find_element("css selector", "h1").rect["x"]
    assert abs(counts[0][3] - title) < 4, (counts, title)  # in line with the page's title
    aspects = driver.find_element("css selector", "table.an-table").text
    assert aspects.startswith("aspect articles labelled coverage distinct labels") and "topic" in aspects, aspects

    # The label charts are HTML bars: each label with its count written beside its bar, nothing cut, a label a link.
    charts = driver.execute_script("""return [...document.querySelectorAll('figure.an-bars')].map(f => ({
        title: f.querySelector('figcaption').innerText,
        rows: [...f.querySelectorAll('tr')].map(r => [r.querySelector('th').innerText,
                                                     r.querySelector('.an-num').innerText]),
        cut: [...f.querySelectorAll('th')].filter(h => h.scrollWidth > h.clientWidth + 1).map(h => h.innerText),
        bars: [...f.querySelectorAll('.an-bar')].map(b => b.getBoundingClientRect().width),
        links: [...f.querySelectorAll('th a')].map(a => a.href)}))""")
    # one chart per aspect: topic, country, occupation, century, place_type, and kind, field, birthplace (#48)
    assert len(charts) == 8 and all(" labels (" in chart["title"] for chart in charts), charts
    for chart in charts:
        assert all(count.endswith(" articles") and count[0].isdigit() for _, count in chart["rows"]), chart
        assert chart["cut"] == [] and min(chart["bars"]) > 0 and chart["bars"] == sorted(chart["bars"], reverse=True)
        assert len(chart["links"]) == len(chart["rows"]) and chart["links"][0].startswith(f"{server}/maps?colour=")
    _scroll_to(driver, driver.find_element("css selector", "figure.an-bars"), margin=120)
    shot(driver, "pages_corpus_charts.png")
    # Fewer labels per chart: every chart redrawn with 5 bars.
    choice = driver.find_element("css selector", ".st-key-corpus_top input")
    choice.click()
    wait(driver, lambda d: [o for o in d.find_elements("css selector", '[role="option"]') if o.text == "5"],
         message="the labels-per-chart options")[0].click()
    wait(driver, lambda d: d.execute_script("""const f = [...document.querySelectorAll('figure.an-bars')];
        return f.length === 8 && f.every(c => c.querySelectorAll('tr').length === 5);"""), message="5 bars a chart")
    idle(driver)
    _scroll_to(driver, driver.find_element("css selector", ".st-key-corpus_top"), margin=120)
    shot(driver, "pages_corpus_charts_top5.png")
    driver.execute_script(f"document.querySelector('{MAIN}').scrollTo(0, 0)")
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

    # A label of a chart opens the maps coloured by its aspect, filtered to it.
    label = driver.find_element("css selector", "figure.an-bars th a")
    name = label.text
    aspect = driver.find_element("css selector", "figure.an-bars figcaption").text.split(":")[0]
    _scroll_to(driver, label, margin=200)
    label.click()
    wait(driver, lambda d: "Only the articles labelled" in _main_text(d), timeout=180, message="Maps filtered")
    assert f"{aspect}: {name}" in _main_text(driver) and "only=" in driver.current_url


def test_corpus_bars_read_on_the_dark_theme(server, browser):
    """A reader whose system is dark gets Streamlit's dark theme: the bars' labels, numbers and whiskers, the aspects
    table and the counts take the page's light text colour, not a dark one fixed for a white page."""
    driver = browser
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                         "value": "dark"}]})
    try:
        driver.get(f"{server}/corpus")
        wait(driver, lambda d: len(d.find_elements("css selector", "figure.an-bars")) >= 2, message="label charts")
        idle(driver)
        colours = driver.execute_script("""
            const lum = c => { const [r, g, b] = c.match(/\\d+/g).map(Number); return (0.299*r + 0.587*g + 0.114*b) / 255; };
            const f = document.querySelector('figure.an-bars');
            const t = document.querySelector('table.an-table');
            return {page: lum(getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor),
                    text: [f.querySelector('figcaption'), f.querySelector('th a'), f.querySelector('.an-num'),
                           t.querySelector('td'), document.querySelector('.an-count-value')]
                          .map(e => lum(getComputedStyle(e).color))};""")
        assert colours["page"] < 0.3, colours  # the dark theme is on
        assert all(text > 0.6 for text in colours["text"]), colours
        _scroll_to(driver, driver.find_element("css selector", "figure.an-bars"), margin=120)
        shot(driver, "pages_corpus_charts_dark.png")
        driver.execute_script(f"document.querySelector('{MAIN}').scrollTo(0, 0)")
        time.sleep(0.5)
        shot(driver, "pages_corpus_dark.png")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
