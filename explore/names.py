"""The one check of every name a user gives (corpus, space, run, aspect, study): a name becomes a folder or
file under the data home, a cookie or a command argument, so only a plain alphabet is accepted, whole."""
from __future__ import annotations

import argparse
import re
from collections.abc import Callable

from explore.errors import InvalidNameError

NAME_RULE = "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", re.ASCII)
# For pydantic `Field(pattern=...)`: its (Rust) regex reads `$` as the end of the text, never before a newline.
NAME_PATTERN = f"^{_NAME.pattern}$"


def is_name(name: object) -> bool:
    """Whether `name` is a string of the allowed alphabet, whole (no path separator, no newline, not empty)."""
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


def check_name(name: object, what: str) -> str:
    """`name` itself, or InvalidNameError saying what is allowed and which `what` (corpus, space, ...) was refused."""
    if not is_name(name):
        raise InvalidNameError(f"Invalid {what} name {name!r}: use {NAME_RULE}.")
    return name


def name_argument(what: str) -> Callable[[str], str]:
    """An argparse `type` for a `what` name: a refused name is a usage error naming the flag and the rule."""

    def parse(text: str) -> str:
        try:
            return check_name(text, what)
        except InvalidNameError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = f"{what} name"
    return parse
