"""What a browser sends to the app's components (the Explore panel, the Enter key) is bounded before it is
parsed: a huge number, a deep array or a flood of events in one message is logged and ignored, never an exception
on the page or thousands of callbacks."""
from __future__ import annotations

import json
import logging

import pytest
from streamlit.components.v2.bidi_component import main as bidi_main
from streamlit.components.v2.bidi_component.serialization import BidiComponentSerde

from app_views.component_input import MAX_EVENTS, install_component_bounds
from app_views.event_component import _registered
from app_views.explore_panel import COMPONENT_NAME, HERE
from app_views.rich_line import RICH_LINE_JS

HOSTILE = {
    "5,000-digit int": '[{"event": "nav", "value": ' + "9" * 5000 + "}]",
    "50,000-deep array": '[{"event": "nav", "value": ' + "[" * 50_000 + "]" * 50_000 + "}]",
    "a megabyte of text": json.dumps([{"event": "pick", "value": "x" * (1 << 20)}]),
}


@pytest.fixture(autouse=True)
def bounds_installed():
    _registered(COMPONENT_NAME, (RICH_LINE_JS, HERE / "explore_panel.js"), (HERE / "explore_panel.css",))  # as mounted


@pytest.mark.parametrize("raw", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_trigger_message_is_ignored_and_logged(caplog, raw):
    with caplog.at_level(logging.WARNING, logger="aspectnav.component_input"):
        assert bidi_main.deserialize_trigger_list(raw) is None
        assert BidiComponentSerde().deserialize(raw) == {}
    assert caplog.records and len(caplog.records[0].getMessage()) < 500


def test_twenty_thousand_events_in_one_message_run_at_most_one_callback_per_trigger():
    raw = json.dumps([{"event": "pick", "value": f"p{i}"} for i in range(20_000)]
                     + [{"event": "nav", "value": "back"}])
    payloads = bidi_main.deserialize_trigger_list(raw)
    assert payloads is None or len(payloads) <= MAX_EVENTS


def test_what_the_panel_sends_passes_unchanged():
    raw = json.dumps([{"event": "pick", "value": "p7"}, {"event": "mix", "value": {"links": 0.4}}])
    assert bidi_main.deserialize_trigger_list(raw) == json.loads(raw)
    assert dict(BidiComponentSerde().deserialize('{"a": [1, 2]}')) == {"a": [1, 2]}


def test_installing_twice_wraps_once():
    first = bidi_main.deserialize_trigger_list
    install_component_bounds()
    assert bidi_main.deserialize_trigger_list is first
