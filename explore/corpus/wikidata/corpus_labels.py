"""Label a stored corpus whose article ids are Wikidata items (a dump import, a JSONL import) with a recipe's
property values, asked in batches of item ids through the polite, cached SPARQL client: a killed or failed run
is resumed by running it again, and nothing answered before is asked twice."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from tqdm import tqdm

from explore.corpus.model import Article, Corpus
from explore.corpus.relabelled import relabelled
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
class LabelChanges:
    """What labelling did to one aspect, in articles: labels kept (nothing to replace them), replaced, added."""

    kept: int = 0
    replaced: int = 0
    added: int = 0

    def __str__(self) -> str:
        return (f"kept on {self.kept} article{'' if self.kept == 1 else 's'}, replaced on {self.replaced}, "
                f"added to {self.added}")


@dataclass
class LabelSummary:
    """What labelling found, for the closing report."""

    articles: int = 0
    with_qid: int = 0
    labelled: int = 0  # articles that got at least one label
    aspect_articles: dict[str, int] = field(default_factory=dict)
    aspect_labels: dict[str, int] = field(default_factory=dict)  # distinct labels per aspect
    unknown_items: list[str] = field(default_factory=list)  # ids the endpoint holds nothing about
    replaced_aspects: tuple[str, ...] = ()  # aspects the corpus had, whose labels the recipe's replaced on some article
    changes: dict[str, LabelChanges] = field(default_factory=dict)  # per recipe aspect: articles kept, replaced, added
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
            *(f"  {name}: {change}" for name, change in self.changes.items()),
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
    they were read): an article's earlier labels of an aspect are replaced only by values of that aspect, so an
    article with no Wikidata id, an item the source holds nothing about and one without the property keep theirs;
    other aspects are kept. The summary's counts filled in and `source` (where the values came from) recorded in the
    provenance; a columnar corpus stays columnar."""
    names = list(dict.fromkeys(recipe.aspects.values()))
    changes = {name: LabelChanges() for name in names}
    after: dict[str, set[str]] = {name: set() for name in names}  # distinct labels per aspect once labelled
    articles_with = dict.fromkeys(names, 0)
    for article in corpus:
        new = values.get(article.id, {})
        for name in names:
            before, given = article.aspects.get(name), new.get(name)
            if before and given:
                changes[name].replaced += 1
            elif given:
                changes[name].added += 1
            elif before:
                changes[name].kept += 1
            if given or before:
                articles_with[name] += 1
                after[name].update(given or before)
    summary.changes = changes
    summary.replaced_aspects = tuple(name for name in names if changes[name].replaced)
    summary.aspect_articles = articles_with
    summary.aspect_labels = {name: len(labels) for name, labels in after.items()}
    summary.labelled = sum(1 for article in corpus if QID.match(article.id) and values.get(article.id))
    details = {**corpus.provenance.details, **source, "aspects_recipe": recipe.name,
               "aspects_recipe_json": recipe.to_json(),
               "aspects_labelled_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}

    def change(article: Article) -> Article:
        given = {name: labels for name, labels in values.get(article.id, {}).items() if labels}
        return replace(article, aspects={**article.aspects, **given}) if given else article

    return relabelled(corpus, change, output or corpus.name, replace(corpus.provenance, details=details)), summary
