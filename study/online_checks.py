"""Checks of a study's public address, made the way participants' browsers reach it (HTTPS through the proxy, the
page, Streamlit's websocket, sticky routing), each failure said with what to change in the proxy."""
from __future__ import annotations

import asyncio
import json
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

from study.online_settings import PublicAddress

TIMEOUT_S = 10.0
ROUTE_COOKIE = "aspectnav_route"


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.name}: {self.detail}"


def tls_context(ca_file: Path | None) -> ssl.SSLContext:
    """The system's trust store, or only `ca_file` (a self-signed certificate on a loopback trial)."""
    return ssl.create_default_context(cafile=str(ca_file) if ca_file else None)


def _get(url: str, context: ssl.SSLContext, cookie: str | None = None) -> tuple[int, str, Message]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S, context=context) as response:
            return response.status, response.read().decode("utf-8", "replace"), response.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace"), exc.headers or Message()


def _seen(url: str, context: ssl.SSLContext, cookie: str | None = None) -> dict:
    """What the app process was told (app_server/proxy_probe.py); {} when the probe did not answer."""
    status, body, _ = _get(url + "_aspectnav/proxy", context, cookie)
    try:
        found = json.loads(body) if status == 200 else {}
    except json.JSONDecodeError:
        found = {}
    return found if isinstance(found, dict) else {}


def _reach(url: str, context: ssl.SSLContext) -> Check | None:
    """None when the address answers over TLS at all, else why not."""
    try:
        _get(url, context)
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, ssl.SSLCertVerificationError):
            return Check("https", False, f"the certificate is not trusted ({reason.verify_message}); with a "
                                         "self-signed certificate pass it as --ca-file")
        return Check("https", False, f"{url} does not answer ({reason}); is the proxy running and listening there?")
    return None


def _route_cookie(headers: Message) -> str | None:
    for value in headers.get_all("Set-Cookie") or []:
        if value.startswith(ROUTE_COOKIE + "="):
            return value.split(";", 1)[0]
    return None


async def _websocket(url: str, context: ssl.SSLContext, cookie: str | None) -> Check:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    stream = url.replace("https://", "wss://", 1) + "_stcore/stream"
    try:
        async with connect(stream, ssl=context, subprotocols=["streamlit"], open_timeout=TIMEOUT_S,
                           additional_headers={"Cookie": cookie} if cookie else None):
            return Check("websocket", True, "the page's websocket opens through the proxy")
    except InvalidStatus as exc:
        return Check("websocket", False, f"the proxy answered the websocket upgrade with HTTP "
                     f"{exc.response.status_code}: participants would see 'Connecting…' for ever. Its location "
                     "block needs `proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; "
                     "proxy_set_header Connection $aspectnav_connection;` (deploy/study.conf.template)")
    except Exception as exc:  # a reset or timeout: same advice, the proxy did not carry it
        return Check("websocket", False, f"the websocket through the proxy failed ({type(exc).__name__}: {exc}); "
                     "the proxy must pass Upgrade and Connection headers (deploy/study.conf.template)")


def check_public_address(address: PublicAddress, ca_file: Path | None = None,
                         processes: int | None = None) -> list[Check]:
    """Every check, in the order a participant's visit needs them; stops early when the address is unreachable."""
    context = tls_context(ca_file)
    url = address.url
    if (unreachable := _reach(url, context)) is not None:
        return [unreachable]
    checks = []
    status, body, headers = _get(url, context)
    cookie = _route_cookie(headers)
    checks.append(Check("page", status == 200 and 'id="root"' in body,
                        f"HTTP {status}" + ("" if 'id="root"' in body else ", but not the app's page")))
    hsts = headers.get("Strict-Transport-Security", "")
    checks.append(Check("HSTS", "max-age=" in hsts, f"browsers are told to keep to https ({hsts})" if hsts else
                        "no Strict-Transport-Security header on the study's page: add it inside the location block "
                        "(a location with an add_header of its own inherits none of the server's)"))
    status, body, _ = _get(url + "_stcore/health", context, cookie)
    checks.append(Check("health", status == 200 and body.strip() == "ok", f"HTTP {status} {body.strip()[:40]!r}"))
    seen = _seen(url, context, cookie)
    proto = seen.get("forwarded_proto", "")
    checks.append(Check("X-Forwarded-Proto", proto == "https",
                        "the app is told participants use https" if proto == "https" else
                        f"the app is told {proto or 'nothing'!r} instead of 'https': add `proxy_set_header "
                        "X-Forwarded-Proto $scheme;` to the proxy's location block"))
    checks.append(Check("prefix", seen.get("forwarded_prefix", "") in ("", address.prefix),
                        f"served under {address.prefix}"))
    checks.append(asyncio.run(_websocket(url, context, cookie)))
    pids = {_seen(url, context, cookie).get("process") for _ in range(4)} - {None}
    checks.append(Check("sticky", len(pids) == 1, "one browser's requests reach one process" if len(pids) == 1 else
                        f"one browser's requests reached {len(pids)} processes: the upstream needs `hash "
                        "$aspectnav_route consistent;` and the route cookie"))
    if processes and processes > 1:  # 8 new browsers a process: all are reached unless one is down
        reached = {_seen(url, context).get("process") for _ in range(8 * processes)} - {None}
        checks.append(Check("processes", len(reached) == processes,
                            f"new browsers are spread over {len(reached)} of {processes} processes"))
    return checks
