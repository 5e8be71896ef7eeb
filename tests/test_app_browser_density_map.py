"""A corpus larger than a map's sample, as a reader sees it in headless Chromium: the Maps page draws every article
by density (explore/whole_map.py, explore/map_density.py) under the seed ★ and its neighbours, and a box selects
from every article, listed below with a CSV. The corpus is benchmarks/million_corpus.py's at 30,000 rows (above the
20,000 a map projects); its sample's map is written to the cache beforehand as the page's own placement of it by
vital's shipped t-SNE map (a projection of 20,000 points would take minutes of a test). Screenshots:
test-artifacts/density_*.png."""
from __future__ import annotations

import time

import numpy as np
import pytest

from tests.browser import buttons, idle, served_page, shot, shot_of_text, wait
from tests.browser_maps import choose_tool, plot_of

pytestmark = pytest.mark.slow
ROWS = 30_000
READ_MAP = """
const s = document.querySelector('.an-map').anMap;
const seed = s.traces.find(t => t.name === '★ seed');
const selected = s.traces.find(t => t.name === 'selected');
return {images: (s.layout.images || []).map(i => i.source.slice(0, 22)),
        drawn: s.ready && (s.layout.images || []).length > 0, seed: seed ? seed.x.length : 0,
        selected: selected ? selected.x.length : 0, legend: s.traces.filter(t => t.showlegend).length};
"""

READ_VIEW = """
const s = document.querySelector('.an-map').anMap;
const x = s.xRange;
return {x: x, width: x[1] - x[0], images: (s.layout.images || []).map(i => ({x: i.x, sizex: i.sizex}))};
"""


def _write_sample_map(name: str) -> None:
    """The map the page would project for its sample, placed instead by vital's shipped t-SNE map."""
    from explore.corpus.registry import open_corpus
    from explore.maps import (DEFAULT_SAMPLE, ProjectionParams, Sample, _save_atomically, cache_path,
                              projection_key, select_sample)
    from explore.shipped_maps import shipped_projection
    from explore.spaces.registry import spaces_for
    from explore.whole_map import whole_layout

    vital = open_corpus("vital")
    vital_map, _ = shipped_projection(projection_key(spaces_for(vital, progress=False).open("generic")),
                                      select_sample(len(vital), DEFAULT_SAMPLE), ProjectionParams())
    corpus = open_corpus(name)
    generic = spaces_for(corpus, progress=False).open("generic")
    vital_base = Sample(np.arange(len(vital)), np.zeros(0, np.int64), len(vital), False, len(corpus))
    layout = whole_layout("test", generic.embeddings_, vital_base, vital_map, cache=False)
    sample = select_sample(len(corpus), DEFAULT_SAMPLE)
    _save_atomically(cache_path(projection_key(generic), sample, ProjectionParams()),
                     coords=layout[sample.base], method=np.array("placed by vital's t-SNE map"))


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    home = tmp_path_factory.mktemp("density-home")
    from benchmarks.common import environment
    from benchmarks.million_corpus import make_million_corpus

    with environment(ASPECTNAV_HOME=str(home)):
        make_million_corpus(ROWS, "atlas", index=False)  # below 50,000 rows a space is searched exactly
        _write_sample_map("atlas")
    with served_page(home, tmp_path_factory.mktemp("density-log") / "streamlit.log", "streamlit_density.log") as (url, _):
        yield url


