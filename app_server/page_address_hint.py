"""Tells the browser that a page's address is a page of the app, not the base path the app is served under.

Opened at `/maps` or `/corpus`, Streamlit's frontend cannot tell a page from a base path: it asks for
`/maps/_stcore/health`, gets a 404, waits 100 ms and asks again at the root, on every fresh open of a page other than
the default one (half of a minimal page's whole open on a 2-core machine). The server does know: the app's pages are
the single-segment paths below its own base, for which it answers with the frontend's index.html. Into that answer
this middleware writes a small script that sets the frontend's documented `window.__streamlit.BACKEND_BASE_URL` to the
address minus that segment, so the first probe is the right one. The address minus the segment is worked out in the
browser, so a proxy that serves the app under a prefix of its own (and strips it) keeps working.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from streamlit import config
from starlette.types import ASGIApp, Receive, Scope, Send

from app_server.html_head import with_head_script

# The page's segment as the server saw it; the script strips it from the browser's address only when the address ends
# with it (else the frontend probes as it always does).
SCRIPT = ("<script>(function(){{var page={page};var path=location.pathname.replace(/\\/+$/,'');"
          "var cut=path.lastIndexOf('/')+1;if(decodeURIComponent(path.slice(cut))!==page)return;"
          "window.__streamlit=Object.assign({{}},window.__streamlit,"
          "{{BACKEND_BASE_URL:location.origin+path.slice(0,cut)}});}})();</script>")


def page_segment(path: str, base_url_path: str = "") -> str | None:
    """The page named by a request's `path` (as ASGI gives it: decoded) below the server's `base_url_path` (`/maps` →
    "maps"), or None where the path is the root, nested or one of the server's own routes."""
    base = "/" + base_url_path.strip("/") if base_url_path.strip("/") else ""
    if base and not path.startswith(base + "/"):
        return None
    rest = path[len(base):].strip("/")
    if not rest or "/" in rest or rest.startswith("_stcore"):
        return None
    return rest


def hint_script(page: str) -> bytes:
    """The inline script for `page`, safe to write into HTML whatever the page's name (it comes from the request)."""
    literal = json.dumps(page).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return SCRIPT.format(page=literal).encode()


@dataclass
class PageAddressHint:
    """ASGI middleware: a GET of a page's address answered with HTML gets the hint as the first thing in its head.
    `base_url_path` None reads the server's `server.baseUrlPath` per request (set by flag, file or environment)."""

    app: ASGIApp
    base_url_path: str | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        base = config.get_option("server.baseUrlPath") if self.base_url_path is None else self.base_url_path
        page = page_segment(scope.get("path", ""), base or "") \
            if scope["type"] == "http" and scope.get("method") == "GET" else None
        if page is None:
            await self.app(scope, receive, send)
            return
        await with_head_script(self.app, scope, receive, send, hint_script(page))
