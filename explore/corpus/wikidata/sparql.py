"""SELECT queries against a SPARQL 1.1 endpoint (Wikidata's or any other) via SPARQLWrapper,
with the query service's etiquette and a strict check that a well-shaped results document came back."""
from __future__ import annotations

import http.client
import json
import socket
import urllib.error

from SPARQLWrapper import JSON, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import EndPointInternalError, SPARQLWrapperException

from explore.corpus.wikidata.answer_shapes import SelectAnswer, shape_problem
from explore.corpus.wikidata.fetch_cache import FetchCache, NoCache
from explore.corpus.wikidata.http_etiquette import Etiquette, FetchError, RetryableFailure, call_politely, http_failure

WIKIDATA_ENDPOINT = "https://query.wikidata.org/sparql"

Row = dict[str, dict[str, str]]  # variable -> SPARQL JSON term {"type", "value", "xml:lang"?}


class SparqlClient:
    """One query at a time; each result (its bindings) is cached under the query text."""

    def __init__(self, endpoint: str = WIKIDATA_ENDPOINT, etiquette: Etiquette | None = None,
                 cache: FetchCache | None = None):
        self.endpoint = endpoint
        self.etiquette = etiquette or Etiquette()
        self.cache = cache or NoCache()

    def select(self, query: str) -> list[Row]:
        request = {"service": "sparql", "endpoint": self.endpoint, "query": query}
        return self.cache.fetch(request, lambda: call_politely(lambda: self._attempt(query), self.etiquette,
                                                               f"SPARQL query to {self.endpoint}"),
                                valid=lambda rows: rows_problem(rows) is None)

    def _attempt(self, query: str) -> list[Row]:
        wrapper = SPARQLWrapper(self.endpoint, agent=self.etiquette.user_agent)
        wrapper.setMethod(POST)  # batches of VALUES make long queries; POST has no URL limit
        wrapper.setReturnFormat(JSON)
        wrapper.setTimeout(max(1, round(self.etiquette.timeout_s)))
        wrapper.setQuery(query)
        try:
            response = wrapper.query().response
            body = response.read()
        except urllib.error.HTTPError as exc:
            raise _classify_http_error(exc.code, exc.headers.get("Retry-After"), self.endpoint) from exc
        except EndPointInternalError as exc:  # SPARQLWrapper's 500, raised while handling the HTTPError
            retry_after = getattr(exc.__context__, "headers", {}).get("Retry-After")
            raise _classify_http_error(500, retry_after, self.endpoint) from exc
        except SPARQLWrapperException as exc:  # 400 bad query, 401, 404, 414: retrying will not help
            raise FetchError(f"SPARQL endpoint {self.endpoint} refused the query: {_short(exc)}") from exc
        except (TimeoutError, socket.timeout) as exc:
            raise RetryableFailure(f"no answer within {self.etiquette.timeout_s:g} s") from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                raise RetryableFailure(f"no answer within {self.etiquette.timeout_s:g} s") from exc
            raise RetryableFailure(f"cannot reach {self.endpoint} ({exc.reason})") from exc
        except (ConnectionError, http.client.HTTPException) as exc:
            raise RetryableFailure(f"connection to {self.endpoint} broke ({exc})") from exc
        return parse_select_results(body, self.endpoint)


def _classify_http_error(status: int, retry_after: str | None, endpoint: str) -> Exception:
    retryable = http_failure(status, retry_after, "the endpoint")
    if retryable is not None:
        return retryable
    if status == 403:
        return FetchError(f"SPARQL endpoint {endpoint} answered 403 Forbidden; Wikidata refuses requests "
                          "without a descriptive User-Agent: pass --user-agent 'name/version (contact)'.")
    return FetchError(f"SPARQL endpoint {endpoint} answered HTTP {status}.")


def parse_select_results(body: bytes, endpoint: str) -> list[Row]:
    """The bindings of a SPARQL JSON results document; anything else is an error, never 'no rows'.
    A document of the wrong shape is retried: it may be a passing fault of the service."""
    if not body or not body.strip():
        raise FetchError(f"SPARQL endpoint {endpoint} answered HTTP 200 with an empty body instead of results.")
    try:
        document = json.loads(body)
    except ValueError as exc:
        raise FetchError(f"SPARQL endpoint {endpoint} answered HTTP 200 with malformed JSON ({exc}).") from exc
    problem = shape_problem(SelectAnswer, document)
    if problem is not None:
        raise RetryableFailure(f"the answer is not a SPARQL results document ({problem})")
    return document["results"]["bindings"]


def rows_problem(rows: object) -> str | None:
    """What is wrong with cached rows (the bindings alone are cached), None if nothing."""
    return shape_problem(SelectAnswer, {"results": {"bindings": rows}})


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
