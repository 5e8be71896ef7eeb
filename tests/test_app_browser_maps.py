"""Maps and the links column as a reader sees them, in headless Chromium at 1600x1200 (issue #12, points 5-6):
one colour per label across seeds and both maps, faint unlabelled points, a legend below the plot, the
seed's label beside it, a click that marks the article in both maps, the top-10 overlap; the links column
without common-word mentions, ordered by similarity. Issue #14: the default maps are the shipped ones; a sample
that is not shipped shows each map's t-SNE progress, then both maps. Issue #26: the whole corpus, a found article
marked and centred in both maps with its neighbours listed, free text placed and said so, a missing aspect named,
regions named, the map's state in the URL. Screenshots: test-artifacts/maps_*.png, explore_links_*.png.
"""
from __future__ import annotations

import time

import pytest

from tests.browser import buttons, idle, shot, shot_of_text, wait
from tests.browser_maps import READ_MAPS, choose_tool, click_point, drawn_maps, plot_of

pytestmark = pytest.mark.slow

READ_TITLES = "return Array.from(document.querySelectorAll('.an-map-title')).map(t => [t.textContent]);"


def _open_maps(driver, url: str) -> list[dict]:
    driver.get(url)
    wait(driver, lambda d: drawn_maps(d) == 2, timeout=600, message=f"two maps at {url}")
    idle(driver, timeout=600)
    time.sleep(1.5)
    return driver.execute_script(READ_MAPS)


def _set_sample_size(driver, size: int) -> None:
    from selenium.webdriver.common.keys import Keys

    field = driver.find_element("css selector", '.an-mc input[data-key="map_sample"]')
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(str(size), Keys.ENTER)


def _main_text(driver) -> str:
    return driver.find_element("css selector", '[data-testid="stMain"]').text


def _ringed_in_both(driver, shape: str) -> None:
    """Wait until a selection's articles are ringed in both maps and listed: the same articles, at least five."""
    wait(driver, lambda d: all("selected" in m["names"] for m in d.execute_script(READ_MAPS)) and
         "Selected:" in _main_text(d), timeout=300, message=f"{shape}'s articles ringed in both maps")
    idle(driver, timeout=300)
    time.sleep(1.5)
    counts = [len(m["selected"]) for m in driver.execute_script(READ_MAPS)]
    assert counts[0] == counts[1] and counts[0] >= 5, counts  # the same articles in both maps
    assert f"Selected: {counts[0]:,} articles" in _main_text(driver)


def test_maps_keep_each_label_colour_across_seeds_and_mark_a_click_in_both(server, browser):
    curie = _open_maps(browser, f"{server}/maps?seed=Marie+Curie")
    shot(browser, "maps_marie_curie.png")
    left, right = curie
    shared = set(left["colours"]) & set(right["colours"])
    assert len(shared) >= 5 and all(left["colours"][n] == right["colours"][n] for n in shared)  # both maps
    assert left["legendBottom"] and right["legendBottom"]
    assert any(name.startswith("(no label)") for name in left["offLegend"])  # faint, said in the caption
    assert any(text.startswith("★ Marie Curie") for text in left["annotations"])
    text = _main_text(browser)
    assert "Jaccard@10" in text and "python -m" not in text and "no topic label" in text  # topic labels the most

    other = _open_maps(browser, f"{server}/maps?seed=Tokyo")
    shot(browser, "maps_other_seed.png")
    again = set(other[0]["colours"]) & set(left["colours"]) - {"★ seed", "◇ neighbours"}
    assert len(again) >= 5 and all(other[0]["colours"][n] == left["colours"][n] for n in again)  # across seeds

    _open_maps(browser, f"{server}/maps?seed=Marie+Curie")
    clicked = click_point(browser, 1, "◇ neighbours")  # the generic map draws Curie's nearest under her ★
    wait(browser, lambda d: all("clicked" in m["names"] for m in d.execute_script(READ_MAPS)), timeout=300,
         message=f"{clicked} marked in both maps")
    idle(browser, timeout=300)
    time.sleep(1)
    assert "Marked in both maps" in _main_text(browser) and "Explore from" in _main_text(browser)
    shot(browser, "maps_clicked.png")
    buttons(browser, "map_from")[0].click()
    wait(browser, lambda d: "Marie" not in d.current_url and "seed=" in d.current_url, timeout=300,
         message="Map from reseeds the maps")


