"""The Maps page's settings as typed values, and a reader's change of one: map_controls.js sends the trigger "change"
with {key, value}; `change_parser(controls)` reads it against the controls the page drew, so only one of their
options, a whole number in a count's range or a switch's true or false becomes a change (anything else is logged and
ignored)."""
from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Union

CHANGE = "change"
TRIGGERS = (CHANGE,)
log = logging.getLogger("aspectnav.map_controls")


@dataclass(frozen=True)
class Choice:
    """A choice among options: (value, what the reader reads) pairs."""
    key: str
    label: str
    options: tuple[tuple[str, str], ...]
    value: str
    help: str = ""
    disabled: bool = False


@dataclass(frozen=True)
class Count:
    """A whole number from `low` to `high`, stepped by `step` with the arrows."""
    key: str
    label: str
    value: int
    low: int
    high: int
    step: int = 1
    help: str = ""


@dataclass(frozen=True)
class Switch:
    """On or off."""
    key: str
    label: str
    value: bool
    help: str = ""


Control = Union[Choice, Count, Switch]


@dataclass(frozen=True)
class ControlChange:
    """The reader set the control `key` to `value`."""
    key: str
    value: str | int | bool


def _read(control: Control, value: object) -> str | int | bool | None:
    if isinstance(control, Choice):
        return value if not control.disabled and isinstance(value, str) \
            and any(value == option for option, _ in control.options) else None
    if isinstance(control, Count):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or value != int(value):
            return None
        return int(value) if control.low <= value <= control.high else None
    return value if isinstance(value, bool) else None


def change_parser(controls: Sequence[Control]) -> Callable[[str, object], ControlChange | None]:
    """`parse(trigger, value)`: the change a trigger's value stands for among `controls`, or None."""
    by_key = {control.key: control for control in controls}

    def parse(trigger: str, value: object) -> ControlChange | None:
        key = value.get("key") if isinstance(value, dict) else None
        if trigger == CHANGE and isinstance(key, str) and (control := by_key.get(key)) is not None:
            read = _read(control, value.get("value"))
            if read is not None:
                return ControlChange(control.key, read)
        log.warning("Ignored a map-settings change the page does not send: %s=%r", trigger, value)
        return None

    return parse


KINDS = {kind.__name__.lower(): kind for kind in (Choice, Count, Switch)}  # the "kind" the element is sent


def control_of(drawn: dict) -> Control:
    """A control back from the JSON the element drew (app_views/map_controls.controls_data)."""
    fields = {name: value for name, value in drawn.items() if name != "kind"}
    if "options" in fields:
        fields["options"] = tuple(tuple(option) for option in fields["options"])
    return KINDS[drawn["kind"]](**fields)
