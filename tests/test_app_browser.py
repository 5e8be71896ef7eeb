"""End to end in a real headless Chromium (Debian's chromium + chromium-driver, driven by
selenium) against `streamlit run serve.py` on loopback: pick a seed with the type-ahead, click a
neighbour, go back, open Maps, click a point. Screenshots go to test-artifacts/.
"""
from __future__ import annotations

import time

import pytest

from tests.browser import ARTIFACTS, buttons, idle, shot, subheaders, wait
from tests.browser_maps import click_point, drawn_maps

pytestmark = pytest.mark.slow

SEED = "Marie Curie"


def _credit(driver) -> str:
    """The sidebar's Wikipedia credit (drawn by the frame, app.py, on every page)."""
    return driver.find_element("css selector", '[data-testid="stSidebar"]').text


def test_explore_then_maps_in_chromium(server, browser):

    driver = browser
    started = time.monotonic()
    driver.get(server)
    picker = wait(driver, lambda d: d.find_element("css selector", '.st-key-seed_picker input'),
                   message="seed picker")
    first_render = time.monotonic() - started
    picker.click()
    picker.send_keys(SEED)  # the title search offers it (tests/test_app_browser_navigation.py: typos too)
    wait(driver, lambda d: [b for b in buttons(d, "suggestion-") if b.text.strip() == SEED], message="offered")
    next(b for b in buttons(driver, "suggestion-") if b.text.strip() == SEED).click()
    wait(driver, lambda d: SEED in subheaders(d), message="seed card")
    wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, message="generic column")
    idle(driver)
    assert "seed=Marie+Curie" in driver.current_url or "seed=Marie%20Curie" in driver.current_url
    headings = driver.find_element("css selector", '[data-testid="stMain"]').text
    assert "Wikipedia links" in headings and "generic" in headings
    assert "CC BY-SA" in _credit(driver)
    shot(driver, "explore.png")

    # Click the first generic neighbour: it becomes the seed, and the trail can go back.
    neighbour = buttons(driver, "card-generic-")[0]
    title = neighbour.text.strip()
    neighbour.click()
    wait(driver, lambda d: title in subheaders(d), message=f"reseeded to {title}")
    idle(driver)
    shot(driver, "explore-reseeded.png")
    buttons(driver, "back")[0].click()
    wait(driver, lambda d: SEED in subheaders(d), message="back to the first seed")
    idle(driver)

    # Maps: two maps with the seed starred; a click marks a point, "Map from" makes it the seed.
    driver.find_element("css selector", '[data-testid="stSidebarNav"] a[href$="/maps"]').click()
    wait(driver, lambda d: drawn_maps(d) == 2, timeout=600, message="two maps")
    idle(driver, timeout=600)
    time.sleep(1)
    assert "CC BY-SA" in _credit(driver)
    shot(driver, "maps.png")
    neighbour_id = click_point(driver, 1, "◇ neighbours")  # a neighbour's marker, where the map drew it
    wait(driver, lambda d: buttons(d, "map_from"), timeout=600, message=f"map click marks {neighbour_id}")
    idle(driver, timeout=600)
    buttons(driver, "map_from")[0].click()
    wait(driver, lambda d: "seed=" in d.current_url and "Marie" not in d.current_url, timeout=600,
          message=f"map click reseeds to {neighbour_id}")
    idle(driver, timeout=600)
    shot(driver, "maps-reseeded.png")
    (ARTIFACTS / "timings.txt").write_text(f"first render (picker visible): {first_render:.1f} s\n")
