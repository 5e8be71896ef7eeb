"""`aspectnav ...`: every command of the project under one parser (the console script of `pip install .`).

The commands stay defined where they live (explore, study, training, benchmarks); this module only
registers them, so `python -m explore|training|study ...` and `aspectnav ...` run the same code.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from explore import cli as explore_cli
from training import cli as training_cli

TRAINING_COMMANDS = ("train", "evaluate", "summarize")


def build_parser(prog: str = "aspectnav") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="AspectNav: explore Wikipedia by aspects.",
                                     epilog="`aspectnav COMMAND --help` describes a command.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in explore_cli.COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    training_cli.register(subparsers)
    # The benchmarks keep their own parser: every argument after `bench` is theirs (see main).
    bench = subparsers.add_parser("bench", add_help=False, help="speed and memory benchmarks "
                                  "(`aspectnav bench --help`; same as python -m benchmarks)")
    bench.add_argument("args", nargs=argparse.REMAINDER)
    bench.set_defaults(func=_bench)
    return parser


def _bench(args: argparse.Namespace) -> int:
    from benchmarks.__main__ import main as benchmarks_main

    return benchmarks_main(args.args)


def main(argv: list[str] | None = None, prog: str = "aspectnav") -> int:
    parser = build_parser(prog)
    args, extra = parser.parse_known_args(argv)
    if args.command == "bench":
        # argparse sets aside the options that precede the first positional; they come first, in order.
        args.args = extra + args.args
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command in TRAINING_COMMANDS:
        training_cli.configure_logging()
    return explore_cli.run_command(args)


if __name__ == "__main__":
    sys.exit(main())
