"""No dead ends, in a real headless Chromium against `streamlit run serve.py`: a misspelt URL seed
offers a clickable title, the title search forgives typos, accents and case as the reader types,
switching seed mode clears the other mode's results, and the trail goes back and forward like a
browser. Screenshots: test-artifacts/navigation_*.png.
"""
from __future__ import annotations

import time

import pytest

from tests.browser import buttons, idle, shot, subheaders, wait

pytestmark = pytest.mark.slow


def suggestion(driver, title: str):
    """The title search's button for `title` (None while it is not offered)."""
    found = [b for b in buttons(driver, "suggestion-") if b.text.strip() == title]
    return found[0] if found else None


def search_box(driver):
    return driver.find_element("css selector", ".st-key-seed_picker input")


def type_in_search(driver, text: str) -> None:
    from selenium.webdriver.common.keys import Keys

    box = search_box(driver)
    box.click()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    box.send_keys(text)


def crumbs(driver) -> list[str]:
    return [b.text.strip() for b in buttons(driver, "crumb-")]


def main_text(driver) -> str:
    return driver.find_element("css selector", '[data-testid="stMain"]').text


def click_seed_mode(driver, mode: str) -> None:
    labels = driver.find_elements("css selector", ".st-key-seed_mode label")
    next(label for label in labels if label.text.strip() == mode).click()


def test_no_dead_ends(server, browser):
    driver = browser

    # A misspelt seed in a URL: said plainly, and "Marie Curie" is one click away.
    driver.get(f"{server}/?seed=Marie+Cury")
    wait(driver, lambda d: suggestion(d, "Marie Curie"), message="did-you-mean Marie Curie")
    idle(driver)
    alert = driver.find_element("css selector", '[data-testid="stAlert"]').text
    assert "Marie Cury" in alert and "Did you mean" in alert
    assert not subheaders(driver)  # no seed card until the reader picks
    shot(driver, "navigation_misspelt.png")
    suggestion(driver, "Marie Curie").click()
    wait(driver, lambda d: "Marie Curie" in subheaders(d), message="Marie Curie's seed card")
    wait(driver, lambda d: "seed=Marie+Curie" in d.current_url, message="the URL names Marie Curie")
    wait(driver, lambda d: not suggestion(d, "Marie Curie") and not d.find_elements("css selector", '[data-testid="stAlert"]'),
         timeout=20, message="the did-you-mean gone once the seed is picked")
    assert search_box(driver).get_attribute("value") == ""  # the box is for the next seed; the card names this one

    # The title search as the reader types: accents and case forgiven, the picked title becomes the seed.
    type_in_search(driver, "pele")
    wait(driver, lambda d: suggestion(d, "Pelé"), timeout=30, message="Pelé offered for 'pele'")
    idle(driver)
    shot(driver, "navigation_fuzzy_typeahead.png")
    type_in_search(driver, "MARIE curie")
    wait(driver, lambda d: suggestion(d, "Marie Curie") and search_box(d).get_attribute("value") == "MARIE curie",
         timeout=30, message="case forgiven")
    type_in_search(driver, "albert einstien")
    wait(driver, lambda d: suggestion(d, "Albert Einstein"), timeout=30, message="Albert Einstein for a typo")
    type_in_search(driver, "pele")
    wait(driver, lambda d: suggestion(d, "Pelé"), timeout=30, message="Pelé offered again")
    suggestion(driver, "Pelé").click()
    wait(driver, lambda d: "Pelé" in subheaders(d), message="Pelé's seed card")
    idle(driver)
    assert crumbs(driver) == ["Marie Curie", "Pelé"]

    # Mode switches clear the other mode's results.
    click_seed_mode(driver, "Free text")
    wait(driver, lambda d: "Pelé" not in subheaders(d) and not buttons(d, "card-generic-"), message="article cleared")
    idle(driver)
    box = driver.find_element("css selector", ".st-key-seed_text_input input")
    assert box.get_attribute("value") == ""
    box.send_keys("a footballer from Brazil\n")
    wait(driver, lambda d: any(s.startswith("Free text") for s in subheaders(d)), message="free-text results")
    wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, message="free-text columns")
    idle(driver)
    click_seed_mode(driver, "Article")
    wait(driver, lambda d: "Pelé" in subheaders(d), message="back to the trail's article")
    idle(driver)
    assert not any(s.startswith("Free text") for s in subheaders(driver)) and "text=" not in driver.current_url

    # The trail keeps forward history: back to the first crumb, forward again, a new seed truncates.
    neighbour = buttons(driver, "card-generic-")[0]
    third = neighbour.text.strip()
    neighbour.click()
    wait(driver, lambda d: third in subheaders(d), message=f"reseeded to {third}")
    idle(driver)
    assert crumbs(driver) == ["Marie Curie", "Pelé", third]
    buttons(driver, "crumb-0")[0].click()
    wait(driver, lambda d: "Marie Curie" in subheaders(d), message="the first crumb")
    idle(driver)
    assert crumbs(driver) == ["Marie Curie", "Pelé", third]  # nothing thrown away
    assert buttons(driver, "forward")[0].is_enabled() and not buttons(driver, "back")[0].is_enabled()
    shot(driver, "navigation_trail.png")
    buttons(driver, "forward")[0].click()
    wait(driver, lambda d: "Pelé" in subheaders(d), message="forward to Pelé")
    idle(driver)
    fourth = next(b for b in buttons(driver, "card-generic-") if b.text.strip() not in ("", third))
    title = fourth.text.strip()
    fourth.click()
    wait(driver, lambda d: title in subheaders(d), message=f"a new seed {title} from Pelé")
    idle(driver)
    time.sleep(0.5)
    assert crumbs(driver) == ["Marie Curie", "Pelé", title]  # the forward part was replaced
    assert not buttons(driver, "forward")[0].is_enabled()


