"""Build a corpus the way the research did: class items with an article, their leads, links and
aspect labels from Wikidata, plus random articles as unlabelled noise. Every fetch is cached."""
from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterator, Sequence, TypeVar

from tqdm import tqdm

from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.wikidata.fetch_cache import FetchCache, wikidata_cache_dir
from explore.corpus.wikidata.http_etiquette import Etiquette
from explore.corpus.wikidata.mediawiki import (LEADS_PER_REQUEST, RANDOM_PER_REQUEST, TITLES_PER_REQUEST,
                                               MediaWikiClient, WikiPage, wikipedia_api)
from explore.corpus.wikidata.queries import (aliases_query, aspect_values_query, members_page_query,
                                             noise_check_query, parse_aliases, parse_aspect_values, parse_members,
                                             parse_noise_checks)
from explore.corpus.wikidata.recipes import Recipe
from explore.corpus.wikidata.sparql import WIKIDATA_ENDPOINT, SparqlClient
from explore.errors import AspectNavError

T = TypeVar("T")

# Random draws that add nothing new before we accept the wiki has no more noise to give.
MAX_FRUITLESS_NOISE_DRAWS = 5


class NoClassArticlesError(AspectNavError):
    """The class yielded no article: random noise alone would pass for a corpus."""


@dataclass
class BuildSettings:
    """Where to fetch from and how; the defaults are the public Wikidata and Wikipedia services."""

    endpoint: str = WIKIDATA_ENDPOINT
    wiki_api: str | None = None  # None: the recipe language's Wikipedia
    corpus_name: str | None = None  # None: the recipe's name
    etiquette: Etiquette = field(default_factory=Etiquette)
    members_per_query: int = 500  # items per SPARQL page; small enough for the 60 s limit
    items_per_query: int = 100  # items per aspect-value or noise-check query
    progress: bool | None = None  # None: bars only on a terminal

    def api_for(self, recipe: Recipe) -> str:
        return self.wiki_api or wikipedia_api(recipe.language)


@dataclass
class BuildSummary:
    """What a build found, for the closing report."""

    items_found: int = 0
    with_article: int = 0
    missing_on_wikipedia: int = 0
    empty_leads: int = 0  # pages whose lead came back empty: nothing to embed, skipped
    class_articles: int = 0
    aspect_articles: dict[str, int] = field(default_factory=dict)
    noise_requested: int = 0
    noise_added: int = 0
    noise_rejected_in_class: int = 0
    links: int = 0
    fetched: int = 0
    from_cache: int = 0

    def lines(self) -> list[str]:
        aspects = ", ".join(f"{name} {count}" for name, count in self.aspect_articles.items()) or "none"
        return [
            f"Wikidata items found: {self.items_found}",
            f"  with an article:     {self.with_article}"
            + (f" ({self.missing_on_wikipedia} missing on Wikipedia, skipped)" if self.missing_on_wikipedia else ""),
            *([f"  with an empty lead:  {self.empty_leads} (skipped: no text to embed)"] if self.empty_leads else []),
            f"  class articles kept: {self.class_articles}",
            f"  with each aspect:    {aspects}",
            f"Noise articles added:  {self.noise_added} of {self.noise_requested} asked"
            + (f" ({self.noise_rejected_in_class} random pages were in the class, skipped)"
               if self.noise_rejected_in_class else ""),
            f"Links between corpus articles: {self.links}",
            f"Requests: {self.fetched} fetched, {self.from_cache} from the cache",
        ]


@dataclass
class _Entry:
    qid: str
    page: WikiPage
    description: str
    aspects: dict[str, tuple[str, ...]]


def cache_key(recipe: Recipe, settings: BuildSettings) -> str:
    """The cache folder: one per recipe query and pair of services, shared by any limit."""
    raw = "|".join([recipe.query_key, settings.endpoint, settings.api_for(recipe)])
    return f"{recipe.name}-{hashlib.sha256(raw.encode()).hexdigest()[:12]}"


