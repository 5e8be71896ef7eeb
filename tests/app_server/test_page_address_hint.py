"""The page address hint written into the app's index.html: for which requests, what it says, and that nothing else
the server answers is touched (an ASGI app stands in for Streamlit's static files; serve.py's real server is in
tests/test_app_browser_page_speed.py)."""
from __future__ import annotations

import asyncio
import gzip
import json
import re

import pytest

from app_server.page_address_hint import PageAddressHint, hint_script, page_segment

INDEX = b"<!DOCTYPE html><html><head><title>Streamlit</title></head><body></body></html>"


def answer(body: bytes, content_type: bytes, chunks: int = 1, encoding: bytes | None = None):
    """An ASGI app answering every request with `body` (in `chunks` parts); it records the headers it was asked with."""
    seen: list[dict] = []

    async def app(scope, receive, send):
        seen.append(dict(scope["headers"]))
        headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()),
                   (b"etag", b'"index"')] + ([(b"content-encoding", encoding)] if encoding else [])
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        size = -(-len(body) // chunks)
        for start in range(0, len(body), size):
            await send({"type": "http.response.body", "body": body[start:start + size],
                        "more_body": start + size < len(body)})
    return app, seen


def get(app, path: str, base: str = "", method: str = "GET") -> tuple[int, dict, bytes]:
    """Status, headers and body of `method path` through the middleware."""
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": [(b"accept-encoding", b"gzip"),
                                                                        (b"host", b"reader")]}
    asyncio.run(PageAddressHint(app, base_url_path=base)(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


@pytest.mark.parametrize("path, base, page", [
    ("/maps", "", "maps"), ("/corpus/", "", "corpus"), ("/study-results", "", "study-results"),
    ("/aspectnav/maps", "aspectnav", "maps"), ("/aspectnav/maps", "/aspectnav/", "maps"),
    ("/", "", None), ("", "", None), ("/aspectnav", "aspectnav", None), ("/maps", "aspectnav", None),
    ("/app/static/plotly.min.js", "", None), ("/_stcore/health", "", None), ("/maps/_stcore/health", "", None),
    ("/_stcore", "", None), ("/component/x/index.html", "", None),
])
def test_only_a_page_below_the_servers_base_is_a_page(path, base, page):
    assert page_segment(path, base) == page


def test_a_page_is_hinted_first_in_the_head_and_its_length_follows():
    app, seen = answer(INDEX, b"text/html; charset=utf-8", chunks=3)
    status, headers, body = get(app, "/maps")
    assert status == 200 and body.startswith(b"<!DOCTYPE html><html><head><script>") and body.endswith(INDEX[-50:])
    assert int(headers[b"content-length"]) == len(body) and headers[b"etag"] == b'"index"'
    assert b"accept-encoding" not in seen[0], "asked for unencoded, so it is rewritten without unpacking"
    assert body.count(b"<script>") == 1 and b'var page="maps"' in body


def test_the_root_other_methods_and_other_answers_pass_untouched():
    app, seen = answer(INDEX, b"text/html")
    assert get(app, "/")[2] == INDEX and seen[-1][b"accept-encoding"] == b"gzip"
    assert get(app, "/maps", method="POST")[2] == INDEX
    packed = gzip.compress(b"window.Plotly = {};")
    app, seen = answer(packed, b"application/javascript", encoding=b"gzip")
    status, headers, body = get(app, "/app/static/plotly.min.js")
    assert body == packed and headers[b"content-encoding"] == b"gzip" and seen[-1][b"accept-encoding"] == b"gzip"
    app, _ = answer(b'{"ok": true}', b"application/json")
    assert get(app, "/maps")[2] == b'{"ok": true}', "a page address answered with something else than HTML"


def test_the_pages_name_cannot_close_the_script_or_break_out_of_its_string():
    script = hint_script('maps</script><img src=x onerror=alert(1)>"\'&').decode()
    assert script.count("</script>") == 1 and "<img" not in script and "&" not in script
    literal = re.search(r"var page=(.*?);var path", script).group(1)
    assert json.loads(literal) == 'maps</script><img src=x onerror=alert(1)>"\'&'


@pytest.mark.slow
@pytest.mark.parametrize("address, page, base", [
    ("https://reader.example/maps", "maps", "https://reader.example/"),
    ("https://reader.example/maps/", "maps", "https://reader.example/"),
    ("https://reader.example/proxy/prefix/corpus?seed=Marie+Curie", "corpus", "https://reader.example/proxy/prefix/"),
    ("https://reader.example/caf%C3%A9", "café", "https://reader.example/"),
    ("https://reader.example/other", "maps", None),  # the address does not end with the page: probing as ever
])
def test_the_script_names_the_address_minus_the_page(browser, address, page, base):
    """The script run by Chromium, with the address it would be opened at as its `location` and a `window` of its
    own (a page cannot be opened at another site's address)."""
    script = hint_script(page).decode().removeprefix("<script>").removesuffix("</script>")
    said = browser.execute_script("return (function (location, window) { " + script + "; return window.__streamlit"
                                  " || null; })(new URL(arguments[0]), {});", address)
    assert (said and said["BACKEND_BASE_URL"]) == base