def test_the_links_column_drops_common_words_and_is_ordered_by_similarity(server, browser):
    browser.get(f"{server}/?seed=Marie+Curie")
    wait(browser, lambda d: len(buttons(d, "card-links")) >= 3, timeout=600, message="links column")
    idle(browser)
    time.sleep(1)
    links = [b.text.strip() for b in buttons(browser, "card-links")]
    assert "Pierre Curie" in links and not {"Husband", "Joint", "Nature"} & set(links)
    text = _main_text(browser)
    assert "ordered by similarity to the seed" in text and "husband" in text  # hidden words are named
    heading = next(e for e in browser.find_elements("css selector", ".an-heading") if e.text.strip() == "Wikipedia links")
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'});", heading)
    time.sleep(0.5)
    shot(browser, "explore_links_marie_curie.png")


def test_the_default_maps_are_shipped_and_a_sample_not_shipped_shows_progress_then_both_maps(server, browser):
    _open_maps(browser, f"{server}/maps?seed=Ada+Lovelace")
    shot(browser, "maps_shipped_default.png")
    text = _main_text(browser)
    assert text.count("random_state=0): shipped with AspectNav, checksum verified") == 2, text
    assert text.count("10,033") == 1 and "All 10,033 articles of the corpus, the same in both maps" in text
    titles = [title for plot in browser.execute_script(READ_TITLES) for title in plot]
    assert titles == ["generic · openTSNE, shipped", "country (aspect) · openTSNE, shipped"], titles

    _set_sample_size(browser, 1500)  # no map of 1,500 articles is shipped: both are computed, side by side
    bars = '[data-testid="stProgress"]'
    wait(browser, lambda d: len(d.find_elements("css selector", bars)) == 2, timeout=300,
         message="a t-SNE progress bar per map")
    wait(browser, lambda d: any(p.text.strip().endswith("%") and not p.text.strip().endswith(" 0%")
                                for p in d.find_elements("css selector", bars)), timeout=300,
         message="the bars move")
    progress = [p.text for p in browser.find_elements("css selector", bars)]
    shot(browser, "maps_progress.png")
    assert any("generic" in p for p in progress) and any("country" in p for p in progress), progress
    assert all("t-SNE map of 1,500 articles in" in p for p in progress), progress

    wait(browser, lambda d: _main_text(d).count("projected just now, cached for next time") == 2, timeout=600,
         message="both maps computed")
    idle(browser, timeout=600)
    time.sleep(1.5)
    assert not browser.find_elements("css selector", bars) and len(browser.execute_script(READ_MAPS)) == 2
    shot(browser, "maps_computed.png")
    titles = [title for plot in browser.execute_script(READ_TITLES) for title in plot]
    assert titles == ["generic · openTSNE, just computed", "country (aspect) · openTSNE, just computed"], titles


def _centred_on_seed(plot: dict) -> bool:
    x, y = plot["seed"]["x"][0], plot["seed"]["y"][0]
    middle = ((plot["xRange"][0] + plot["xRange"][1]) / 2, (plot["yRange"][0] + plot["yRange"][1]) / 2)
    width = plot["xRange"][1] - plot["xRange"][0]
    return abs(middle[0] - x) < 0.02 * width and abs(middle[1] - y) < 0.02 * width


def test_a_searched_article_is_marked_and_centred_in_both_maps_with_its_neighbours_listed(server, browser):
    from selenium.webdriver.common.keys import Keys

    maps = _open_maps(browser, f"{server}/maps")
    assert all(plot["points"] == 10_033 for plot in maps)  # the whole corpus, in both maps
    assert all(len(plot["regions"]) >= 5 for plot in maps), [plot["regions"] for plot in maps]
    shot(browser, "maps_whole_corpus_regions.png")
    assert "left=generic" in browser.current_url and "right=country" in browser.current_url
    assert "colour=topic" in browser.current_url

    wait(browser, lambda d: d.execute_script("return !!(window.__anEnter && window.__anEnter.seed_picker);"),
         message="the Enter listener for the search box")
    box = browser.find_element("css selector", '[class*="st-key-seed_picker"] input')
    box.send_keys("pierre curie")
    box.send_keys(Keys.ENTER)
    wait(browser, lambda d: all(p["seed"]["x"] for p in d.execute_script(READ_MAPS)) and
         "Nearest to" in _main_text(d), timeout=300, message="Pierre Curie marked in both maps")
    idle(browser, timeout=300)
    time.sleep(1.5)
    maps = browser.execute_script(READ_MAPS)
    shot(browser, "maps_search_marked.png")
    assert "seed=Pierre+Curie" in browser.current_url
    assert all(any(text.startswith("★ Pierre Curie") for text in plot["annotations"]) for plot in maps)
    assert all(_centred_on_seed(plot) for plot in maps), [(p["seed"]["x"], p["xRange"]) for p in maps]
    text = _main_text(browser)
    assert "Nearest to ★ Pierre Curie" in text and "Marie Curie" in text
    links = browser.find_elements("css selector", ".an-nl-explore")
    assert sum(link.text.strip().endswith("Explore from") for link in links) >= 5
    assert any("seed=Marie+Curie" in (link.get_attribute("href") or "") for link in links)
    assert len(browser.find_elements("css selector", ".an-nl-map")) >= 5


