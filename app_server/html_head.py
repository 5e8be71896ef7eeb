"""Writing a small inline script into the head of the frontend's index.html as the server answers it: the one way the
middleware of app_server/ adds to the page (the page address hint, the study's reload after a reconnect)."""
from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEAD = b"<head>"


async def with_head_script(app: ASGIApp, scope: Scope, receive: Receive, send: Send, script: bytes) -> None:
    """Run `app` for this request; an HTML answer gets `script` as the first thing in its head. index.html is a few
    KiB: it is asked for unencoded, so it is rewritten without unpacking a compressed answer."""
    scope = dict(scope, headers=[(name, value) for name, value in scope["headers"] if name != b"accept-encoding"])
    started: dict = {}
    parts: list[bytes] = []

    async def rewrite(message: Message) -> None:
        if message["type"] == "http.response.start":
            content_type = dict(message.get("headers", [])).get(b"content-type", b"")
            if not content_type.startswith(b"text/html"):
                started["passed"] = True
                await send(message)
            else:
                started.update(message)
            return
        if started.get("passed") or message["type"] != "http.response.body":
            await send(message)
            return
        parts.append(message.get("body", b""))
        if message.get("more_body"):
            return
        html = b"".join(parts)
        if HEAD in html:
            html = html.replace(HEAD, HEAD + script, 1)
        headers = [(name, value) for name, value in started.get("headers", []) if name != b"content-length"]
        await send({"type": "http.response.start", "status": started["status"],
                    "headers": headers + [(b"content-length", str(len(html)).encode())]})
        await send({"type": "http.response.body", "body": html})

    await app(scope, receive, rewrite)
