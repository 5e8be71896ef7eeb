"""`python -m explore neighbours SEED --kind generic|links|aspect:<name>|union|blend:<space>:<w>,...|all -k 10`."""
from __future__ import annotations

import argparse
import shutil
import textwrap

from explore.query import Blend, Kind, Query

ALL = "all"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("neighbours", help="what to read next after an article (or a sentence)")
    parser.add_argument("seed", help="article title or id; with --text, a sentence")
    parser.add_argument("--kind", default=None,
                        help="links | generic | aspect:<name> | union[:<space>] | intersection[:<space>] | "
                             "space:<space> | blend:<space>:<weight>,... | all (default: generic, or blend when "
                             "--blend is given)")
    parser.add_argument("-k", type=int, default=10, help="how many neighbours per kind")
    parser.add_argument("--corpus", default="vital", help="corpus name (default: vital)")
    parser.add_argument("--blend", default="", help="blend weights, e.g. occupation:0.7,country:0.3 "
                                                    "(with --kind blend or all, or alone)")
    parser.add_argument("--text", action="store_true", help="the seed is free text to encode, not a title")
    parser.set_defaults(func=_neighbours)


def requested(kind: str | None, blend_text: str) -> tuple[list[Query] | None, Blend | None]:
    """The queries `--kind`/`--blend` ask for (None = every kind) and the blend, parsed once."""
    blend = Blend.parse(blend_text) if blend_text else None
    if kind == ALL:
        return None, blend
    if kind in (None, "blend") and blend is not None:
        return [Query.blended(blend)], blend
    return [Query.parse(kind or "generic")], blend


def _neighbours(args) -> int:
    from explore.corpus import open_corpus
    from explore.links_column import links_description
    from explore.neighbours import Neighbourhood

    queries, blend = requested(args.kind, args.blend)
    corpus = open_corpus(args.corpus)
    links_only = not args.text and queries is not None and all(query.kind is Kind.LINKS for query in queries)
    engine = Neighbourhood.open(corpus, encode=not links_only)  # links need no embeddings: never encode for them
    if args.text:
        queries = queries or engine.query_kinds(blend, for_text=True)
        columns = {query: engine.neighbours_for_text(args.seed, query, args.k) for query in queries}
        heading = f"Neighbours of the text {args.seed!r} in corpus {corpus.name!r}"
    else:
        seed = engine.resolve_seed(args.seed)
        columns = engine.all_neighbours(seed, args.k, blend) if queries is None else \
            {query: engine.neighbours(seed, query, args.k) for query in queries}
        heading = f"Neighbours of {seed.title} [{seed.id}] in corpus {corpus.name!r}" + \
            (f" — {_seed_labels(seed)}" if seed.all_labels() else "")
    print(heading)
    if links_only:
        print(links_description(corpus, by_similarity=engine.generic_similarities(seed) is not None))
    if len(columns) == 1:
        _print_list(*next(iter(columns.items())))
    else:
        _print_side_by_side(columns)
    return 0


def _print_list(query: Query, neighbours: list) -> None:
    print(f"{query}:")
    if not neighbours:
        print("  (none)")
    for rank, n in enumerate(neighbours, 1):
        score = "" if n.score is None else f"{n.score:.3f}  "
        shared = f"   shares {_labels(n.shared)}" if n.shared else ""
        print(f"{rank:>3}. {score}{n.title}{shared}")


MIN_COLUMN = 18  # characters: a narrower column wraps a title a word a line


def _print_side_by_side(columns: dict[Query, list]) -> None:
    """Columns side by side within the terminal's width (in blocks of as many as fit, each at least MIN_COLUMN
    wide); headings, titles and shared labels wrap over several lines rather than being cut (two spaces must never
    look alike, and a cut label says nothing)."""
    terminal = shutil.get_terminal_size((160, 40)).columns
    per_block = max(1, (terminal - 4) // (MIN_COLUMN + 2))
    queries = list(columns)
    for start in range(0, len(queries), per_block):
        if start:
            print()
        _print_block({query: columns[query] for query in queries[start:start + per_block]}, terminal)


def _print_block(columns: dict[Query, list], terminal: int) -> None:
    width = max(MIN_COLUMN, (terminal - 4) // len(columns) - 2)
    _print_row("    ", [str(query) for query in columns], width)
    print("    " + "  ".join("-" * width for _ in columns))
    rows = max((len(v) for v in columns.values()), default=0)
    for rank in range(rows):
        titles, shared = [], []
        for neighbours in columns.values():
            n = neighbours[rank] if rank < len(neighbours) else None
            score = "" if n is None or n.score is None else f" {n.score:.2f}"
            titles.append("" if n is None else n.title + score)
            shared.append("" if n is None or not n.shared else "· " + _labels(n.shared))
        _print_row(f"{rank + 1:>3} ", titles, width)
        if any(shared):
            _print_row("    ", shared, width)


def _print_row(lead: str, cells: list[str], width: int) -> None:
    """One row of cells side by side, each wrapped at `width` (a word longer than that is broken)."""
    wrapped = [textwrap.wrap(text, width, break_on_hyphens=False) or [""] for text in cells]
    for line in range(max(len(lines) for lines in wrapped)):
        text = "  ".join((lines[line] if line < len(lines) else "").ljust(width) for lines in wrapped)
        print((lead if line == 0 else " " * len(lead)) + text.rstrip())


def _seed_labels(seed) -> str:
    """The seed's labels, inferred ones marked so ("topic: People (inferred)")."""
    return "; ".join(f"{name}: {', '.join(labels)}" + (" (inferred)" if seed.is_inferred(name) else "")
                     for name, labels in seed.all_labels().items())


def _labels(aspects) -> str:
    return "; ".join(f"{name}: {', '.join(labels)}" for name, labels in aspects.items())
