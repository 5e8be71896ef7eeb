"""`python -m explore corpus build wikidata --recipe companies ...`: build, store, summarise."""
from __future__ import annotations

import argparse

from tqdm import tqdm

from explore.corpus.registry import corpus_path, store_corpus
from explore.corpus.store import CARD_FILE
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


def _build_wikidata(args) -> int:
    recipe = load_recipe(args.recipe).with_overrides(limit=args.limit, noise=args.noise)
    name = check_name(args.name or recipe.name, "corpus")
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
    try:
        corpus, summary = build_wikidata_corpus(recipe, settings)
    except FetchError as exc:  # only validated answers were cached: nothing fetched so far is lost
        raise FetchError(f"{exc} Answers fetched before the failure are cached; "
                         "rerun the same command to resume.") from exc
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
