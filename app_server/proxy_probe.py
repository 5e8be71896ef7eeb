"""What the app process sees of the proxy in front of it, so the researcher can check the proxy before participants
arrive: `GET <prefix>/_aspectnav/proxy` answers with the forwarded scheme, host and prefix the request carried and
which process answered (the launcher's check and the kill test read it). A request whose X-Forwarded-Proto says
something other than the public address's scheme is logged once, with the line of the proxy's configuration to fix:
the participant's browser is fine, but a proxy that says "http" is not the one `deploy/study.conf.template` writes.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from study.online_settings import PUBLIC_URL_ENV

PROBE_SUFFIX = "/_aspectnav/proxy"
log = logging.getLogger(__name__)


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


@dataclass
class ProxyProbe:
    """ASGI middleware; `public_url` None reads $ASPECTNAV_PUBLIC_URL (set by `aspectnav study online`)."""

    app: ASGIApp
    public_url: str | None = None
    _warned: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        url = self.public_url if self.public_url is not None else os.environ.get(PUBLIC_URL_ENV, "")
        self.expected_scheme = urlsplit(url).scheme if url else ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            self._check_scheme(scope)
        if scope["type"] == "http" and scope.get("path", "").endswith(PROBE_SUFFIX):
            body = json.dumps({"forwarded_proto": _header(scope, b"x-forwarded-proto"),
                               "forwarded_host": _header(scope, b"x-forwarded-host"),
                               "forwarded_prefix": _header(scope, b"x-forwarded-prefix"),
                               "upgrade_header_passed": bool(_header(scope, b"upgrade")),
                               "process": os.getpid()}).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)

    def _check_scheme(self, scope: Scope) -> None:
        if not self.expected_scheme or self._warned:
            return
        proto = _header(scope, b"x-forwarded-proto")
        if proto and proto.lower() != self.expected_scheme:
            self._warned = True
            log.warning("The proxy says participants came over %r, but the study's public address is %s://…: set "
                        "`proxy_set_header X-Forwarded-Proto $scheme;` in the proxy's location block "
                        "(deploy/study.conf.template) and reload it.", proto, self.expected_scheme)
