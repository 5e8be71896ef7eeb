"""`python -m explore corpus build wikidata --recipe companies ...`: build, store, summarise; and
`corpus label CORPUS --recipe ...`: label a stored corpus's Wikidata items with a recipe's properties."""
from __future__ import annotations

import argparse
from pathlib import Path

from tqdm import tqdm

from explore.corpus.registry import corpus_path, is_builtin, open_corpus, store_corpus, writing_corpus
from explore.corpus.stored_layout import CARD_FILE
from explore.corpus.wikidata.builder import BuildSettings, build_wikidata_corpus
from explore.corpus.wikidata.http_etiquette import DEFAULT_USER_AGENT, Etiquette, FetchError
from explore.corpus.wikidata.recipes import builtin_recipe_names, load_recipe
from explore.corpus.wikidata.sparql import WIKIDATA_ENDPOINT
from explore.errors import AspectNavError
from explore.names import check_name, name_argument


def register_build(sources: argparse._SubParsersAction) -> None:
    """Add `wikidata` to the `corpus build` sources."""
    parser = sources.add_parser(
        "wikidata",
        help="build a corpus live from Wikidata and Wikipedia (needs internet)",
        description="Collect a Wikidata class's items that have a Wikipedia article, label them with "
                    "property values, add random articles as noise. Fetches are cached; rerun to resume.",
    )
    parser.add_argument("--recipe", required=True,
                        help=f"a shipped recipe ({', '.join(builtin_recipe_names())}) or a JSON recipe file")
    parser.add_argument("--limit", type=_positive, help="most class articles to collect (default: the recipe's)")
    parser.add_argument("--noise", type=_non_negative, help="random noise articles to add (default: the recipe's)")
    parser.add_argument("--name", type=name_argument("corpus"), help="store the corpus under this name (default: the recipe's name)")
    parser.add_argument("--force", action="store_true", help="replace an existing corpus of that name")
    parser.add_argument("--endpoint", default=WIKIDATA_ENDPOINT, help="SPARQL endpoint (default: %(default)s)")
    parser.add_argument("--wiki-api", help="MediaWiki API URL (default: https://<language>.wikipedia.org/w/api.php)")
    parser.add_argument("--user-agent", default=DEFAULT_USER_AGENT,
                        help="identify yourself to Wikimedia: 'name/version (email or URL)'")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for one answer (default: 60)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(func=_build_wikidata)


def register_label(commands: argparse._SubParsersAction) -> None:
    """Add `corpus label`."""
    parser = commands.add_parser(
        "label", help="label a corpus's Wikidata items with a recipe's properties (needs a SPARQL endpoint)",
        description="For every article whose id is a Wikidata item (a dump import's wikibase_item), ask the "
                    "recipe's properties' values (labels in the recipe's language) in batches of item ids, and "
                    "store them as the recipe's aspects: an article's earlier labels of an aspect are replaced where "
                    "a value is found, kept where none is (the summary counts both). Answers are cached; rerun to "
                    "resume. A built-in corpus (vital) is labelled only into --output NAME.")
    parser.add_argument("corpus", type=name_argument("corpus"), help="the stored corpus")
    parser.add_argument("--recipe", required=True,
                        help=f"a shipped recipe ({', '.join(builtin_recipe_names())}) or a JSON recipe file; "
                             "only its aspects and language are used")
    parser.add_argument("--output", type=name_argument("corpus"),
                        help="store the labelled corpus under this name (default: a new version of CORPUS; "
                             "required for a built-in corpus)")
    parser.add_argument("--force", action="store_true", help="replace an existing corpus named by --output")
    parser.add_argument("--wikidata-dump", type=Path, metavar="FILE",
                        help="read the values from a Wikidata JSON dump (latest-all.json.gz or .bz2) instead of a "
                             "SPARQL endpoint: no requests; killed, the same command goes on where it stopped")
    parser.add_argument("--batch-size", type=_positive, default=100, metavar="N",
                        help="item ids per SPARQL query (default: %(default)s)")
    parser.add_argument("--endpoint", default=WIKIDATA_ENDPOINT, help="SPARQL endpoint (default: %(default)s)")
    parser.add_argument("--user-agent", default=DEFAULT_USER_AGENT,
                        help="identify yourself to Wikimedia: 'name/version (email or URL)'")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for one answer (default: 60)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_label)


