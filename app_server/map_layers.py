"""Serves the maps' layers (app_views/map_chart/layer_store.py) at `<page address>/_an/map-layers/<digest>.json`:
immutable (the address is the content's digest), so the browser fetches a layer once and keeps it, compressed with
gzip for a browser that accepts it. Any path that ends so is answered, whatever base path or proxy prefix is before it.
"""
from __future__ import annotations

import gzip
import re
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from app_views.map_chart.layer_store import PATH, compressed_layer, serve_layers

LAYER = re.compile(rf"/{re.escape(PATH)}/([0-9a-f]{{32}})\.json$")
CACHED = b"public, max-age=31536000, immutable"


@dataclass
class MapLayerServer:
    """ASGI middleware: a GET or HEAD of a layer's address is answered from the store; everything else passes."""

    app: ASGIApp

    def __post_init__(self) -> None:
        serve_layers()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = LAYER.search(scope.get("path", "")) if scope["type"] == "http" else None
        if found is None or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        body = compressed_layer(found.group(1))
        if body is None:
            await _answer(send, 404, b"This map layer is not kept any more: reload the page.", b"text/plain",
                          head=scope["method"] == "HEAD")
            return
        accepted = b",".join(value for name, value in scope.get("headers", []) if name == b"accept-encoding")
        zipped = b"gzip" in accepted
        await _answer(send, 200, body if zipped else gzip.decompress(body), b"application/json",
                      [(b"cache-control", CACHED), (b"vary", b"Accept-Encoding")]
                      + ([(b"content-encoding", b"gzip")] if zipped else []), head=scope["method"] == "HEAD")


async def _answer(send: Send, status: int, body: bytes, content_type: bytes, headers: list | None = None,
                  head: bool = False) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": b"" if head else body})
