"""`python -m explore ...`: one parser; each command group lives in its own module."""
from __future__ import annotations

import argparse
import importlib
import sys

from explore.errors import AspectNavError

# Each module defines `register(subparsers)` and sets `func` on the parsers it adds.
COMMAND_MODULES = ["explore.corpus.cli", "study.cli", "explore.spaces.cli", "explore.neighbours_cli"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m explore", description="AspectNav: explore Wikipedia by aspects.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args) or 0
    except AspectNavError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
