"""A participant that speaks Streamlit's own websocket protocol, so a load test can drive many sessions
of a real `streamlit run` server without a browser each.

It does what the page's frontend does: opens `/_stcore/stream`, asks for a run, reads the elements the
run sends (ForwardMsg deltas), and answers a click with a new run carrying the widget states (a
button's trigger, a checkbox's value); a click on a widget inside an `st.fragment` asks for that
fragment's run alone, as the browser does. Widgets are found by their `key=`, which ends their element id.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

RUN_TIMEOUT_S = 120.0
COOKIE_SCRIPT = "document.cookie = data.cookie"  # app_views/participant_cookie.py's script


def _script_data(html: str) -> dict:
    """The `data` a page script (app_views/page_script.py) was given: the JSON after its last "})(".""" 
    return json.loads(html[html.rindex("})(") + 3:html.rindex(");</script>")])


@dataclass(frozen=True)
class Widget:
    id: str
    kind: str  # "button", "checkbox", …
    label: str
    disabled: bool
    fragment_id: str = ""  # the st.fragment that drew it ("" = the page itself)


@dataclass
class Screen:
    """What is on screen: widgets by key and every text, each with the fragment that drew it."""

    widgets: dict[str, Widget] = field(default_factory=dict)
    fragment_texts: list[tuple[str, str]] = field(default_factory=list)
    cookies_set: list[str] = field(default_factory=list)  # what the run's scripts wrote to document.cookie
    component_args: list[str] = field(default_factory=list)  # custom components' arguments (JSON)

    @property
    def texts(self) -> list[str]:
        return [text for _, text in self.fragment_texts]

    def text(self) -> str:
        return "\n".join(self.texts)

    def without_fragment(self, fragment_id: str) -> "Screen":
        """The screen before a fragment redraws itself: everything but that fragment's elements."""
        return Screen({k: w for k, w in self.widgets.items() if w.fragment_id != fragment_id},
                      [(f, t) for f, t in self.fragment_texts if f != fragment_id])

    def keys(self, prefix: str) -> list[str]:
        return [key for key in self.widgets if key.startswith(prefix)]


def _key_of(widget_id: str) -> str:
    # Ids of keyed widgets are "$$ID-<hash>-<key>" (the key may hold dashes); unkeyed ones have no key.
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 else widget_id


