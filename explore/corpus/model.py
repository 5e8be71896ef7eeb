"""The corpus model: articles with ordered links and multi-valued aspect labels."""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Mapping, Sequence
from urllib.parse import urlsplit

import numpy as np

from explore.corpus.label_source import LabelOrigin, LabelSource
from explore.corpus.title_search import TitleSearch
from explore.errors import AmbiguousTitleError, CorpusFormatError, UnknownArticleError

WIKIPEDIA_LICENSE = "Text from Wikipedia, available under CC BY-SA 4.0"


def is_web_address(url: str) -> bool:
    """An absolute http(s) address with a host and no whitespace: the only article URL the app links to
    (a javascript: or data: URL would run or embed on click, a relative one would point into the app)."""
    # isprintable() is False for every whitespace but the plain space (and for controls): one C-level pass.
    if not url or not url.isprintable() or " " in url:
        return False
    try:
        parts = urlsplit(url)
        return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
    except ValueError:  # e.g. a malformed IPv6 host
        return False


def site_name(url: str) -> str:
    """The site an article's address is on, as a reader names it: "Wikipedia", else the host ("example.org")."""
    host = (urlsplit(url).hostname or "").removeprefix("www.")
    return "Wikipedia" if host == "wikipedia.org" or host.endswith(".wikipedia.org") else host


@dataclass(frozen=True)
class Article:
    """One article. `aspects` maps an aspect name to its labels; a missing name = no label. `inferred` holds
    labels a model inferred for aspects the article has no label of (explore/corpus/inferred_labels.py): kept
    apart so that evaluation and training, which read `aspects`, never take a guess for ground truth.
    `aliases`: other names readers search it by ("Second World War" for World War II). `sources` says where an
    aspect's own labels came from (a `LabelSource` with the labels it gave: its text's description or lead,
    or a public table); an aspect it does not name, or whose labels another tool has since replaced, came from the
    corpus's own data (an import's columns, a recipe, a dump, an attached file)."""

    id: str
    title: str
    text: str
    description: str = ""
    url: str = ""
    links: tuple[str, ...] = ()
    aspects: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    inferred: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    sources: Mapping[str, LabelOrigin] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.url and not is_web_address(self.url):
            raise CorpusFormatError(f"Article {self.id!r}: url {self.url!r} is not an http(s) web address; "
                                    f"give the article's page address (https://...) or leave the url out.")

    def labels(self, aspect: str, inferred: bool = False) -> tuple[str, ...]:
        """The labels of `aspect`; with `inferred`, the inferred ones where the article has none of its own."""
        return self.aspects.get(aspect, ()) or (self.inferred.get(aspect, ()) if inferred else ())

    def has_aspect(self, aspect: str, inferred: bool = True) -> bool:
        """Whether the article has a label of `aspect` (by default an inferred one counts)."""
        return bool(self.labels(aspect, inferred))

    def label_source(self, aspect: str) -> str | None:
        """Where the labels `labels(aspect, inferred=True)` come from: "inferred", a `LabelSource` value, or None
        (the corpus's own data)."""
        if self.is_inferred(aspect):
            return LabelSource.INFERRED.value
        origin = self.sources.get(aspect)
        labels = self.aspects.get(aspect)
        return origin.source if origin is not None and labels and tuple(labels) == origin.labels else None

    def is_inferred(self, aspect: str) -> bool:
        """Whether the labels `labels(aspect, inferred=True)` gives are inferred (to show them marked so)."""
        return not self.aspects.get(aspect) and bool(self.inferred.get(aspect))

    def all_labels(self, inferred: bool = True) -> dict[str, tuple[str, ...]]:
        """Every aspect's labels, own first; with `inferred`, then the inferred aspects it has no label of."""
        names = list(self.aspects) + ([name for name in self.inferred if name not in self.aspects] if inferred else [])
        return {name: self.labels(name, inferred) for name in names if self.labels(name, inferred)}

    def shared_labels(self, other: "Article", aspects: Iterable[str] | None = None) -> dict[str, list[str]]:
        """The labels this article shares with `other`, per aspect (only aspects that share one)."""
        names = self.aspects.keys() if aspects is None else aspects
        shared = {}
        for name in names:
            common = [label for label in self.labels(name) if label in other.labels(name)]
            if common:
                shared[name] = common
        return shared


# Provenance detail: a JSON list of the ids the source itself ranks first (vital: the list's levels 1-3, the articles
# readers try first); among equally good title matches they come first.
PROMINENT_DETAIL = "prominent_ids"
# Provenance detail: the credits of public tables some of the corpus's labels were derived from, for readers.
LABEL_CREDITS_DETAIL = "label_credits"


def reader_weights(incoming: Sequence[float], prominent: Sequence[bool]) -> np.ndarray:
    """How likely a reader means each article, the one rule of every title search's ties: an article the source ranks
    first ("gandhi" means Mahatma Gandhi, on vital's level 3, before Indira Gandhi on level 4) before any other, then
    the one more articles link to."""
    incoming = np.asarray(incoming, dtype=np.float64)
    top = 1.0 + (float(incoming.max()) if len(incoming) else 0.0)
    return incoming + top * np.asarray(prominent, dtype=bool)


@dataclass(frozen=True)
class Provenance:
    """Where a corpus came from. `links` says whether links are real hyperlinks or mentions."""

    source: str
    date: str
    version: str = ""
    links: str = "hyperlinks"  # "hyperlinks" | "mentions" | "none"
    details: Mapping[str, str] = field(default_factory=dict)


