"""A corpus whose spaces are not built yet, opened in a real headless Chromium: the reader sees a bar with
articles done, articles/s and the time left while its generic space is encoded (real MiniLM), then the
columns. Screenshots: test-artifacts/first_open_encoding.png (mid-encode), first_open_done.png."""
from __future__ import annotations

import time

import pytest

from explore.corpus.model import Article, Corpus, Provenance
from tests.browser import buttons, idle, shot, streamlit_server, wait

pytestmark = pytest.mark.slow
ARTICLES = 700  # under auto's measuring size (torch runs it): about 5-15 s of encoding on 2 cores
PROGRESS = '[data-testid="stProgress"]'
TOPICS = ["river", "mountain", "painter", "composer", "city", "battle", "physicist", "novel", "temple", "bridge"]


def long_leads_corpus() -> Corpus:
    """Leads of ~90 words, so the encode takes long enough to watch its bar."""
    articles = []
    for i in range(ARTICLES):
        topic = TOPICS[i % len(TOPICS)]
        lead = " ".join(f"Item {i} is a {topic} known for feature {j} of {TOPICS[(i + j) % len(TOPICS)]} studies, "
                        f"described in source {i * 7 + j}." for j in range(6))
        articles.append(Article(f"item-{i}", f"Item {i} ({topic})", lead, aspects={"topic": (topic,)}))
    return Corpus("unbuilt", articles, Provenance(source="test", date="2026-01-01"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from explore.corpus import store_corpus
    from explore.settings import HOME_ENV

    home = tmp_path_factory.mktemp("unbuilt-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HOME_ENV, str(home))
        store_corpus(long_leads_corpus())
    with streamlit_server(home, tmp_path_factory.mktemp("unbuilt-log") / "s.log", "streamlit_first_open.log") as url:
        yield url


def test_a_corpus_opened_for_the_first_time_shows_its_encoding_progress(server, browser):
    driver = browser
    driver.get(f"{server}/?corpus=unbuilt&seed=Item+3+%28composer%29")
    bar = wait(driver, lambda d: next((e for e in d.find_elements("css selector", PROGRESS) if " done · " in e.text),
                                      None), timeout=180, message="encoding bar with articles done")
    text = bar.text
    shot(driver, "first_open_encoding.png")
    assert f"Encoding the {ARTICLES:,} articles of unbuilt for its spaces (first open only)" in text, text
    assert "articles/s" in text and " left" in text, text

    started = time.monotonic()
    wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, timeout=300, message="generic column")
    idle(driver)
    shot(driver, "first_open_done.png")
    assert not [e for e in driver.find_elements("css selector", PROGRESS) if "Encoding the" in e.text], \
        "the bar is cleared once the spaces are open (the cards' similarity bars stay)"
    assert time.monotonic() - started < 300
