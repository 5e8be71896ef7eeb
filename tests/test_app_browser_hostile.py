"""Issue #13 item 4 in a real headless Chromium: a hostile corpus (titles, texts, labels, aspect names and
URLs written as Markdown/HTML that points at an "attacker" server on loopback) and hostile ?seed=, ?text=,
?k= and ?blend= values, on Explore, Maps (hover labels included) and Corpus. The attacker server must
get no request, and the page must hold no element that points at it. Screenshots: test-artifacts/hostile_*.png.
"""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlencode

import pytest

from app_views.one_line_title import one_line_title
from tests.browser import buttons, idle, shot, streamlit_server, subheaders, wait
from tests.browser_maps import drawn_maps, hover_point
from tests.fixture_corpora import hostile_corpus

pytestmark = pytest.mark.slow

MAP_WAIT = 600  # seconds: the first map projects both sides


class Attacker:
    """An HTTP server on loopback that answers every request and remembers its path."""

    def __init__(self):
        requests = self.requests = []

        class Recorder(BaseHTTPRequestHandler):
            def do_GET(self):
                requests.append(self.path)
                self.send_response(200)
                self.end_headers()

            do_POST = do_HEAD = do_GET

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def attacker():
    server = Attacker()
    yield server
    server.close()


@pytest.fixture(scope="module")
def corpus(attacker):
    return hostile_corpus(attacker.host)


