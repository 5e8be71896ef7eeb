"""`python -m explore neighbours SEED --kind generic|links|aspect:<name>|union|blend|all -k 10`."""
from __future__ import annotations

import argparse
import shutil
import textwrap

ALL = "all"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("neighbours", help="what to read next after an article (or a sentence)")
    parser.add_argument("seed", help="article title or id; with --text, a sentence")
    parser.add_argument("--kind", default=None,
                        help="links | generic | aspect:<name> | union | intersection | blend | all (default: generic, "
                             "or blend when --blend is given)")
    parser.add_argument("-k", type=int, default=10, help="how many neighbours per kind")
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--blend", default="", help="weights for kind blend, e.g. occupation=0.7,country=0.3")
    parser.add_argument("--text", action="store_true", help="the seed is free text to encode, not a title")
    parser.set_defaults(func=_neighbours)


def _neighbours(args) -> int:
    from explore.corpus import open_corpus
    from explore.neighbours import BLEND, Neighbourhood, parse_weights

    weights = parse_weights(args.blend) if args.blend else None
    kind = args.kind or (BLEND if weights else "generic")
    corpus = open_corpus(args.corpus)
    engine = Neighbourhood.open(corpus)
    if args.text:
        kinds = engine.query_kinds(weights, for_text=True) if kind == ALL else [kind]
        columns = {k: engine.neighbours_for_text(args.seed, k, args.k, weights if k == BLEND else None) for k in kinds}
        heading = f"Neighbours of the text {args.seed!r}"
    else:
        seed = engine.resolve_seed(args.seed)
        columns = engine.all_neighbours(seed, args.k, weights) if kind == ALL else \
            {kind: engine.neighbours(seed, kind, args.k, weights if kind == BLEND else None)}
        heading = f"Neighbours of {seed.title} [{seed.id}]" + (f" — {_labels(seed.aspects)}" if seed.aspects else "")
    print(heading)
    if len(columns) == 1:
        _print_list(*next(iter(columns.items())))
    else:
        _print_side_by_side(columns)
    return 0


def _print_list(kind: str, neighbours: list) -> None:
    print(f"{kind}:")
    if not neighbours:
        print("  (none)")
    for rank, n in enumerate(neighbours, 1):
        score = "" if n.score is None else f"{n.score:.3f}  "
        shared = f"   shares {_labels(n.shared)}" if n.shared else ""
        print(f"{rank:>3}. {score}{n.title}{shared}")


def _print_side_by_side(columns: dict[str, list]) -> None:
    width = max(18, (shutil.get_terminal_size((160, 40)).columns - 4) // len(columns) - 2)
    cell = lambda text: textwrap.shorten(text, width, placeholder="…").ljust(width)  # noqa: E731
    print("    " + "  ".join(cell(kind) for kind in columns))
    print("    " + "  ".join("-" * width for _ in columns))
    rows = max((len(v) for v in columns.values()), default=0)
    for rank in range(rows):
        titles, shared = [], []
        for neighbours in columns.values():
            n = neighbours[rank] if rank < len(neighbours) else None
            score = "" if n is None or n.score is None else f" {n.score:.2f}"
            titles.append(cell("" if n is None else n.title + score))
            shared.append(cell("" if n is None or not n.shared else "· " + _labels(n.shared)))
        print(f"{rank + 1:>3} " + "  ".join(titles))
        if any(s.strip() for s in shared):
            print("    " + "  ".join(shared))


def _labels(aspects) -> str:
    return "; ".join(f"{name}: {', '.join(labels)}" for name, labels in aspects.items())
