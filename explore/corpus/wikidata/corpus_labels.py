"""Label a stored corpus whose article ids are Wikidata items (a dump import, a JSONL import) with a recipe's
property values, asked in batches of item ids through the polite, cached SPARQL client: a killed or failed run
is resumed by running it again, and nothing answered before is asked twice."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from tqdm import tqdm

from explore.corpus.model import Corpus
from explore.corpus.wikidata.builder import batches
from explore.corpus.wikidata.fetch_cache import FetchCache, wikidata_cache_dir
from explore.corpus.wikidata.http_etiquette import Etiquette
from explore.corpus.wikidata.queries import (aspect_values_query, known_items_query, parse_aspect_values,
                                             parse_known_items)
from explore.corpus.wikidata.recipes import Recipe
from explore.corpus.wikidata.sparql import WIKIDATA_ENDPOINT, SparqlClient

QID = re.compile(r"^Q[1-9][0-9]*$")
EXAMPLES_SHOWN = 5  # unknown items named in the summary before "..."


@dataclass
class LabelSettings:
    endpoint: str = WIKIDATA_ENDPOINT
    etiquette: Etiquette = field(default_factory=Etiquette)
    items_per_query: int = 100  # items per VALUES batch; Wikidata answers 100 items x a few properties well in 60 s
    progress: bool | None = None  # None: a bar only on a terminal


@dataclass
class LabelSummary:
    """What labelling found, for the closing report."""

    articles: int = 0
    with_qid: int = 0
    labelled: int = 0  # articles that got at least one label
    aspect_articles: dict[str, int] = field(default_factory=dict)
    aspect_labels: dict[str, int] = field(default_factory=dict)  # distinct labels per aspect
    unknown_items: list[str] = field(default_factory=list)  # ids the endpoint holds nothing about
    replaced_aspects: tuple[str, ...] = ()  # aspects the corpus had, whose labels the recipe's replaced
    fetched: int = 0
    from_cache: int = 0
    read_from: str = ""  # a dump the values were read from (no requests then)

    @property
    def without_qid(self) -> int:
        return self.articles - self.with_qid

    def lines(self) -> list[str]:
        aspects = ", ".join(f"{name} {self.aspect_articles[name]} ({self.aspect_labels[name]} labels)"
                            for name in self.aspect_articles) or "none"
        unknown = ""
        if self.unknown_items:
            shown = ", ".join(self.unknown_items[:EXAMPLES_SHOWN])
            unknown = f" ({shown}{', ...' if len(self.unknown_items) > EXAMPLES_SHOWN else ''})"
        return [
            f"Articles: {self.articles}; with a Wikidata id: {self.with_qid}; without one (left as they were): "
            f"{self.without_qid}",
            f"  unknown to the endpoint: {len(self.unknown_items)}{unknown}",
            f"  labelled:                {self.labelled}",
            f"  with each aspect:        {aspects}",
            *([f"Replaced the earlier labels of: {', '.join(self.replaced_aspects)}"] if self.replaced_aspects else []),
            f"Read from {self.read_from}" if self.read_from else
            f"Requests: {self.fetched} fetched, {self.from_cache} from the cache",
        ]


def label_cache_key(recipe: Recipe, endpoint: str) -> str:
    """One cache folder per set of properties, language and endpoint, whatever the corpus: corpora sharing items
    share answers only when their batches match, but a rerun of the same corpus always does."""
    raw = "|".join([*sorted(f"{pid}={name}" for pid, name in recipe.aspects.items()), recipe.language, endpoint])
    return f"labels-{recipe.name}-{hashlib.sha256(raw.encode()).hexdigest()[:12]}"


def label_corpus(corpus: Corpus, recipe: Recipe, settings: LabelSettings | None = None,
                 output: str | None = None) -> tuple[Corpus, LabelSummary]:
    """A copy of `corpus` (named `output`, else the same) whose recipe aspects hold the Wikidata values of the
    articles whose id is an item: earlier labels of those aspects are replaced, other aspects kept. Ids are asked
    in corpus order and fixed batches, so a rerun asks the very queries the cache holds."""
    settings = settings or LabelSettings()
    cache = FetchCache(wikidata_cache_dir(label_cache_key(recipe, settings.endpoint)))
    sparql = SparqlClient(settings.endpoint, settings.etiquette, cache)
    qids = [article.id for article in corpus if QID.match(article.id)]
    summary = LabelSummary(articles=len(corpus), with_qid=len(qids))
    values: dict[str, dict[str, tuple[str, ...]]] = {}
    disabled = None if settings.progress is None else not settings.progress
    with tqdm(total=len(qids), desc="Wikidata aspects", unit="item", disable=disabled) as bar:
        for batch in batches(qids, settings.items_per_query):
            found = parse_aspect_values(recipe, sparql.select(aspect_values_query(recipe, batch)))
            values.update(found)
            silent = [qid for qid in batch if qid not in found]  # unknown ids, or known items without the properties
            if silent:
                known = parse_known_items(sparql.select(known_items_query(silent)))
                summary.unknown_items.extend(qid for qid in silent if qid not in known)
            bar.update(len(batch))
    summary.fetched, summary.from_cache = cache.counts.fetched, cache.counts.cached
    return labelled_corpus(corpus, recipe, values, summary, {"aspects_endpoint": settings.endpoint}, output)


def labelled_corpus(corpus: Corpus, recipe: Recipe, values: dict[str, dict[str, tuple[str, ...]]],
                    summary: LabelSummary, source: dict[str, str], output: str | None) -> tuple[Corpus, LabelSummary]:
    """`corpus` (renamed `output`) with the recipe's aspects set from `values` ({qid: {aspect: labels}}, however
    they were read), earlier labels of those aspects replaced, other aspects kept; the summary's counts filled in and
    `source` (where the values came from) recorded in the provenance."""
    qids = [article.id for article in corpus if QID.match(article.id)]
    names = list(dict.fromkeys(recipe.aspects.values()))
    summary.replaced_aspects = tuple(name for name in names if name in corpus.aspect_names)
    articles = []
    for article in corpus:
        aspects = {name: labels for name, labels in article.aspects.items() if name not in names}
        aspects.update(values.get(article.id, {}))
        articles.append(replace(article, aspects=aspects))
    for name in names:
        summary.aspect_articles[name] = sum(1 for article in articles if article.aspects.get(name))
        summary.aspect_labels[name] = len({label for article in articles for label in article.aspects.get(name, ())})
    summary.labelled = sum(1 for qid in qids if values.get(qid))
    details = {**corpus.provenance.details, **source, "aspects_recipe": recipe.name,
               "aspects_recipe_json": recipe.to_json(),
               "aspects_labelled_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    return Corpus(output or corpus.name, articles, replace(corpus.provenance, details=details)), summary
