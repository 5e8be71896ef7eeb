"""A study page reloads itself when its websocket reconnects.

Streamlit's page reconnects its websocket after the server process it talked to went away (killed, restarted, or
replaced by the proxy's next process), but to a new session that has not run the page: the screen keeps the old
session's page, and a click inside a fragment (the study's picks) is dropped by the new process ("The fragment …
does not exist anymore"). On an instance that serves the study alone (ASPECTNAV_STUDY_ONLY, as `aspectnav study
online` runs its processes) the page therefore reloads on a reconnect: the new session resumes the participant from
their cookie, on their task with its picks, from the database. Explore keeps Streamlit's own behaviour.
"""
from __future__ import annotations

from dataclasses import dataclass

from streamlit import config
from starlette.types import ASGIApp, Receive, Scope, Send

from app_server.html_head import with_head_script
from app_server.page_address_hint import page_segment
from study.instance_settings import study_only

# Wraps the page's WebSocket constructor: the second time a socket to /_stcore/stream opens, this page load has lost
# its first one and reconnected. At most one reload in RELOAD_GAP_MS (kept in sessionStorage, so a process that keeps
# dying cannot make the page reload without end; Streamlit's own reconnect carries on meanwhile).
RELOAD_GAP_MS = 30_000
SCRIPT = (b"<script>(function(){var Native=window.WebSocket;var opened=0;var KEY='aspectnav_reconnect_reload';"
          b"function reload(){var last=0;try{last=Number(sessionStorage.getItem(KEY))||0;}catch(e){}"
          b"if(Date.now()-last<" + str(RELOAD_GAP_MS).encode() + b")return;"
          b"try{sessionStorage.setItem(KEY,String(Date.now()));}catch(e){}window.location.reload();}"
          b"function Watched(url,protocols){var socket=protocols===undefined?new Native(url):new Native(url,protocols);"
          b"if(String(url).indexOf('/_stcore/stream')>=0){socket.addEventListener('open',function(){opened+=1;"
          b"if(opened>1){reload();}});}return socket;}"
          b"Watched.prototype=Native.prototype;['CONNECTING','OPEN','CLOSING','CLOSED'].forEach(function(k){"
          b"Watched[k]=Native[k];});window.WebSocket=Watched;})();</script>")


def is_page_address(path: str, base_url_path: str = "") -> bool:
    """The app's root below its base path, or one of its pages: the addresses answered with index.html."""
    base = "/" + base_url_path.strip("/") if base_url_path.strip("/") else ""
    return path in (base, base + "/") or page_segment(path, base_url_path) is not None


@dataclass
class ReconnectReload:
    """ASGI middleware: on a study instance, a GET of a page address answered with HTML gets SCRIPT in its head."""

    app: ASGIApp
    enabled: bool | None = None  # None: read ASPECTNAV_STUDY_ONLY at each request

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        enabled = study_only() if self.enabled is None else self.enabled
        if (not enabled or scope["type"] != "http" or scope.get("method") != "GET"
                or not is_page_address(scope.get("path", ""), config.get_option("server.baseUrlPath") or "")):
            await self.app(scope, receive, send)
            return
        await with_head_script(self.app, scope, receive, send, SCRIPT)