def _build_wikidata(args) -> int:
    recipe = load_recipe(args.recipe).with_overrides(limit=args.limit, noise=args.noise)
    recipe.require_class()
    name = check_name(args.name or recipe.name, "corpus")
    with writing_corpus(name):  # held from the check to the store: a second build at once is told busy
        return _build_wikidata_into(args, recipe, name)


def _build_wikidata_into(args, recipe, name: str) -> int:
    if (corpus_path(name) / CARD_FILE).exists() and not args.force:
        raise AspectNavError(f"A corpus named {name!r} exists; pass --force to replace it or --name to pick another.")
    if args.user_agent == DEFAULT_USER_AGENT:
        print("note: Wikimedia asks for contact details in the User-Agent; pass --user-agent 'name/version (email)'.")
    settings = BuildSettings(
        endpoint=args.endpoint,
        wiki_api=args.wiki_api,
        corpus_name=name,
        etiquette=Etiquette(user_agent=args.user_agent, timeout_s=args.timeout, on_wait=tqdm.write),
        progress=False if args.no_progress else None,
    )
    print(f"Building {name!r} from recipe {recipe.name!r}: class {recipe.class_qid}, "
          f"up to {recipe.limit} articles + {recipe.noise} noise ({settings.endpoint}, {settings.api_for(recipe)})")
    return _fetch_and_store(lambda: build_wikidata_corpus(recipe, settings), name,
                            "Answers fetched before the failure are cached; rerun the same command to resume.")


def _label(args) -> int:
    if args.output is None and is_builtin(args.corpus):
        raise AspectNavError(f"Corpus {args.corpus!r} is built in: labelling it in place would replace the labels it "
                             "ships with (and the next AspectNav would build it again over yours). Pass --output NAME "
                             "to store the labelled copy under another name.")
    with writing_corpus(args.output or args.corpus):  # read, labelled and stored by one command at a time
        return _label_held(args)


def _label_held(args) -> int:
    from explore.corpus.wikidata.corpus_labels import LabelSettings, label_corpus

    recipe = load_recipe(args.recipe)
    corpus = open_corpus(args.corpus)
    output = args.output or corpus.name
    if output != corpus.name and (corpus_path(output) / CARD_FILE).exists() and not args.force:
        raise AspectNavError(f"A corpus named {output!r} exists; pass --force to replace it or another --output.")
    aspects = ", ".join(f"{pid} -> {name}" for pid, name in recipe.aspects.items())
    if args.wikidata_dump is not None:
        return _label_from_dump(args, recipe, corpus, output, aspects)
    settings = LabelSettings(
        endpoint=args.endpoint, items_per_query=args.batch_size, progress=False if args.no_progress else None,
        etiquette=Etiquette(user_agent=args.user_agent, timeout_s=args.timeout, on_wait=tqdm.write),
    )
    print(f"Labelling {corpus.name!r} ({len(corpus)} articles) with recipe {recipe.name!r}: {aspects} "
          f"({settings.endpoint}, {settings.items_per_query} items per query)")
    return _fetch_and_store(lambda: label_corpus(corpus, recipe, settings, output), output,
                            "Nothing was stored; answers fetched before the failure are cached: rerun the same "
                            "command to resume.")


def _label_from_dump(args, recipe, corpus, output: str, aspects: str) -> int:
    from explore.corpus.wikidata.dump_labels import finish_dump_labels, label_corpus_from_dump

    if args.endpoint != WIKIDATA_ENDPOINT:
        raise AspectNavError("Give --wikidata-dump or --endpoint, not both: the dump replaces the endpoint.")
    print(f"Labelling {corpus.name!r} ({len(corpus)} articles) with recipe {recipe.name!r}: {aspects} "
          f"(the Wikidata dump {args.wikidata_dump})")
    labelled, summary = label_corpus_from_dump(corpus, recipe, args.wikidata_dump, output,
                                               progress=False if args.no_progress else None)
    path = store_corpus(labelled)
    finish_dump_labels(output)
    for line in summary.lines():
        print(line)
    print(f"Stored {len(labelled)} articles as {output!r} -> {path}")
    return 0


def _fetch_and_store(fetch, name: str, on_failure: str) -> int:
    """Run a fetching step that returns (corpus, summary), store the corpus and print its summary. Only
    validated answers are cached, so a failed fetch loses nothing: `on_failure` says how to resume."""
    try:
        corpus, summary = fetch()
    except FetchError as exc:
        raise FetchError(f"{exc} {on_failure}") from exc
    path = store_corpus(corpus)
    for line in summary.lines():
        print(line)
    print(f"Stored {len(corpus)} articles as {name!r} -> {path}")
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value
