"""Issue #49 item 8 in headless Chromium: an article titled with 10,000 characters filled the first screen through
Explore's trail. Now the trail's crumb and the search's suggestion are one short line each, the whole title on hover
(the crumb's title attribute, the suggestion's tooltip), and the seed's own card shows it in full.
Screenshots: test-artifacts/long_title_*.png."""
from __future__ import annotations

from dataclasses import replace

import pytest

from tests.browser import buttons, chromium, idle, shot, streamlit_server, wait

pytestmark = pytest.mark.slow
LONG_TITLE = "Person 0 " + "and an endless title " * 500  # 10,509 characters


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from benchmarks.common import environment
    from explore.corpus import store_corpus
    from explore.corpus.model import Corpus
    from tests.fixture_corpora import fixture_corpus

    home = tmp_path_factory.mktemp("long-home")
    base = fixture_corpus("longtitle")
    with environment(ASPECTNAV_HOME=str(home)):
        store_corpus(Corpus("longtitle", [replace(base.articles[0], title=LONG_TITLE), *base.articles[1:]],
                            base.provenance))
    with streamlit_server(home, tmp_path_factory.mktemp("long-log") / "s.log", "streamlit_long_titles.log") as url:
        yield url


def test_a_10000_character_title_is_one_short_line_in_the_trail_and_the_suggestions(server, tmp_path):
    with chromium(tmp_path / "profile") as driver:
        driver.set_window_size(1600, 1200)
        driver.get(f"{server}/?corpus=longtitle&seed=p0")
        wait(driver, lambda d: len(buttons(d, "card-links-")) >= 1, message="the links column")
        idle(driver)
        seed_card = driver.find_element("css selector", ".an-seed h3").text
        assert seed_card.replace("\n", " ").strip() == " ".join(LONG_TITLE.split())  # the card itself: in full
        buttons(driver, "card-links-")[0].click()  # on to a neighbour: the long title becomes the trail's first crumb
        wait(driver, lambda d: len(buttons(d, "crumb-")) == 2, message="two crumbs")
        idle(driver)
        crumb = buttons(driver, "crumb-0")[0]
        assert crumb.text.endswith("…") and len(crumb.text) <= 64, crumb.text
        assert crumb.get_attribute("title") == LONG_TITLE
        trail = driver.find_element("css selector", ".an-trail")
        assert trail.size["height"] < 80, trail.size  # one row of steps and crumbs, not a screen of title
        shot(driver, "long_title_trail.png")

        driver.get(f"{server}/?corpus=longtitle")  # a fresh page: the search box and its suggestions
        idle(driver)
        wait(driver, lambda d: d.execute_script("return !!(window.__anEnter && window.__anEnter.seed_picker);"),
             message="the search box ready")
        driver.find_element("css selector", '[class*="st-key-seed_picker"] input').send_keys("endless title")
        suggestion = wait(driver, lambda d: buttons(d, "suggestion-p0"), message="the suggestion")[0]
        assert suggestion.text.endswith("…") and len(suggestion.text) <= 64 and suggestion.size["height"] < 80
        idle(driver)
        shot(driver, "long_title_suggestion.png")