@pytest.fixture(scope="module")
def server(tmp_path_factory, corpus):
    """The app over a data home holding the hostile corpus, a generic space and a "country" space
    (MiniLM, the real default encoder, so free text is answered too)."""
    from explore.corpus import store_corpus
    from explore.settings import HOME_ENV
    from explore.spaces import spaces_for
    from explore.spaces.registry import SpaceDefinition

    home = tmp_path_factory.mktemp("hostile-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HOME_ENV, str(home))
        store_corpus(corpus)
        registry = spaces_for(corpus, progress=False)
        registry.open("generic")
        registry.build(SpaceDefinition("country", "aspect", "minilm", ("country",)))
    log = tmp_path_factory.mktemp("hostile-log") / "streamlit.log"
    with streamlit_server(home, log, log_name="streamlit-hostile.log") as url:
        yield url


# Elements whose address leads to the attacker's host (an article URL on en.wikipedia.org may carry the
# host's name in its path: that is text, not a way there), and styles that only the corpus could have set.
INJECTED = """
const host = arguments[0];
const hits = new Set();
const leadsThere = value => { try { return new URL(value, document.baseURI).host === host; } catch { return false; } };
for (const el of document.querySelectorAll('*')) {
  for (const attr of el.attributes) {
    const tag = `<${el.tagName.toLowerCase()} ${attr.name}="${attr.value}">`;
    if (/^(src|href|xlink:href|action|formaction|poster|data|background)$/i.test(attr.name) && leadsThere(attr.value))
      hits.add(tag);
    if (/^(srcset|style)$/i.test(attr.name) && attr.value.includes(host)) hits.add(tag);
    if (attr.name === 'style' && /font-size:(60|90)px|color:red|fill:red/.test(attr.value.replace(/\\s+/g, '')))
      hits.add(tag);
  }
  if (['STYLE', 'SCRIPT'].includes(el.tagName) && el.textContent.includes(host))
    hits.add(`<${el.tagName.toLowerCase()}>${el.textContent.slice(0, 80)}`);
}
return [...hits];
"""


def _injected(driver, host: str) -> list[str]:
    return driver.execute_script(INJECTED, host)


def _open(driver, server: str, page: str, **query) -> None:
    driver.get(f"{server}/{page}?{urlencode({'corpus': 'hostile', **query})}")


def _plain(text: str) -> str:
    """What a reader sees: the invisible word joiner that keeps bare addresses from linking dropped."""
    return text.replace("\u2060", "")


def _titles(driver) -> list[str]:
    return [_plain(heading) for heading in subheaders(driver)]


def _main_text(driver) -> str:
    return driver.find_element("css selector", '[data-testid="stMain"]').text


def test_hostile_corpus_and_urls_fetch_nothing_and_inject_nothing(server, browser, attacker, corpus):
    driver, host = browser, attacker.host
    evil = f"http://{host}"
    injected: dict[str, list[str]] = {}  # page -> elements pointing at the attacker, or styled by the corpus
    unreadable: list[str] = []  # hostile text that does not read as the plain text it is
    titles = [article.title for article in corpus.articles[:3]]
    label = corpus.articles[0].aspects["country"][0]

    def check(page: str, text: str, *expected: str) -> None:
        injected[page] = _injected(driver, host)
        text = _plain(text)
        unreadable.extend(f"{page}: {e!r}" for e in expected if e not in text)

    # Explore from a hostile title: the card, the columns of hostile titles and chips, the trail.
    _open(driver, server, "", seed=titles[0])
    wait(driver, lambda d: titles[0] in _titles(d), message="hostile seed card")
    wait(driver, lambda d: len(buttons(d, "card-aspect-country-")) >= 3, message="country column")
    idle(driver)
    check("explore seed", _main_text(driver), f"Read “{titles[0]}” on Wikipedia", f"[more]({evil}/text-link)",
          f"country: {label}", titles[1])
    shot(driver, "hostile_explore_seed.png")
    buttons(driver, "card-links-")[0].click()
    wait(driver, lambda d: titles[1] in _titles(d), message="reseeded by a hostile card")
    wait(driver, lambda d: len(buttons(d, "crumb-")) == 2, message="the trail's crumbs")
    idle(driver)
    check("explore trail", " ".join(b.text for b in buttons(driver, "crumb-")), one_line_title(titles[0]))  # a crumb
    # is the title on one line (#49 item 8), still text
    shot(driver, "hostile_explore_trail.png")

    # A hostile seed that matches nothing, and hostile k and blend: the frame's warnings.
    missing = f"![seed]({evil}/seed.png) <img src={evil}/seed-tag.png> [s]({evil}/seed-link)"
    _open(driver, server, "", seed=missing, k=f"![k]({evil}/k.png)", blend=f"[b]({evil}/blend):1")
    wait(driver, lambda d: "seed" in " ".join(e.text for e in d.find_elements("css selector", '[data-testid="stAlert"]'))
         and len(d.find_elements("css selector", '[data-testid="stAlert"]')) >= 2,
         message="the URL's warnings (the missing seed's, and the frame's for k and blend)")
    idle(driver)
    check("explore warnings", " ".join(e.text for e in driver.find_elements("css selector", '[data-testid="stAlert"]')),
          missing, f"![k]({evil}/k.png)")
    shot(driver, "hostile_explore_warnings.png")

    # Free text written as Markdown/HTML.
    text = f"![text]({evil}/free.png) <a href=\"{evil}/free-a\">a</a> `x`"
    _open(driver, server, "", text=text)
    wait(driver, lambda d: len(buttons(d, "card-generic-")) >= 3, message="free-text columns")
    idle(driver)
    check("explore free text", " ".join(_titles(driver)), text)
    shot(driver, "hostile_explore_text.png")

    # Maps: legend, the seed's label on the chart, and the hover labels.
    _open(driver, server, "maps", seed=titles[1])
    wait(driver, lambda d: drawn_maps(d) == 2, timeout=MAP_WAIT,
         message="two maps")
    idle(driver, timeout=MAP_WAIT)
    time.sleep(1)
    plot = driver.find_elements("css selector", ".an-map")[0]
    check("maps", plot.text, one_line_title(titles[1]), label)  # a map label is one line (#49 item 8)
    check("maps hover seed", hover_point(driver, 0, "★ seed"), titles[1], corpus.articles[1].aspects["country"][0])
    shot(driver, "hostile_maps_hover.png")
    check("maps hover label", hover_point(driver, 0), label)  # the most frequent label

    # Corpus: label charts, the search's matches, the article reader and its links.
    _open(driver, server, "corpus")
    wait(driver, lambda d: len(d.find_elements("css selector", "figure.an-bars")) >= 3, message="label charts")
    idle(driver)
    check("corpus charts", _main_text(driver), label, *corpus.aspect_names)
    shot(driver, "hostile_corpus_charts.png")
    driver.find_element("css selector", ".st-key-browse_query input").send_keys("Image\n")
    wait(driver, lambda d: d.find_elements("css selector", "h2"), message="the article reader")
    idle(driver)
    check("corpus article", _main_text(driver), titles[0], f"Explore from {one_line_title(titles[0])}", titles[1])
    driver.execute_script("document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 1e6)")
    time.sleep(0.5)
    shot(driver, "hostile_corpus_article.png")

    time.sleep(2)  # a late image or stylesheet fetch would arrive by now
    problems = ([f"request reached the injected host: {path}" for path in attacker.requests]
                + [f"{page}: injected {hit}" for page, hits in injected.items() for hit in hits]
                + [f"not shown as plain text on {what}" for what in unreadable])
    assert not problems, "\n".join(problems)