@dataclass
class Corpus:
    """A named, ordered collection of articles; ids are unique, titles need not be."""

    name: str
    articles: list[Article]
    provenance: Provenance

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for article in self.articles:
            if article.id in seen:
                raise ValueError(f"Corpus {self.name!r}: duplicate article id {article.id!r}")
            seen.add(article.id)

    def __len__(self) -> int:
        return len(self.articles)

    def __iter__(self):
        return iter(self.articles)

    @cached_property
    def position(self) -> dict[str, int]:
        """Row of each article id (the row order embeddings follow)."""
        return {article.id: row for row, article in enumerate(self.articles)}

    @cached_property
    def ids_by_title(self) -> dict[str, list[str]]:
        by_title: dict[str, list[str]] = {}
        for article in self.articles:
            by_title.setdefault(article.title, []).append(article.id)
        return by_title

    @cached_property
    def incoming_links(self) -> Counter:
        """How many articles of the corpus link to each article id."""
        return Counter(link for article in self.articles for link in set(article.links))

    @cached_property
    def title_search(self) -> TitleSearch:
        """The one title search (case, accents, typos, word order, aliases, a title with its description's
        or labels' words: "paris france"), built on first use and kept with the corpus; equally good matches go
        to the article readers mean first (`search_weights`)."""
        aliases = {article.id: article.aliases for article in self.articles if article.aliases}
        qualifiers = {article.id: (article.description, *(label for labels in article.aspects.values()
                                                          for label in labels)) for article in self.articles}
        return TitleSearch(self.ids_by_title, aliases, self.search_weights, qualifiers)

    @cached_property
    def prominent_ids(self) -> frozenset[str]:
        """The ids the source itself ranks first (PROMINENT_DETAIL), for title search's ties."""
        return frozenset(json.loads(self.provenance.details.get(PROMINENT_DETAIL, "[]")))

    @cached_property
    def search_weights(self) -> dict[str, float]:
        """How likely a reader means each article, for ties in title search (`reader_weights`)."""
        ids = [article.id for article in self.articles]
        weights = reader_weights([self.incoming_links.get(article_id, 0) for article_id in ids],
                                 [article_id in self.prominent_ids for article_id in ids])
        return dict(zip(ids, weights.tolist()))

    def __getitem__(self, article_id: str) -> Article:
        return self.articles[self.position[article_id]]

    def __contains__(self, article_id: object) -> bool:
        return article_id in self.position

    def find(self, query: str) -> Article:
        """Resolve a title (also in another case or without its accents), an id, or else an alias;
        unknown → closest titles, shared → ids."""
        if query is None or not str(query).strip():
            raise UnknownArticleError(str(query or ""), [], self.name)
        query = str(query).strip()
        ids = self.ids_by_title.get(query)
        if not ids and query in self.position:
            return self[query]
        if not ids:
            ids = [article_id for match in self.title_search.exact(query, aliases=True) for article_id in match.ids]
            ids = list(dict.fromkeys(ids))
        if ids and len(ids) == 1:
            return self[ids[0]]
        if ids:
            raise AmbiguousTitleError(query, list(ids), self.name)
        raise UnknownArticleError(query, self.closest_titles(query), self.name)

    def closest_titles(self, query: str, n: int = 5) -> list[str]:
        """The titles a reader most likely meant by `query` (typos forgiven), best first."""
        return self.title_search.closest(query, n)

    def search_titles(self, text: str, limit: int = 20) -> list[Article]:
        """Articles whose title equals, starts with, then contains `text`, case and accents aside."""
        matches = self.title_search.search(text, limit, near=False)
        return [self[article_id] for match in matches for article_id in match.ids][:limit]

    @cached_property
    def from_wikipedia(self) -> bool:
        """Whether the texts are Wikipedia's, which decides the credit and the name of the links column: the
        provenance says so (the vital package, a Wikidata build), or every article with an address has one on
        wikipedia.org."""
        said = " ".join([self.provenance.source, *map(str, self.provenance.details.values())]).lower()
        if "wikipedia" in said or self.provenance.source == "wikidata":
            return True
        sites = {site_name(article.url) for article in self.articles if article.url}
        return sites == {"Wikipedia"}

    @cached_property
    def aspect_names(self) -> list[str]:
        names: dict[str, None] = {}
        for article in self.articles:
            names.update(dict.fromkeys(article.aspects))
        return list(names)

    def label_counts(self, aspect: str) -> Counter:
        """How many articles carry each label of `aspect`."""
        return Counter(label for article in self.articles for label in article.labels(aspect))

    def coverage(self, aspect: str) -> float:
        if not self.articles:
            return 0.0
        return sum(1 for a in self.articles if a.labels(aspect)) / len(self.articles)

    @property
    def link_count(self) -> int:
        return sum(len(article.links) for article in self.articles)

    @cached_property
    def content_hash(self) -> str:
        """Hash of everything a space depends on (ids, titles, texts, order): a cache key."""
        digest = hashlib.sha256()
        for article in self.articles:
            digest.update(json.dumps([article.id, article.title, article.text]).encode())
            digest.update(b"\n")
        return digest.hexdigest()[:16]

    def stats(self) -> dict:
        """Counts a user wants first: articles, links, and per aspect coverage and top labels."""
        aspects = {}
        for name in self.aspect_names:
            counts = self.label_counts(name)
            aspects[name] = {
                "coverage": round(self.coverage(name), 4),
                "articles": sum(1 for a in self.articles if a.labels(name)),
                "labels": len(counts),
                "top": counts.most_common(10),
            }
        return {
            "name": self.name,
            "articles": len(self),
            "links": self.link_count,
            "link_kind": self.provenance.links,
            "source": self.provenance.source,
            "aspects": aspects,
        }
