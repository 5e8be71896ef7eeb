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


def test_the_script_reloads_only_on_a_second_opening_of_the_stream():
    text = SCRIPT.decode()
    assert "'/_stcore/stream'" in text and "opened>1" in text and "window.location.reload()" in text
    assert "</script>" not in text[:-len("</script>")]  # one script element, closed once