def test_a_free_text_seed_is_placed_by_its_neighbours_and_said_so(server, browser):
    maps = _open_maps(browser, f"{server}/maps?text=a+mountain+in+the+Alps")
    shot(browser, "maps_free_text.png")
    for plot in maps:
        assert len(plot["seed"]["x"]) == 1 and _centred_on_seed(plot)
        assert any(text.startswith("★ “a mountain in the Alps” (placed by its neighbours)")
                   for text in plot["annotations"]), plot["annotations"]
        assert "◇ neighbours" in plot["names"]
    text = _main_text(browser)
    assert text.count("is placed at the similarity-weighted mean of the positions of its 5 nearest articles") == 2
    assert "Nearest to ★ “a mountain in the Alps”" in text


def test_an_article_without_the_maps_aspect_is_labelled_so(server, browser):
    maps = _open_maps(browser, f"{server}/maps?seed=Photosynthesis")
    shot(browser, "maps_lacking_aspect.png")
    assert any("Photosynthesis · no country label" in text for text in maps[1]["annotations"])
    assert not any("no country label" in text for text in maps[0]["annotations"])  # generic: nothing lacking
    assert "Photosynthesis has no country label: where it lies on the country map says nothing about its country" \
        in _main_text(browser)


def test_a_box_selection_in_one_map_is_ringed_in_both_and_listed_with_a_csv(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    _open_maps(browser, f"{server}/maps?seed=Mount+Everest")
    choose_tool(browser, 1, "Box Select")  # in the country map
    area = plot_of(browser, 1)  # the plot area, where a drag selects
    width, height = area.size["width"], area.size["height"]
    ActionChains(browser).move_to_element_with_offset(area, -width // 8, -height // 8).click_and_hold() \
        .move_by_offset(width // 4, height // 4).release().perform()
    _ringed_in_both(browser, "the box")
    assert buttons(browser, "map_selection_csv") and buttons(browser, "map_selection_clear")
    shot(browser, "maps_box_selection.png")
    shot_of_text(browser, "Selected:", "maps_box_selection_list.png")


def test_a_label_on_the_corpus_page_opens_the_maps_filtered_to_it(server, browser):
    """The Corpus page's label charts are HTML bars; a label is a link to the maps coloured by its aspect and
    filtered to it."""
    browser.get(f"{server}/corpus")
    country_chart = """return Array.from(document.querySelectorAll('figure.an-bars'))
        .find(f => f.querySelector('figcaption').textContent.startsWith('country:')) || null;"""
    wait(browser, lambda d: d.execute_script(country_chart), timeout=300, message="the country label chart")
    idle(browser)
    chart = browser.execute_script(country_chart)
    link = chart.find_element("css selector", "th a")  # the top bar: the most common country
    label = link.text
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    time.sleep(0.5)
    link.click()
    wait(browser, lambda d: "/maps" in d.current_url and drawn_maps(d) == 2,
         timeout=300, message="the Maps page")
    maps = _open_maps(browser, browser.current_url)
    assert "colour=country" in browser.current_url and "only=" in browser.current_url
    for plot in maps:
        legend = [name for name in plot["names"] if name not in plot["offLegend"]]
        assert len(legend) == 1 and legend[0].startswith(label), (label, legend)
    assert f"Only the articles labelled country: {label}" in _main_text(browser)
    shot(browser, "maps_label_filter.png")


def test_the_umap_projection_from_the_url_draws_both_maps_with_its_settings_said(server, browser):
    """Issue #26: ?proj=umap projects both maps with UMAP (computed, with progress, then cached); the control says
    UMAP and each map's caption names UMAP's settings."""
    browser.get(f"{server}/maps?seed=Ada+Lovelace&proj=umap")
    wait(browser, lambda d: "UMAP map of" in _main_text(d) or d.find_elements("css selector", ".an-map"),
         timeout=600, message="UMAP progress or its maps")
    maps = _open_maps(browser, f"{server}/maps?seed=Ada+Lovelace&proj=umap")
    shot(browser, "maps_umap.png")
    text = _main_text(browser)
    assert len(maps) == 2 and all(plot["points"] > 10_000 for plot in maps), maps
    assert text.count("UMAP (n_neighbors=15, min_dist=0.1, metric=cosine, random_state=0)") == 2, text
    titles = [title for plot in browser.execute_script(READ_TITLES) for title in plot]
    assert all(" · UMAP, " in title for title in titles), titles
    control = browser.execute_script("""const select = document.querySelector('.an-mc select[data-key="map_projection"]');
        return select.options[select.selectedIndex].text;""")
    assert "UMAP" in control and "proj=umap" in browser.current_url, (control, browser.current_url)
    assert all(_centred_on_seed(plot) for plot in maps)


def test_a_seed_change_redraws_into_the_same_graph_and_a_click_keeps_the_reader_s_view(server, browser):
    """Issue #37 item 8: the maps keep their views and canvases across reruns (a new figure is drawn by the same
    renderer), a click keeps the zoom the reader chose, and a label hidden in the legend is left out of a box."""
    from selenium.webdriver.common.action_chains import ActionChains

    _open_maps(browser, f"{server}/maps?seed=Marie+Curie")
    browser.execute_script("""document.querySelectorAll('.an-map').forEach((m, i) => {
        m.__testMark = i; m.__testCanvas = m.querySelector('canvas'); });""")
    browser.find_element("css selector", ".an-nl-item .an-nl-map").click()  # the first listed neighbour
    wait(browser, lambda d: "Marie" not in d.current_url, timeout=300, message="Map from reseeds the maps")
    wait(browser, lambda d: all(m["ready"] and not any(t.startswith("★ Marie Curie") for t in m["annotations"])
                                for m in d.execute_script(READ_MAPS)), timeout=300, message="the new seed drawn")
    idle(browser, timeout=300)
    kept = browser.execute_script("""return [...document.querySelectorAll('.an-map')].map((m, i) =>
        m.__testMark === i && m.querySelector('canvas') === m.__testCanvas);""")
    assert kept == [True, True], kept  # the same maps, the same canvases

    # the whole right map (a double-click), then a click on a point: the page reruns, the view stays whole
    centred = browser.execute_script(READ_MAPS)[1]
    ActionChains(browser).double_click(plot_of(browser, 1)).perform()
    time.sleep(1)
    idle(browser, timeout=300)
    whole = browser.execute_script(READ_MAPS)[1]
    span = lambda plot: plot["xRange"][1] - plot["xRange"][0]  # noqa: E731
    assert span(whole) > 2 * span(centred), (centred["xRange"], whole["xRange"])
    clicked = click_point(browser, 1, "◇ neighbours")
    wait(browser, lambda d: "clicked" in d.execute_script(READ_MAPS)[1]["names"], timeout=300,
         message=f"{clicked} marked")
    idle(browser, timeout=300)
    after = browser.execute_script(READ_MAPS)[1]
    assert after["xRange"] == whole["xRange"] and after["yRange"] == whole["yRange"], (whole, after)

    # the first legend entry hidden, then a box over the whole right map: none of its points is chosen
    hidden = browser.execute_script("""const trace = document.querySelectorAll('.an-map')[1].anMap.traces
        .find(t => t.showlegend);  // the first legend entry
        return [trace.name, Array.from(trace.customdata)];""")
    legend = browser.find_elements("css selector", ".an-map")[1].find_element("css selector", ".an-map-legend-item")
    assert legend.text.strip() == hidden[0]
    legend.click()
    wait(browser, lambda d: d.execute_script("""return document.querySelectorAll('.an-map')[1].anMap.traces
        .some(t => t.visible === 'legendonly');"""), timeout=30, message=f"{hidden[0]} hidden")
    assert legend.get_attribute("aria-pressed") == "false"
    choose_tool(browser, 1, "Box Select")
    area = plot_of(browser, 1)
    width, height = area.size["width"], area.size["height"]
    ActionChains(browser).move_to_element_with_offset(area, -width // 2 + 2, -height // 2 + 2).click_and_hold() \
        .move_by_offset(width - 4, height - 4).release().perform()
    wait(browser, lambda d: "Selected:" in _main_text(d), timeout=300, message="the box's articles listed")
    idle(browser, timeout=300)
    time.sleep(1)
    maps = browser.execute_script(READ_MAPS)
    chosen = maps[1]["selected"]
    assert len(chosen) > 1000 and not set(chosen) & set(hidden[1]), (len(chosen), hidden[0])
    still = browser.execute_script("""return document.querySelectorAll('.an-map')[1].anMap.traces
        .find(t => t.name === arguments[0]).visible;""", hidden[0])
    assert still == "legendonly", still  # the page reran (the box's rings): the label the reader hid stays hidden
    shot(browser, "maps_kept_view_hidden_label_box.png")


def test_a_lasso_in_one_map_chooses_the_articles_inside_it_in_both(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    _open_maps(browser, f"{server}/maps?seed=Mount+Everest")
    choose_tool(browser, 0, "Lasso Select")
    area = plot_of(browser, 0)
    step = min(area.size["width"], area.size["height"]) // 6
    drag = ActionChains(browser).move_to_element_with_offset(area, -step, -step).click_and_hold()
    for dx, dy in ((step, 0), (step, step), (0, step), (-step, step // 2), (-step, -step // 2), (0, -2 * step)):
        drag = drag.move_by_offset(dx, dy)  # a closed loop round the middle of the map
    drag.release().perform()
    _ringed_in_both(browser, "the lasso")
    shot(browser, "maps_lasso_selection.png")


def test_a_map_reads_by_hover_keyboard_and_tools(server, browser):
    """The renderer's own controls: a hover names the article under the pointer with its labels; arrow keys pan and
    + zooms the focused map (the view changes, no rerun); the zoom tool's drag narrows the view; Whole map shows it
    all again."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    from tests.browser_maps import hover_point

    _open_maps(browser, f"{server}/maps?seed=Marie+Curie")
    said = hover_point(browser, 1, "★ seed")  # the country map: in the generic one Pierre Curie is under her star
    assert said.startswith("Marie Curie") and "topic:" in said, said
    shot(browser, "maps_hover.png")
    before = browser.execute_script(READ_MAPS)[0]
    plot = plot_of(browser, 0)
    browser.execute_script("arguments[0].focus();", plot)
    plot.send_keys(Keys.ARROW_RIGHT)
    plot.send_keys("+")
    after = browser.execute_script(READ_MAPS)[0]
    width = lambda m: m["xRange"][1] - m["xRange"][0]  # noqa: E731
    assert abs(width(after) - width(before) / 2) < 1e-6 * width(before), (before["xRange"], after["xRange"])
    assert after["xRange"][0] > before["xRange"][0]  # moved right, then zoomed in on the middle
    choose_tool(browser, 0, "Zoom")
    w, h = plot.size["width"], plot.size["height"]
    ActionChains(browser).move_to_element_with_offset(plot, -w // 4, -h // 4).click_and_hold() \
        .move_by_offset(w // 4, h // 4).release().perform()
    zoomed = browser.execute_script(READ_MAPS)[0]
    assert width(zoomed) < 0.3 * width(after), (after["xRange"], zoomed["xRange"])
    choose_tool(browser, 0, "Whole map")
    whole = browser.execute_script(READ_MAPS)[0]
    assert width(whole) > 2 * width(before)  # the map was centred closer in; now all of it
    assert "Marie Curie" in _main_text(browser)  # no rerun lost the page


def test_on_the_dark_theme_the_maps_take_the_page_s_colours_and_their_marks_stay_visible(server, browser):
    """A reader whose system is dark: the page's dark background and light text around and inside each plot, the
    neighbours' diamonds light instead of black, articles without a label a faint dark grey instead of light grey."""
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                          "value": "dark"}]})
    try:
        _open_maps(browser, f"{server}/maps?seed=Marie+Curie&colour=country")  # many articles without a country
        seen = browser.execute_script("""
            const rgb = c => { const e = document.createElement('i'); e.style.color = c; document.body.appendChild(e);
                               const said = getComputedStyle(e).color; e.remove(); return said; };  // "white" too
            const lum = c => { const [r, g, b] = rgb(c).match(/\\d+/g).map(Number); return (0.299*r + 0.587*g + 0.114*b) / 255; };
            return Array.from(document.querySelectorAll('.an-map')).map(m => ({
                page: lum(getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor),
                paper: lum(m.anMap.paper), plot: lum(m.anMap.plotColour),
                title: lum(getComputedStyle(m.querySelector('.an-map-title')).color),
                legend: lum(getComputedStyle(m.querySelector('.an-map-legend-item')).color),
                plotted: (c => { const v = rgb(c).match(/[\\d.]+/g).map(Number), a = v.length > 3 ? v[3] : 1;
                                 return a * lum(c) + (1 - a) * lum(m.anMap.paper); })(m.anMap.plotColour),
                diamonds: lum(m.anMap.traces.find(t => t.name === '◇ neighbours').color),
                unlabelled: m.anMap.traces.filter(t => t.name.startsWith('(no label)')).map(t => lum(t.color))}));""")
        for plot in seen:
            assert plot["page"] < 0.3 and abs(plot["paper"] - plot["page"]) < 0.02, plot  # the page's own dark
            assert plot["plotted"] < 0.3 and plot["title"] > 0.6 and plot["legend"] > 0.6, plot
            assert plot["diamonds"] > 0.8 and plot["unlabelled"] and all(grey < 0.4 for grey in plot["unlabelled"]), plot
        shot(browser, "maps_dark.png")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_explore_from_a_listed_neighbour_opens_explore_with_it_as_the_seed(server, browser):
    """The neighbour list's "Explore from" is a link (a new tab opens Explore there); a plain click switches page
    in the same session."""
    from tests.browser import grid_seed

    _open_maps(browser, f"{server}/maps?seed=Marie+Curie")
    first = browser.find_element("css selector", ".an-nl-item")
    title = first.find_element("css selector", ".an-nl-title").text
    link = first.find_element("css selector", ".an-nl-explore")
    assert "seed=" in link.get_attribute("href") and "/maps" not in link.get_attribute("href")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", first)
    time.sleep(0.5)
    shot(browser, "maps_neighbour_list.png")
    link.click()
    wait(browser, lambda d: "/maps" not in d.current_url and grid_seed(d) == title, timeout=300,
         message=f"Explore from {title}")
    idle(browser)
    assert "seed=" in browser.current_url


def test_a_map_whose_points_cannot_be_fetched_gets_them_in_the_page(server, browser):
    """Fault injected: the browser may not fetch the maps' points from their address (a proxy that sends the request
    to another server process, a layer no longer kept). The map asks the page, which sends them in its data, and
    both maps are drawn in full."""
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*_an/map-layers/*"]})
    try:
        maps = _open_maps(browser, f"{server}/maps?seed=Ada+Lovelace&colour=century")
        assert len(maps) == 2 and all(plot["points"] == 10_033 for plot in maps), [p["points"] for p in maps]
        assert not browser.find_elements("css selector", ".an-map-failed")
        shot(browser, "maps_points_in_the_page.png")
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def test_the_maps_settings_keep_the_keyboard_on_the_control_and_the_url_in_step(server, browser):
    """The maps' settings (one element, app_views/map_controls): a keyboard reader stepping "Colour by" with the
    arrow keys stays on it across the redraws; k typed in its box marks and lists that many neighbours; a setting's
    help shows on focus; every change is in the URL."""
    from selenium.webdriver.common.keys import Keys

    _open_maps(browser, f"{server}/maps?seed=Marie+Curie")
    colour = browser.find_element("css selector", '.an-mc select[data-key="map_colour"]')
    first = colour.get_attribute("value")
    browser.execute_script("arguments[0].focus();", colour)
    seen = []
    for _ in range(2):
        colour.send_keys(Keys.ARROW_DOWN)  # a closed select: the next option, at once
        wait(browser, lambda d: f"colour={colour.get_attribute('value')}" in d.current_url, timeout=300,
             message="the colouring in the URL")
        _open_maps_idle(browser)
        seen.append(browser.execute_script("return [document.activeElement.dataset.key, arguments[0].value]", colour))
    assert [key for key, _ in seen] == ["map_colour", "map_colour"] and len({first, *[v for _, v in seen]}) == 3, seen
    k = browser.find_element("css selector", '.an-mc input[data-key="k"]')
    k.send_keys(Keys.CONTROL, "a")
    k.send_keys("8", Keys.ENTER)
    wait(browser, lambda d: "k=8" in d.current_url and len(d.find_elements("css selector", ".an-nl-item")) >= 8,
         timeout=300, message="k=8 listed")
    _open_maps_idle(browser)
    diamonds = [len(next(t for t in m["traces"] if t["name"] == "◇ neighbours")["x"])
                for m in browser.execute_script("return [...document.querySelectorAll('.an-map')].map(m => m.anMap)")]
    assert diamonds == [8, 8], diamonds
    assert browser.execute_script("return document.activeElement.dataset.key") == "k"
    help_mark = browser.find_elements("css selector", ".an-mc-help")[-1]
    browser.execute_script("arguments[0].focus();", help_mark)
    tip = help_mark.find_element("css selector", ".an-mc-tip")
    assert tip.is_displayed() and "UMAP" in tip.text
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "maps_settings.png")


def _open_maps_idle(driver) -> None:
    wait(driver, lambda d: drawn_maps(d) == 2, timeout=300, message="both maps drawn")
    idle(driver, timeout=300)
    time.sleep(0.5)


def test_a_second_open_has_the_maps_points_fetched_by_the_page_before_the_maps_mount(server, browser):
    """app_views/map_chart/prefetch.py: once the server knows the layers' addresses, the page starts fetching them
    before the maps are worked out; the maps take those fetches (no second request) and draw every point."""
    url = f"{server}/maps?seed=Pierre+Curie"
    _open_maps(browser, url)
    maps = _open_maps(browser, url)  # a fresh page: the addresses are known now
    seen = browser.execute_script("""return {waiting: window.__anMapLayers ? window.__anMapLayers.size : -1,
        fetched: performance.getEntriesByType('resource').filter(e => e.name.includes('/_an/map-layers/')).length};""")
    assert seen == {"waiting": 0, "fetched": 2}, seen
    assert all(plot["points"] == 10_033 for plot in maps), [p["points"] for p in maps]


def test_on_a_narrower_screen_the_list_goes_under_the_maps_then_each_map_takes_the_width(server, browser):
    """The maps panel lays itself out by its own width (a CSS container query): side by side with the list beside
    them at full width, the list under the maps on a laptop, one map under the other where two would be cramped."""
    read = """return ['.an-mp-map', '.an-mp-list'].flatMap(s => [...document.querySelectorAll(s)])
        .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.bottom]; });"""
    try:
        for width, layout in ((1600, "beside"), (1280, "list under"), (1024, "stacked")):
            browser.set_window_size(width, 1100)
            _open_maps(browser, f"{server}/maps?seed=Marie+Curie")
            (l_left, l_top, l_width, l_bottom), (r_left, r_top, r_width, _), (n_left, n_top, n_width, _) = \
                browser.execute_script(read)
            if layout == "beside":
                assert l_top == r_top == n_top and l_left < r_left < n_left, layout
            elif layout == "list under":
                assert l_top == r_top and r_left > l_left and n_top > l_bottom and n_width > 1.9 * l_width, layout
            else:
                assert r_top > l_bottom and r_left == l_left and r_width == l_width >= n_width - 1, layout
            assert min(l_width, r_width) >= 300, (layout, l_width, r_width)
            shot(browser, f"maps_width_{width}.png")
    finally:
        browser.set_window_size(1600, 1343)


def test_without_a_seed_the_maps_show_the_corpus_and_offer_no_neighbour_count(server, browser):
    browser.get(f"{server}/maps")
    wait(browser, lambda d: drawn_maps(d) == 2, timeout=600, message="two maps without a seed")
    idle(browser, timeout=600)
    time.sleep(1)
    keys = [field.get_attribute("data-key") for field in browser.find_elements("css selector", ".an-mc [data-key]")
            if field.tag_name in ("select", "input")]
    assert "k" not in keys and {"map_left", "map_right", "map_sample"} <= set(keys), keys
    text = _main_text(browser)
    assert not browser.find_elements("css selector", ".an-nl-item") and "★ the seed" not in text, text
    assert "All 10,033 articles of the corpus, the same in both maps. Hover for title and labels" in text
    shot(browser, "maps_no_seed.png")
