"""`python -m explore corpus build|import|import-dump|label|attach-aspect|stats|list`."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from explore.corpus.jsonl_import import import_jsonl
from explore.corpus.registry import corpus_path, list_corpora, open_corpus, store_corpus, writing_corpus
from explore.corpus.shipped import ship_build
from explore.corpus.vital import build_vital_corpus, vital_fingerprint
from explore.corpus.wikidata.cli import register_build, register_label
from explore.names import name_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    corpus = subparsers.add_parser("corpus", help="build, import and inspect corpora")
    commands = corpus.add_subparsers(dest="corpus_command", required=True)

    build = commands.add_parser("build", help="build a corpus from a source")
    sources = build.add_subparsers(dest="source", required=True)
    vital = sources.add_parser("vital", help="the embedded vital-articles corpus")
    vital.add_argument("--ship", action="store_true",
                       help="also write it as the shipped build under assets/corpora/vital/ (maintainers)")
    vital.set_defaults(func=_build_vital)
    register_build(sources)

    imp = commands.add_parser("import", help="import a JSONL corpus (one article per line)")
    imp.add_argument("file", type=Path)
    imp.add_argument("--name", required=True, type=name_argument("corpus"), help="name to store the corpus under")
    imp.add_argument("--force", action="store_true", help="replace an existing corpus of that name")
    imp.set_defaults(func=_import)

    dump = commands.add_parser(
        "import-dump", help="import a Wikipedia dump (CirrusSearch content dump, MediaWiki XML export, WikiExtractor "
                            "output), streaming",
        description="Read a dump page by page (gzip, bz2 or plain), its format told from its first bytes. A "
                    "CirrusSearch content dump: lead = opening_text, links = outgoing_link between kept articles, "
                    "aliases = redirects, id = the Wikidata item. A MediaWiki XML export (*-pages-articles.xml.bz2): "
                    "lead = the wikitext before the first heading as plain text, links = its [[links]], redirects "
                    "and other namespaces skipped. WikiExtractor output (<doc> files or --json): lead = the "
                    "paragraphs before the first heading, links when it ran with --links. "
                    "Memory grows with the articles kept, not the dump. Records that are not articles (other "
                    "namespaces, no lead, bad lines, duplicate titles) are skipped and counted, file and line given. "
                    "Killed, the same command goes on from its last checkpoint.")
    dump.add_argument("file", type=Path)
    dump.add_argument("--name", type=name_argument("corpus"),
                      help="name to store the corpus under (default: the wiki the file is named after, e.g. enwiki)")
    dump.add_argument("--top", type=int, metavar="N",
                      help="keep the N articles with the highest popularity_score (CirrusSearch dumps only)")
    dump.add_argument("--batch-size", type=int, default=10_000, metavar="ROWS",
                      help="articles per written batch and checkpoint (default 10000)")
    dump.add_argument("--columnar", action=argparse.BooleanOptionalAction, default=None,
                      help="store the corpus columnar: memory-mapped, served without reading its texts (default: from "
                           "200,000 articles on)")
    dump.add_argument("--force", action="store_true", help="replace an existing corpus of that name")
    dump.set_defaults(func=_import_dump)

    register_label(commands)

    attach = commands.add_parser("attach-aspect", help="add an aspect to a stored corpus from id,label rows",
                                 description="Label a new aspect from a CSV file with an `id,label` header or a JSONL "
                                             "file of {\"id\": ..., \"label\": ...} objects (several rows give an "
                                             "article several labels). Every row is checked first; the corpus's "
                                             "spaces stay valid. Then train a space for it: `aspectnav train "
                                             "--corpus NAME --aspects ASPECT`.")
    attach.add_argument("name", type=name_argument("corpus"), help="the corpus")
    attach.add_argument("--aspect", required=True, type=name_argument("aspect"), help="name of the new aspect")
    attach.add_argument("--file", required=True, type=Path, help=".csv (id,label header) or .jsonl")
    attach.add_argument("--replace", action="store_true", help="replace the labels of an aspect the corpus has")
    attach.set_defaults(func=_attach_aspect)

    stats = commands.add_parser("stats", help="articles, links and per-aspect coverage")
    stats.add_argument("name")
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    stats.set_defaults(func=_stats)

    commands.add_parser("list", help="stored and built-in corpora").set_defaults(func=_list)


def _build_vital(args) -> int:
    corpus = build_vital_corpus()
    with writing_corpus(corpus.name):
        path = store_corpus(corpus)
    print(f"Built {corpus.name}: {len(corpus)} articles, {corpus.link_count} mention links -> {path}")
    if args.ship:
        shipped = ship_build(corpus, vital_fingerprint())
        size = sum(p.stat().st_size for p in shipped.iterdir() if p.is_file())
        print(f"shipped -> {shipped} ({size / 1e6:.1f} MB)")
    return 0


def _import(args) -> int:
    from explore.errors import AspectNavError

    with writing_corpus(args.name):  # held from the check to the store: a second import at once is told busy
        corpus, report = import_jsonl(args.file, args.name)  # the file first: a bad one is not a matter of --force
        if (corpus_path(args.name) / "corpus.json").exists() and not args.force:
            raise AspectNavError(f"A corpus named {args.name!r} exists; pass --force to replace it.")
        path = store_corpus(corpus)
    print(f"Imported {len(corpus)} articles into {args.name!r} -> {path}")
    for note in report.notes():
        print(note)
    return 0


def _import_dump(args) -> int:
    from explore.corpus.dump_import import finish_import, import_dump
    from explore.errors import AspectNavError
    from explore.names import check_name

    name = args.name or check_name(args.file.name.split("-", 1)[0].split(".", 1)[0], "corpus")
    if args.batch_size < 1:
        raise AspectNavError(f"--batch-size must be at least 1, not {args.batch_size}.")
    with writing_corpus(name):  # held from the check to the store: a second import at once is told busy
        if (corpus_path(name) / "corpus.json").exists() and not args.force:  # before hours of reading, not after
            raise AspectNavError(f"A corpus named {name!r} exists; pass --force to replace it (or --name another).")
        corpus, report = import_dump(args.file, name, args.top, batch_size=args.batch_size, columnar=args.columnar)
        path = report.stored or store_corpus(corpus)
        finish_import(name)
    print(f"Imported {len(corpus)} articles into {name!r} {report.speed()} -> {path}")
    for note in report.notes():
        print(note)
    return 0


def _attach_aspect(args) -> int:
    from explore.corpus.aspect_import import attach_aspect

    with writing_corpus(args.name):  # read, changed and stored by one command at a time: no aspect lost
        attached = attach_aspect(open_corpus(args.name), args.aspect, args.file, replace_existing=args.replace)
        path = store_corpus(attached.corpus)
    print(f"{attached.summary()} Stored -> {path}")
    return 0


def _stats(args) -> int:
    stats = open_corpus(args.name).stats()
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False))
        return 0
    print(f"{stats['name']}: {stats['articles']} articles, {stats['links']} links ({stats['link_kind']})")
    print(f"source: {stats['source']}")
    if not stats["aspects"]:
        print("no aspect labels")
    for name, aspect in stats["aspects"].items():
        top = ", ".join(f"{label} ({n})" for label, n in aspect["top"][:6])
        print(f"  {name:<11} coverage {aspect['coverage']:6.1%} ({aspect['articles']} articles), "
              f"{aspect['labels']} labels; top: {top}")
    return 0


def _list(args) -> int:
    for name in list_corpora():
        print(name)
    return 0
