"""The study page's reload after a reconnect, written into index.html: only on an instance serving the study alone,
only into the page addresses' HTML, and as a script that reloads on the second opening of the page's websocket (run
in Chromium by tests/study/test_online_study.py, where a killed process makes the page reconnect)."""
from __future__ import annotations

import asyncio

import pytest

from app_server.reconnect_reload import SCRIPT, ReconnectReload, is_page_address
from tests.app_server.test_page_address_hint import INDEX, answer


def fetch(middleware, path: str) -> bytes:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "headers": [(b"accept-encoding", b"gzip")]}
    asyncio.run(middleware(scope, receive, send))
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@pytest.mark.parametrize("path, base, page", [
    ("/", "", True), ("/study", "", True), ("/mystudy/", "mystudy", True), ("/mystudy", "mystudy", True),
    ("/mystudy/study-results", "mystudy", True), ("/_stcore/health", "", False), ("/static/js/a.js", "", False),
    ("/mystudy/static/x.js", "mystudy", False), ("/other/", "mystudy", False),
])
def test_the_page_addresses_are_the_root_and_its_pages(path, base, page):
    assert is_page_address(path, base) is page


def test_a_study_instance_gets_the_reload_and_explore_does_not():
    app, _ = answer(INDEX, b"text/html; charset=utf-8")
    study = fetch(ReconnectReload(app, enabled=True), "/")
    assert study.startswith(b"<!DOCTYPE html><html><head>" + SCRIPT)
    assert fetch(ReconnectReload(app, enabled=False), "/") == INDEX


def test_other_answers_pass_untouched():
    script, _ = answer(b"console.log(1)", b"application/javascript")
    assert fetch(ReconnectReload(script, enabled=True), "/static/js/main.js") == b"console.log(1)"


@pytest.mark.slow  # a browser
def test_the_script_reloads_on_a_second_opening_of_the_stream_at_most_once_in_thirty_seconds(tmp_path):
    """Run in Chromium against a stand-in WebSocket, counting page loads in sessionStorage: the first opening does
    nothing, the second reloads the page, and in the reloaded page two more openings within 30 s do not."""
    import time

    from tests.browser import chromium, wait

    page = tmp_path / "page.html"
    page.write_text("<html><head><script>sessionStorage.setItem('loads',String(Number(sessionStorage.getItem('loads')"
                    "||0)+1));window.WebSocket=function(url){var s={listeners:[],addEventListener:function(k,f){"
                    "this.listeners.push(f);},open:function(){this.listeners.forEach(function(f){f();});}};"
                    "return s;};</script>" + SCRIPT.decode() + "</head><body>page</body></html>")
    open_stream = "new WebSocket('ws://h/_stcore/stream').open();return Number(sessionStorage.getItem('loads'));"
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    # Served over http on loopback: a file:// page has an opaque origin, whose sessionStorage a reload may not keep.
    quiet = type("Quiet", (SimpleHTTPRequestHandler,), {"log_message": lambda *_: None})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with chromium(tmp_path / "profile") as driver:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/page.html")
        assert driver.execute_script(open_stream) == 1  # the page's own first socket
        driver.execute_script("new WebSocket('ws://h/other').open();new WebSocket('ws://h/other').open();")
        assert driver.execute_script("return Number(sessionStorage.getItem('loads'));") == 1  # other sockets: no
        driver.execute_script("new WebSocket('ws://h/_stcore/stream').open();")  # a reconnect: the page reloads
        wait(driver, lambda d: d.execute_script("return Number(sessionStorage.getItem('loads'));") == 2, timeout=10,
             message="the page did not reload")
        driver.execute_script(open_stream)
        driver.execute_script("new WebSocket('ws://h/_stcore/stream').open();")  # within 30 s of the last reload
        time.sleep(2.0)  # long enough for a reload to have happened
        assert driver.execute_script("return Number(sessionStorage.getItem('loads'));") == 2
    server.shutdown()
