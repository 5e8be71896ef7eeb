"""Lead text, outgoing article links and random pages from a MediaWiki action API, batched,
continued and cached page by page, with the same etiquette as the SPARQL client. An answer is
cached only once it has the shape of an answer to its request: every title asked is accounted for."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterator

import requests

from explore.corpus.wikidata.answer_shapes import QueryAnswer, glimpse, shape_problem
from explore.corpus.wikidata.fetch_cache import FetchCache, NoCache
from explore.corpus.wikidata.http_etiquette import (Etiquette, FetchError, RetryableFailure, call_politely,
                                                    http_failure, parse_retry_after)

LEADS_PER_REQUEST = 20  # the extracts module serves at most 20 intros per request (exlimit)
TITLES_PER_REQUEST = 50  # the API's cap on titles per request for ordinary users
RANDOM_PER_REQUEST = 500  # rnlimit's cap for ordinary users
MAX_PAGES_PER_REQUEST = 1000  # continuations of one request; a wiki that never stops must not fill the disk
MAXLAG_S = 5  # ask to be refused when replicas lag, as the API etiquette recommends


def wikipedia_api(language: str) -> str:
    return f"https://{language}.wikipedia.org/w/api.php"


@dataclass(frozen=True)
class WikiPage:
    """A page as found: canonical title, plain lead text, Wikidata item (may be empty), URL."""

    title: str
    text: str
    qid: str
    url: str


@dataclass(frozen=True)
class PageLinks:
    """Outgoing article links in API order, and the titles that redirect to the page."""

    links: tuple[str, ...]
    redirects: tuple[str, ...]


class MediaWikiClient:
    def __init__(self, api_url: str, etiquette: Etiquette | None = None, cache: FetchCache | None = None,
                 max_pages: int = MAX_PAGES_PER_REQUEST):
        self.api_url = api_url
        self.max_pages = max_pages
        self.etiquette = etiquette or Etiquette()
        self.cache = cache or NoCache()
        self._session = requests.Session()
        self._session.headers["User-Agent"] = self.etiquette.user_agent

    def pages(self, titles: list[str]) -> dict[str, WikiPage | None]:
        """Requested title → page (following normalisation and redirects), None if missing."""
        _check_batch(titles, LEADS_PER_REQUEST)
        params = {"prop": "extracts|pageprops|info", "exintro": "1", "explaintext": "1",
                  "exlimit": str(len(titles)), "ppprop": "wikibase_item", "inprop": "url",
                  "redirects": "1", "titles": "|".join(titles)}
        found, aliases = self._merged_pages(params)
        result: dict[str, WikiPage | None] = {}
        for title in titles:
            page = found.get(_resolve(title, aliases))
            if page is None or page.get("missing") or page.get("invalid"):
                result[title] = None
                continue
            result[title] = WikiPage(
                title=page["title"],
                text=(page.get("extract") or "").strip(),
                qid=(page.get("pageprops") or {}).get("wikibase_item", ""),
                url=page.get("fullurl", ""),
            )
        return result

    def links(self, titles: list[str]) -> dict[str, PageLinks]:
        """Title → its namespace-0 links and incoming redirects (empty for a missing page)."""
        _check_batch(titles, TITLES_PER_REQUEST)
        params = {"prop": "links|redirects", "plnamespace": "0", "pllimit": "max", "rdnamespace": "0",
                  "rdlimit": "max", "rdprop": "title", "redirects": "1", "titles": "|".join(titles)}
        found, aliases = self._merged_pages(params)
        result = {}
        for title in titles:
            page = found.get(_resolve(title, aliases), {})
            links = dict.fromkeys(link["title"] for link in page.get("links", []) if link.get("ns", 0) == 0)
            redirects = dict.fromkeys(r["title"] for r in page.get("redirects", []) if r.get("ns", 0) == 0)
            result[title] = PageLinks(tuple(links), tuple(redirects))
        return result

    def random_titles(self, count: int, after: dict | None = None) -> tuple[list[str], dict | None]:
        """Up to `count` random article titles, and the continuation for the next draw (None: no more).

        Draws are chained through the API's continuation, so a resumed build replays the same
        cached draws instead of asking for fresh random pages.
        """
        params = {"list": "random", "rnnamespace": "0", "rnlimit": str(min(count, RANDOM_PER_REQUEST)),
                  **(after or {})}
        response = self._request(params)
        titles = [entry["title"] for entry in response["query"].get("random", [])]
        return titles, response.get("continue")

    def _merged_pages(self, params: dict) -> tuple[dict[str, dict], dict[str, str]]:
        """Pages by title with list properties concatenated over continuations, plus title aliases."""
        pages: dict[str, dict] = {}
        aliases: dict[str, str] = {}
        for response in self._continued(params):
            query = response["query"]
            aliases.update(_aliases(query))
            for page in query.get("pages", []):
                merged = pages.setdefault(page["title"], {})
                for key, value in page.items():
                    if isinstance(value, list):
                        merged.setdefault(key, []).extend(value)
                    elif key not in merged or not merged[key]:
                        merged[key] = value
        return pages, aliases

    def _continued(self, params: dict) -> Iterator[dict]:
        previous = None
        cont: dict = {}
        for _ in range(self.max_pages):
            response = self._request({**params, **cont})
            yield response
            cont = response.get("continue") or {}
            if not cont or cont == previous:
                return
            previous = cont
        asked = {key: glimpse(value, 60) for key, value in params.items()}
        raise FetchError(f"MediaWiki API {self.api_url} still asked to continue after {self.max_pages} pages of one "
                         f"request ({asked}); stopped there. A wiki that never ends its answer is broken or hostile.")

    def _request(self, params: dict) -> dict:
        full = {"action": "query", "format": "json", "formatversion": "2", "maxlag": str(MAXLAG_S), **params}
        request = {"service": "mediawiki", "api": self.api_url, "params": full}
        return self.cache.fetch(request, lambda: call_politely(lambda: self._attempt(full), self.etiquette,
                                                               f"MediaWiki API request to {self.api_url}"),
                                valid=lambda document: answer_problem(document, full) is None)

    def _attempt(self, params: dict) -> dict:
        try:
            response = self._session.get(self.api_url, params=params, timeout=self.etiquette.timeout_s)
        except requests.Timeout as exc:
            raise RetryableFailure(f"no answer within {self.etiquette.timeout_s:g} s") from exc
        except requests.ConnectionError as exc:
            raise RetryableFailure(f"cannot reach {self.api_url} ({type(exc).__name__})") from exc
        retryable = http_failure(response.status_code, response.headers.get("Retry-After"), "the API")
        if retryable is not None:
            raise retryable
        if response.status_code != 200:
            raise FetchError(f"MediaWiki API {self.api_url} answered HTTP {response.status_code}.")
        document = self._parse(response.content, parse_retry_after(response.headers.get("Retry-After")))
        problem = answer_problem(document, params)
        if problem is not None:  # retried: it may be a passing fault of the service
            raise RetryableFailure(f"the answer does not fit the request ({problem})")
        return document

    def _parse(self, body: bytes, retry_after: float | None) -> dict:
        if not body.strip():
            raise FetchError(f"MediaWiki API {self.api_url} answered HTTP 200 with an empty body.")
        try:
            document = json.loads(body)
        except ValueError as exc:
            raise FetchError(f"MediaWiki API {self.api_url} answered HTTP 200 with malformed JSON ({exc}).") from exc
        if not isinstance(document, dict):
            raise FetchError(f"MediaWiki API {self.api_url} answered with JSON that is not an API result.")
        error = document.get("error")
        if isinstance(error, dict):
            if error.get("code") == "maxlag":
                wait = retry_after if retry_after is not None else 5.0
                raise RetryableFailure("the wiki's replicas lag (maxlag)", wait)
            raise FetchError(f"MediaWiki API {self.api_url} refused the request: "
                             f"{error.get('code')}: {error.get('info')}")
        return document


def answer_problem(document: object, params: dict) -> str | None:
    """What makes `document` no answer to `params`, None if nothing. A batch answered without
    its titles would otherwise read as 'all missing on Wikipedia'."""
    problem = shape_problem(QueryAnswer, document)
    if problem is not None:
        return problem
    query = document["query"]
    if params.get("list") == "random" and "random" not in query:
        return "no 'query.random' list of drawn pages"
    asked = [title for title in params.get("titles", "").split("|") if title]
    aliases = _aliases(query)
    answered = {entry["title"] for entry in query.get("pages", []) + query.get("interwiki", [])}
    unanswered = [title for title in asked if _resolve(title, aliases) not in answered]
    if unanswered:
        return (f"'query.pages' says nothing of {len(unanswered)} of the {len(asked)} titles asked "
                f"({', '.join(glimpse(title) for title in unanswered[:3])})")
    return None


def _aliases(query: dict) -> dict[str, str]:
    """Title rewrites the API applied, in its order: normalisation, variant conversion, redirects."""
    return {entry["from"]: entry["to"]
            for key in ("normalized", "converted", "redirects") for entry in query.get(key, [])}


def _check_batch(titles: list[str], cap: int) -> None:
    if not 0 < len(titles) <= cap:
        raise ValueError(f"{len(titles)} titles in one request; the API takes 1 to {cap}")


def _resolve(title: str, aliases: dict[str, str]) -> str:
    """Follow normalisation then redirects (bounded: a redirect loop must not hang us)."""
    for _ in range(3):
        if title not in aliases:
            break
        title = aliases[title]
    return title
