"""A Streamlit v2 component of the app whose script sends the reader's actions as triggers, each read into a typed
event before the page reruns (Explore's panel, the maps). Registered once per process; what the browser sends is
bounded before it is parsed (component_input.py)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from app_views.component_input import install_component_bounds


@cache
def _registered(name: str, js: tuple[Path, ...], css: tuple[Path, ...]):
    import streamlit as st

    install_component_bounds()
    script = "\n".join(part.read_text(encoding="utf-8") for part in js)
    styles = "\n".join(part.read_text(encoding="utf-8") for part in css)
    return st.components.v2.component(name, js=script, css=styles or None, isolate_styles=False)


def mount_event_component(name: str, js: Path | Sequence[Path], data: dict, key: str, triggers: Sequence[str],
                          parse: Callable[[str, object], Any], on_event: Callable[[Any], None],
                          css: Path | Sequence[Path] = ()) -> None:
    """Draw the component `name` (script `js`: one file, or files joined in order, the last one's default export the
    component's; styles `css`, one file or several joined) with `data` under `key`; when its script sends one of
    `triggers`, `parse(trigger, value)` makes the event (None: ignored) and `on_event(event)` runs."""
    import streamlit as st

    def received(trigger: str) -> None:
        event = parse(trigger, (st.session_state.get(key) or {}).get(trigger))
        if event is not None:
            on_event(event)

    callbacks = {f"on_{trigger}_change": (lambda trigger=trigger: received(trigger)) for trigger in triggers}
    files = lambda paths: (paths,) if isinstance(paths, Path) else tuple(paths)  # noqa: E731
    _registered(name, files(js), files(css))(data=data, key=key, **callbacks)
