"""`python -m explore ...`: one parser; each command group lives in its own module."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from explore.errors import AspectNavError, storage_error

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
    return run_command(parser.parse_args(argv))


# A reader who stopped reading (`aspectnav neighbours X --kind all | head -3`): what a shell reports for a pipe
# closed early, 128 + SIGPIPE, and no message.
CLOSED_PIPE_STATUS = 141


def run_command(args: argparse.Namespace) -> int:
    """Run a parsed command; what a user can act on (AspectNavError, a disk that is full, read-only or not
    ours) is printed as one `error:` line with exit status 2, never as a traceback. Output piped into a reader
    that closed early ends quietly with status 141."""
    try:
        return args.func(args) or 0
    except BrokenPipeError:
        # Python would flush stdout again on exit and complain: point it at the null device first.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # stdout is no file (a test's capture): nothing to flush there
            pass
        return CLOSED_PIPE_STATUS
    except AspectNavError as exc:
        print(f"error: {exc}", file=sys.stderr)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""  # the user's own machine: the path helps
        print(f"error: {storage_error(exc, f'run {args.command!r}')}{where}", file=sys.stderr)
    return 2