def _drag_a_box(driver, tries: int = 3) -> None:
    """The box tool, then a drag over the middle quarter of the map; again if a rerun replaced the map meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.action_chains import ActionChains

    for attempt in range(tries):
        time.sleep(1)
        try:
            area = plot_of(driver, 0)
            # the whole map first: a double-click's view can be lost to a rerun, leaving it zoomed round the seed
            choose_tool(driver, 0, "Whole map")
            time.sleep(0.5)
            choose_tool(driver, 0, "Box Select")
            width, height = area.size["width"], area.size["height"]
            ActionChains(driver).move_to_element_with_offset(area, -width // 8, -height // 8).click_and_hold() \
                .move_by_offset(width // 4, height // 4).release().perform()
            return
        except StaleElementReferenceException:
            if attempt == tries - 1:
                raise
            idle(driver, timeout=300)


def _main_text(driver) -> str:
    return driver.find_element("css selector", '[data-testid="stMain"]').text


def test_every_article_is_drawn_by_density_under_the_seed_and_a_box_selects_from_all(atlas, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    browser.get(f"{atlas}/maps?corpus=atlas&seed=Marie+Curie")
    wait(browser, lambda d: d.find_elements("css selector", ".an-map"), timeout=600, message="the map")
    idle(browser, timeout=600)
    wait(browser, lambda d: d.execute_script(READ_MAP)["drawn"], timeout=60, message="the density image drawn")
    time.sleep(1.5)
    seen = browser.execute_script(READ_MAP)
    # two images: the whole map, and the view around the seed drawn anew over it
    assert seen["images"] == ["data:image/png;base64,"] * 2 and seen["seed"] == 1 and seen["legend"] >= 5, seen
    text = _main_text(browser)
    assert f"All {ROWS:,} articles of the corpus, drawn by density" in text and "Marie Curie" in text
    shot(browser, "density_map_marie_curie.png")

    # a zoom by hand (the zoom tool, a drag over the middle fifth): the image of the new view is aggregated anew
    area = plot_of(browser, 0)
    choose_tool(browser, 0, "Zoom")
    before = browser.execute_script(READ_VIEW)["x"]
    width, height = area.size["width"], area.size["height"]
    ActionChains(browser).move_to_element_with_offset(area, -width // 10, -height // 10).click_and_hold() \
        .move_by_offset(width // 5, height // 5).release().perform()
    wait(browser, lambda d: (lambda view: view["x"] != before and any(
        abs(i["x"] - view["x"][0]) < 1e-6 * abs(view["width"]) and abs(i["sizex"] - view["width"]) < 1e-6 * view["width"]
        for i in view["images"]))(d.execute_script(READ_VIEW)), timeout=120, message="the zoomed view drawn anew")
    zoomed = browser.execute_script(READ_VIEW)
    idle(browser, timeout=120)
    time.sleep(1)
    seen, after = browser.execute_script(READ_MAP), browser.execute_script(READ_VIEW)
    assert seen["images"] == ["data:image/png;base64,"] * 2 and seen["seed"] == 1, seen
    assert after["x"] == pytest.approx(zoomed["x"]) and after["width"] < 0.5 * (before[1] - before[0]), (before, after)
    shot(browser, "density_map_zoomed.png")

    # double-click: the whole map, then a box over its middle quarter
    ActionChains(browser).double_click(plot_of(browser, 0)).perform()
    time.sleep(1.5)
    shot(browser, "density_map_whole.png")
    idle(browser, timeout=300)  # a double-click is two clicks too: one may mark an article, and the page reruns
    _drag_a_box(browser)
    wait(browser, lambda d: "Selected:" in _main_text(d), timeout=300, message="the box's articles listed")
    idle(browser, timeout=300)
    time.sleep(1.5)
    line = next(line for line in _main_text(browser).splitlines() if line.startswith("Selected:"))
    count = int(line.split()[1].replace(",", ""))
    assert count > 1000 and "the first 1,000 are listed, the CSV holds all" in line, line  # more than the sample's
    assert browser.execute_script(READ_MAP)["selected"] == min(count, 2000)
    assert buttons(browser, "map_selection_csv")
    ActionChains(browser).double_click(plot_of(browser, 0)).perform()
    time.sleep(1.5)  # the whole map again, the box's articles ringed
    shot(browser, "density_map_box_selection.png")
    shot_of_text(browser, "Selected:", "density_map_selection_list.png")
