"""Bounds on what a browser may send to the app's components (Explore's panel, the Enter key), checked before
the JSON is parsed: Streamlit's own parsing lets a 5,000-digit number or a 50,000-deep array raise on the page,
and runs one callback per event of a message however many it carries. A message over the bounds is logged and
ignored; the panel itself only ever sends a few small events.

`install_component_bounds` puts the check into Streamlit's two deserializers of v2 components (the trigger
events and the component state); the panel and the Enter key install it before they mount.
"""
from __future__ import annotations

import json
import logging
import re

log = logging.getLogger("aspectnav.component_input")

MAX_BYTES = 64 * 1024  # a message; the panel's largest (a mix of every space) is well under 1 KiB
MAX_DEPTH = 16  # nesting of arrays and objects; the panel's deepest is 3
MAX_DIGITS = 30  # in one number (a float's 17 significant digits and an exponent fit)
MAX_EVENTS = 8  # events in one message; the panel sends one per reader action
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_BOUNDED = "_aspectnav_bounded"


class _Refused(ValueError):
    pass


def _bounded_number(text: str):
    if len(text) > MAX_DIGITS:
        raise _Refused(f"a number of {len(text):,} characters (at most {MAX_DIGITS})")
    return int(text) if text.lstrip("-").isdigit() else float(text)


def bounded_json(raw: str) -> object:
    """`raw` parsed, or _Refused (a ValueError) when it is over a bound; the bounds are checked on the text before
    Python's parser sees it, in time linear in its length."""
    if len(raw) > MAX_BYTES:
        raise _Refused(f"{len(raw):,} characters (at most {MAX_BYTES:,})")
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", raw)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise _Refused(f"nested {deepest:,} deep (at most {MAX_DEPTH})")
    return json.loads(raw, parse_int=_bounded_number, parse_float=_bounded_number)


def _ignored(raw: str, problem: Exception) -> None:
    log.warning("Ignored a component message from a browser: %s (starts %r)", problem, raw[:80])


def bounded_trigger_list(raw: str | None) -> list | None:
    """Streamlit's trigger events of one message, bounded: None (no callback runs) for a message over a bound,
    not JSON, or carrying more than MAX_EVENTS events."""
    if raw is None:
        return None
    try:
        value = bounded_json(raw)
    except (ValueError, RecursionError) as problem:
        _ignored(raw, problem)
        return None
    payloads = value if isinstance(value, list) else [value]
    if len(payloads) > MAX_EVENTS:
        _ignored(raw, _Refused(f"{len(payloads):,} events in one message (at most {MAX_EVENTS})"))
        return None
    return payloads


def install_component_bounds() -> None:
    """Check every v2 component message against the bounds before Streamlit parses it (once per process)."""
    try:
        from streamlit.components.v2.bidi_component import main
        from streamlit.components.v2.bidi_component.serialization import BidiComponentSerde
        main.deserialize_trigger_list, BidiComponentSerde.deserialize  # noqa: B018 - both must exist
    except (ImportError, AttributeError) as error:  # another Streamlit: the page still works (tests catch this)
        log.warning("Streamlit's component internals have moved (%s): browser messages are parsed unbounded", error)
        return
    if getattr(main.deserialize_trigger_list, _BOUNDED, False):
        return
    bounded_trigger_list.__dict__[_BOUNDED] = True
    main.deserialize_trigger_list = bounded_trigger_list
    parse_state = BidiComponentSerde.deserialize

    def bounded_state(self, ui_value):
        if isinstance(ui_value, str):
            try:
                bounded_json(ui_value)
            except (ValueError, RecursionError) as problem:
                _ignored(ui_value, problem)
                ui_value = "{}"
        return parse_state(self, ui_value)

    BidiComponentSerde.deserialize = bounded_state