class WikidataCorpusBuilder:
    """`build()` runs the stages in order; each stage's requests go through the shared cache."""

    def __init__(self, recipe: Recipe, settings: BuildSettings | None = None):
        recipe.require_class()
        self.recipe = recipe
        self.settings = settings or BuildSettings()
        self.cache = FetchCache(wikidata_cache_dir(cache_key(recipe, self.settings)))
        self.sparql = SparqlClient(self.settings.endpoint, self.settings.etiquette, self.cache)
        self.wiki = MediaWikiClient(self.settings.api_for(recipe), self.settings.etiquette, self.cache)
        self.summary = BuildSummary(noise_requested=recipe.noise)

    def build(self) -> Corpus:
        members = self._class_members()
        aspects = self._aspect_values([member.qid for member in members])
        pages = self._pages([member.title for member in members], "Wikipedia leads")
        entries: dict[str, _Entry] = {}
        seen_titles: set[str] = set()
        for member in members:
            page = pages.get(member.title)
            if page is None:
                self.summary.missing_on_wikipedia += 1
            elif not page.text:
                self.summary.empty_leads += 1
            elif page.title not in seen_titles:  # two sitelinks redirecting to one page: keep the first
                seen_titles.add(page.title)
                entries[member.qid] = _Entry(member.qid, page, member.description, aspects.get(member.qid, {}))
        self.summary.class_articles = len(entries)
        if not entries and self.summary.empty_leads:
            raise NoClassArticlesError(self._all_leads_empty())
        if not entries:
            raise NoClassArticlesError(self._no_class_articles())
        noise = self._noise(entries)
        links = self._links([entry.page.title for entry in [*entries.values(), *noise]])
        aliases = self._aliases([*entries, *(entry.qid for entry in noise)])
        corpus = self._assemble([*entries.values(), *noise], links, aliases)
        self.summary.fetched, self.summary.from_cache = self.cache.counts.fetched, self.cache.counts.cached
        return corpus

    def _all_leads_empty(self) -> str:
        return (f"Every article of class {self.recipe.class_qid} found on {self.settings.api_for(self.recipe)} came "
                f"back with an empty lead ({self.summary.empty_leads} of them, extract \"\"): a corpus without text "
                "cannot be embedded, so nothing was stored. Check that the wiki serves the TextExtracts module.")

    def _no_class_articles(self) -> str:
        summary, recipe = self.summary, self.recipe
        return (f"No article of class {recipe.class_qid} was found: {summary.items_found} Wikidata items, "
                f"{summary.with_article} with a sitelink to the {recipe.language!r} Wikipedia, "
                f"{summary.missing_on_wikipedia} of those missing on {self.settings.api_for(recipe)}; "
                "nothing was stored. Check the recipe's class and language.")

    def _class_members(self):
        """Items page by page (LIMIT/OFFSET, no ORDER BY: sorting a class of millions on every
        page would break the 60 s limit) until `limit` of them have an article."""
        limit, page_size = self.recipe.limit, self.settings.members_per_query
        with_article = []
        seen: set[str] = set()
        offset = 0
        with self._bar("Wikidata items", limit) as bar:
            while len(with_article) < limit:
                page = parse_members(self.sparql.select(members_page_query(self.recipe, page_size, offset)))
                fresh = [member for member in page if member.qid not in seen]  # pages are unordered: no repeats
                seen.update(member.qid for member in fresh)
                self.summary.items_found += len(fresh)
                found = [member for member in fresh if member.title][: limit - len(with_article)]
                with_article.extend(found)
                bar.update(len(found))
                if len(page) < page_size:
                    break
                offset += page_size
        self.summary.with_article = len(with_article)
        return with_article

    def _aspect_values(self, qids: list[str]) -> dict[str, dict[str, tuple[str, ...]]]:
        values: dict[str, dict[str, tuple[str, ...]]] = {}
        with self._bar("Aspect labels", len(qids)) as bar:
            for batch in batches(qids, self.settings.items_per_query):
                rows = self.sparql.select(aspect_values_query(self.recipe, batch))
                values.update(parse_aspect_values(self.recipe, rows))
                bar.update(len(batch))
        return values

    def _aliases(self, qids: list[str]) -> dict[str, tuple[str, ...]]:
        aliases: dict[str, tuple[str, ...]] = {}
        with self._bar("Aliases", len(qids)) as bar:
            for batch in batches(qids, self.settings.items_per_query):
                aliases.update(parse_aliases(self.sparql.select(aliases_query(self.recipe, batch))))
                bar.update(len(batch))
        return aliases

    def _pages(self, titles: list[str], stage: str | None) -> dict[str, WikiPage | None]:
        pages: dict[str, WikiPage | None] = {}
        with self._bar(stage, len(titles)) as bar:
            for batch in batches(titles, LEADS_PER_REQUEST):
                pages.update(self.wiki.pages(batch))
                bar.update(len(batch))
        return pages

    def _noise(self, entries: dict[str, _Entry]) -> list[_Entry]:
        """Random articles that have an item, are not in the class and not already taken."""
        wanted = self.recipe.noise
        taken_titles = {entry.page.title for entry in entries.values()}
        taken_qids = set(entries)
        noise: list[_Entry] = []
        after: dict | None = None
        fruitless = 0
        with self._bar("Noise articles", wanted) as bar:
            while len(noise) < wanted and fruitless < MAX_FRUITLESS_NOISE_DRAWS:
                titles, after = self.wiki.random_titles(min(RANDOM_PER_REQUEST, wanted - len(noise)), after)
                titles = [title for title in dict.fromkeys(titles) if title not in taken_titles]
                added = self._noise_from(titles, taken_titles, taken_qids, wanted - len(noise)) if titles else []
                noise.extend(added)
                bar.update(len(added))
                fruitless = 0 if added else fruitless + 1
                if after is None:
                    break
        self.summary.noise_added = len(noise)
        return noise

    def _noise_from(self, titles: list[str], taken_titles: set[str], taken_qids: set[str], room: int) -> list[_Entry]:
        pages = self._pages(titles, None)
        candidates: dict[str, WikiPage] = {}
        for page in pages.values():
            if page and not page.text:
                self.summary.empty_leads += 1
            elif page and page.qid and page.qid not in taken_qids and page.title not in taken_titles:
                candidates.setdefault(page.qid, page)
        checks = {}
        for batch in batches(list(candidates), self.settings.items_per_query):
            checks.update(parse_noise_checks(self.sparql.select(noise_check_query(self.recipe, batch))))
        added = []
        for qid, page in candidates.items():
            check = checks.get(qid)
            if check is not None and check.in_class:
                self.summary.noise_rejected_in_class += 1
                continue
            if len(added) < room:
                added.append(_Entry(qid, page, check.description if check else "", {}))
                taken_qids.add(qid)
                taken_titles.add(page.title)
        return added

    def _links(self, titles: list[str]):
        links = {}
        with self._bar("Wikipedia links", len(titles)) as bar:
            for batch in batches(titles, TITLES_PER_REQUEST):
                links.update(self.wiki.links(batch))
                bar.update(len(batch))
        return links

    def _assemble(self, entries: list[_Entry], links, aliases: dict[str, tuple[str, ...]]) -> Corpus:
        """Links become ids of corpus articles (directly or through a redirect), in API order; an item's
        aliases are kept but its article's own title."""
        id_by_title = {}
        for entry in entries:
            for redirect in links[entry.page.title].redirects:
                id_by_title.setdefault(redirect, entry.qid)
        id_by_title.update({entry.page.title: entry.qid for entry in entries})
        articles = []
        for entry in entries:
            targets = (id_by_title.get(title) for title in links[entry.page.title].links)
            linked = tuple(dict.fromkeys(t for t in targets if t is not None and t != entry.qid))
            articles.append(Article(id=entry.qid, title=entry.page.title, text=entry.page.text,
                                    description=entry.description, url=entry.page.url, links=linked,
                                    aspects=entry.aspects,
                                    aliases=tuple(a for a in aliases.get(entry.qid, ()) if a != entry.page.title)))
        for aspect in self.recipe.aspects.values():
            self.summary.aspect_articles[aspect] = sum(1 for article in articles if article.labels(aspect))
        self.summary.links = sum(len(article.links) for article in articles)
        provenance = Provenance(
            source="wikidata",
            date=datetime.now(timezone.utc).date().isoformat(),
            links="hyperlinks",
            details={
                "endpoint": self.settings.endpoint,
                "wiki_api": self.settings.api_for(self.recipe),
                "recipe": self.recipe.name,
                "class": self.recipe.class_qid,
                "recipe_json": self.recipe.to_json(),
                "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            },
        )
        return Corpus(self.settings.corpus_name or self.recipe.name, articles, provenance)

    @contextmanager
    def _bar(self, stage: str | None, total: int) -> Iterator[tqdm]:
        # tqdm's disable=None means: draw only on a terminal
        disabled = True if stage is None else None if self.settings.progress is None else not self.settings.progress
        with tqdm(total=total, desc=stage, unit="item", disable=disabled, leave=True) as bar:
            yield bar


def build_wikidata_corpus(recipe: Recipe, settings: BuildSettings | None = None) -> tuple[Corpus, BuildSummary]:
    builder = WikidataCorpusBuilder(recipe, settings)
    corpus = builder.build()
    return corpus, builder.summary


def batches(items: Sequence[T], size: int) -> Iterator[list[T]]:
    for start in range(0, len(items), size):
        yield list(items[start:start + size])
