"""The maps' layers served over HTTP: at any path ending in a published layer's address, compressed for a browser
that accepts gzip and plain otherwise, cached for good; a layer not kept is a 404 that says what to do; every other
request passes to the app (serve.py's real server is driven by tests/test_app_browser_maps.py)."""
from __future__ import annotations

import asyncio
import gzip
import json
import threading
from collections import OrderedDict

import pytest

from app_server.map_layers import MapLayerServer
from app_views.map_chart import layer_store


@pytest.fixture(autouse=True)
def _own_store(monkeypatch):
    """Each test its own store and flag: mounting the server here must not make AppTest pages in this process send
    addresses instead of the layers themselves."""
    monkeypatch.setattr(layer_store, "_layers", OrderedDict())
    monkeypatch.setattr(layer_store, "_served", threading.Event())


async def _passed(scope, receive, send):
    await send({"type": "http.response.start", "status": 204, "headers": [(b"x-app", b"streamlit")]})
    await send({"type": "http.response.body", "body": b""})


def get(path: str, method: str = "GET", gzip_ok: bool = True) -> tuple[int, dict, bytes]:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    headers = [(b"accept-encoding", b"gzip, deflate, br")] if gzip_ok else []
    asyncio.run(MapLayerServer(_passed)({"type": "http", "method": method, "path": path, "headers": headers},
                                        receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def test_a_published_layer_is_served_below_any_page_address_compressed_and_cached_for_good():
    text = json.dumps([{"name": "People (3)", "hovertext": ["<b>Marie Curie</b>"]}])
    address = layer_store.publish(text)
    assert address.startswith("./_an/map-layers/") and address.endswith(".json")
    for page in ("/maps", "/aspectnav/maps", "/proxy/prefix/maps/", ""):
        status, headers, body = get(page.rstrip("/") + address[1:])
        assert status == 200 and gzip.decompress(body).decode() == text, page
        assert headers[b"content-encoding"] == b"gzip" and b"immutable" in headers[b"cache-control"]
        assert headers[b"content-type"] == b"application/json" and int(headers[b"content-length"]) == len(body)
    status, headers, body = get("/maps" + address[1:], gzip_ok=False)
    assert status == 200 and body.decode() == text and b"content-encoding" not in headers
    status, headers, body = get("/maps" + address[1:], method="HEAD")
    assert status == 200 and body == b"" and int(headers[b"content-length"]) > 0


def test_the_same_layer_is_one_address_and_a_layer_not_kept_is_a_404_that_says_what_to_do():
    text = json.dumps({"the same": "points"})
    assert layer_store.publish(text) == layer_store.publish(text)
    status, headers, body = get("/maps/_an/map-layers/" + "0" * 32 + ".json")
    assert status == 404 and b"reload the page" in body and headers[b"content-type"] == b"text/plain"


def test_everything_else_passes_to_the_app():
    for path, method in (("/maps", "GET"), ("/_an/map-layers/not-a-digest.json", "GET"), ("/_stcore/health", "GET"),
                         ("/maps/_an/map-layers/" + "a" * 32 + ".json", "POST")):
        status, headers, _ = get(path, method)
        assert status == 204 and headers[b"x-app"] == b"streamlit", path


def test_mounting_the_server_says_layers_are_served():
    MapLayerServer(_passed)
    assert layer_store.layers_served()