class StreamlitParticipant:
    """One browser tab's worth of session. Use `async with StreamlitParticipant(url) as tab:`.

    Like a browser it keeps cookies: the proxy's route cookie from the websocket's upgrade answer and the ones
    the page's scripts set (`document.cookie = data.cookie`, the study's participant code), and sends them
    again when it reconnects (`reconnect()`, as the page does after its server process went away)."""

    def __init__(self, base_url: str, ssl_context=None, cookies: dict[str, str] | None = None):
        self.stream_url = (base_url.replace("https://", "wss://", 1).replace("http://", "ws://", 1).rstrip("/")
                           + "/_stcore/stream")
        self.ssl_context = ssl_context
        self.cookies: dict[str, str] = dict(cookies or {})
        self.values: dict[str, WidgetState] = {}  # widgets that keep a value across runs (checkbox…)
        self.query_string = ""  # the address's query, sent with every run as the browser does
        self.screen = Screen()
        self._socket = None

    async def __aenter__(self) -> "StreamlitParticipant":
        await self._connect()
        return self

    async def __aexit__(self, *exc) -> None:
        await self._socket.close()

    async def _connect(self) -> None:
        from websockets.asyncio.client import connect

        header = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        options = {"ssl": self.ssl_context} if self.stream_url.startswith("wss://") else {}
        self._socket = await connect(self.stream_url, subprotocols=["streamlit"], max_size=None, open_timeout=60,
                                     additional_headers={"Cookie": header} if header else None, **options)
        for value in self._socket.response.headers.get_all("Set-Cookie"):
            self._keep_cookie(value)

    async def reconnect(self) -> Screen:
        """A new session over a new websocket with this tab's cookies, as the page makes one after its socket
        closed; the widget values of the old session are gone with it."""
        try:
            await self._socket.close()
        except Exception:  # already dead: that is why we reconnect
            pass
        self.values.clear()
        await self._connect()
        return await self.open()

    def _keep_cookie(self, text: str) -> None:
        pair, _, attributes = text.partition(";")
        name, _, value = pair.strip().partition("=")
        if "max-age=0" in attributes.replace(" ", "").lower() or not value:
            self.cookies.pop(name, None)
        elif name:
            self.cookies[name] = value

    async def open(self, query_string: str = "") -> Screen:
        """The first run, as a page load asks for it (`query_string`: the address's part after "?")."""
        self.query_string = query_string
        return await self._run([])

    async def check(self, key: str, value: bool = True) -> Screen:
        widget = self._widget(key)
        self.values[widget.id] = WidgetState(id=widget.id, bool_value=value)
        return await self._run([])

    async def click(self, key: str) -> Screen:
        widget = self._widget(key)
        if widget.disabled:
            raise RuntimeError(f"button {key!r} ({widget.label!r}) is disabled")
        return await self._run([WidgetState(id=widget.id, trigger_value=True)], widget.fragment_id)

    async def send_event(self, key: str, event: str, value) -> Screen:
        """What a custom component (components v2) sends: one event with its JSON value, through the component's
        trigger aggregator (Streamlit's id for it: the component's id, "__", "events")."""
        widget = self._widget(key)
        # The page sends the component's own state with every run once it is mounted (an empty one here); without
        # it Streamlit drops the component's first event.
        self.values.setdefault(widget.id, WidgetState(id=widget.id, json_value="{}"))
        aggregator = f"$$STREAMLIT_INTERNAL_KEY_{widget.id}__events"
        trigger = WidgetState(id=aggregator, json_trigger_value=json.dumps([{"event": event, "value": value}]))
        return await self._run([trigger], widget.fragment_id)

    def _widget(self, key: str) -> Widget:
        try:
            return self.screen.widgets[key]
        except KeyError:
            raise RuntimeError(f"no widget {key!r} on screen; screen shows: {self.screen.text()[:300]!r}") from None

    async def _run(self, triggers: list[WidgetState], fragment_id: str = "") -> Screen:
        message = BackMsg()
        message.rerun_script.widget_states.widgets.extend([*self.values.values(), *triggers])
        message.rerun_script.fragment_id = fragment_id
        message.rerun_script.query_string = self.query_string
        await self._socket.send(message.SerializeToString())
        return await asyncio.wait_for(self._read_until_done(fragment_id), RUN_TIMEOUT_S)

    async def _read_until_done(self, fragment_id: str) -> Screen:
        """Collect runs until one finishes without asking for another (st.rerun starts a new run)."""
        screen, fragment_run = Screen(), bool(fragment_id)
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(await self._socket.recv())
            kind = forward.WhichOneof("type")
            if kind == "page_info_changed":  # the page changed its address (st.query_params)
                self.query_string = forward.page_info_changed.query_string
            elif kind == "new_session":
                # Every run starts so. The run asked for may be the fragment's; any later one (st.rerun) is the page's.
                screen = self.screen.without_fragment(fragment_id) if fragment_run else Screen()
                fragment_run = False
            elif kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                self._read_element(forward.delta.new_element, forward.delta.fragment_id, screen)
            elif kind == "script_finished":
                # A run cut short for a rerun (st.rerun) is followed by the next run's messages.
                if forward.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    for cookie in screen.cookies_set:
                        self._keep_cookie(cookie)
                    self.screen = screen
                    return screen
                screen = Screen()

    @staticmethod
    def _read_element(element, fragment_id: str, screen: Screen) -> None:
        kind = element.WhichOneof("type")
        inner = getattr(element, kind)
        if hasattr(inner, "id") and inner.id and hasattr(inner, "label"):
            screen.widgets[_key_of(inner.id)] = Widget(inner.id, kind, inner.label, getattr(inner, "disabled", False),
                                                       fragment_id)
            screen.fragment_texts.append((fragment_id, inner.label))
        for text_field in ("body", "text"):
            if isinstance(getattr(inner, text_field, None), str):
                screen.fragment_texts.append((fragment_id, getattr(inner, text_field)))
        if kind == "bidi_component":  # a custom component: kept as a widget, its arguments as JSON
            screen.widgets[_key_of(inner.id)] = Widget(inner.id, kind, inner.component_name, False, fragment_id)
            if inner.json:
                screen.component_args.append(inner.json)
        if kind == "html" and COOKIE_SCRIPT in inner.body:
            screen.cookies_set.append(_script_data(inner.body)["cookie"])