def test_the_browsers_back_and_forward_follow_the_seed(server, browser):
    """A card click is a new address in the browser's history: its Back and Forward buttons go to the seed before and
    after, as the trail's do (the URL is the view, so a shared or reloaded address shows the same seed), and the
    trail moves with them: one history, not two (issue #37, item 1)."""
    driver = browser
    driver.get(f"{server}/?seed=Marie+Curie")
    wait(driver, lambda d: "Marie Curie" in subheaders(d) and len(buttons(d, "card-generic-")) >= 3,
         message="Marie Curie's columns")
    idle(driver)
    visited = ["Marie Curie"]
    for _ in range(2):  # Marie Curie → a neighbour → one of its neighbours, by card clicks
        neighbour = next(b for b in buttons(driver, "card-generic-") if b.text.strip() not in visited)
        title = neighbour.text.strip()
        neighbour.click()
        wait(driver, lambda d: title in subheaders(d) and crumbs(d) == visited + [title], message=f"reseeded to {title}")
        idle(driver)
        visited.append(title)
    first, second, third = visited
    for step, expected in ((driver.back, second), (driver.back, first), (driver.forward, second)):
        step()
        wait(driver, lambda d: expected in subheaders(d) and here(d) == expected,
             message=f"the browser's {step.__name__}: {expected}, its crumb current")
        idle(driver)
        assert crumbs(driver) == visited  # the trail moved along itself: nothing added
    assert "Marie+Curie" not in driver.current_url
    assert buttons(driver, "back")[0].is_enabled() and buttons(driver, "forward")[0].is_enabled()
    ahead = driver.find_elements("css selector", ".an-trail .an-crumb.an-ahead")
    assert [crumb.text.strip() for crumb in ahead] == [third]  # greyed: Forward reaches it again
    shot(driver, "navigation_browser_back_back_forward.png")
    buttons(driver, "forward")[0].click()  # the trail's own Forward still works from here
    wait(driver, lambda d: third in subheaders(d) and here(d) == third, message=f"the trail's Forward: {third}")


def here(driver) -> str:
    """The trail's current crumb."""
    found = driver.find_elements("css selector", '.an-trail .an-crumb[aria-current="page"]')
    return found[0].text.strip() if found else ""
