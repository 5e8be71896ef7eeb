"""Answers that are valid JSON but wrongly shaped inside (issue #13, item 5): retried, then a clear
error naming the service and the fault, and never cached; an empty batch is not 'missing';
Retry-After is capped and honoured on 5xx; a build without class articles stores nothing."""
from __future__ import annotations

import email.utils
import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from explore.cli import main
from explore.corpus.registry import corpus_path
from explore.corpus.wikidata import cli as wikidata_cli
from explore.corpus.wikidata.builder import build_wikidata_corpus
from explore.corpus.wikidata.fetch_cache import FetchCache
from explore.corpus.wikidata.http_etiquette import Etiquette, FetchError
from explore.corpus.wikidata.mediawiki import MediaWikiClient
from explore.corpus.wikidata.sparql import SparqlClient

from .conftest import TEST_AGENT
from .fixture_world import EXPECTED_IDS
from .local_servers import Fault, FixtureServer

PING = ("SELECT ?label WHERE { <http://www.wikidata.org/entity/Q30> "
        "<http://www.w3.org/2000/01/rdf-schema#label> ?label }")
ATTEMPTS = 4  # the etiquette fixture's max_attempts

STRING_TERM = b'{"head": {"vars": ["item"]}, "results": {"bindings": [{"item": "Q1"}]}}'
PAGE_WITHOUT_TITLE = b'{"batchcomplete": true, "query": {"pages": [{"pageid": 1, "ns": 0, "extract": "x"}]}}'
EMPTY_BATCH = b'{"batchcomplete": true, "query": {}}'


def bad(body: bytes) -> Fault:
    return Fault(200, body, {"Content-Type": "application/json"})


def stored(directory) -> list:
    return sorted(directory.rglob("*.json"))


@dataclass
class Service:
    """One client against its fixture server, asked one fixed question with a known good answer."""

    server: FixtureServer
    url: str
    ask: Callable[[], object]
    good: Callable[[object], bool]


def service(which: str, services, etiquette, cache: FetchCache | None = None) -> Service:
    if which == "sparql":
        client = SparqlClient(services.endpoint, etiquette, cache)
        return Service(services.sparql, services.endpoint, lambda: client.select(PING), lambda rows: len(rows) == 2)
    wiki = MediaWikiClient(services.wiki_api, etiquette, cache)
    return Service(services.wiki, services.wiki_api, lambda: wiki.pages(["Google"]),
                   lambda pages: pages["Google"].qid == "Q95")


@pytest.mark.parametrize("which, body, fault", [
    ("sparql", STRING_TERM, r"results\.bindings.*'Q1'"),
    ("sparql", b'{"head": {"vars": []}}', r"no 'results'"),
    ("sparql", b'[{"item": {"type": "uri", "value": "x"}}]', r"expected an object with results"),
    ("wiki", PAGE_WITHOUT_TITLE, r"query\.pages.*'pageid': 1"),
    ("wiki", EMPTY_BATCH, r"nothing of 1 of the 1 titles asked \('Google'\)"),
    ("wiki", b'{"batchcomplete": true}', r"no 'query'"),
], ids=["string-term", "no-results", "not-an-object", "page-without-title", "empty-batch", "no-query"])
def test_a_wrongly_shaped_answer_is_retried_then_refused_and_not_cached(services, etiquette, waits, tmp_path,
                                                                        which, body, fault):
    asked = service(which, services, etiquette, FetchCache(tmp_path))
    asked.server.faults.extend([bad(body)] * ATTEMPTS)
    with pytest.raises(FetchError, match=rf"{asked.url} after {ATTEMPTS} attempts.*{fault}"):
        asked.ask()
    assert len(waits) == ATTEMPTS - 1 and stored(tmp_path) == []
    assert asked.good(asked.ask())  # the server heals: fetched again, no bad answer was kept


def test_a_random_draw_without_its_list_is_refused(services, etiquette):
    services.wiki.faults.extend([bad(EMPTY_BATCH)] * ATTEMPTS)
    with pytest.raises(FetchError, match=r"query\.random"):
        MediaWikiClient(services.wiki_api, etiquette).random_titles(3)


@pytest.mark.parametrize("which, body", [("sparql", STRING_TERM), ("wiki", PAGE_WITHOUT_TITLE)],
                         ids=["sparql", "wiki"])
def test_one_bad_shape_is_retried_and_the_build_finishes(companies, settings, services, waits, which, body):
    getattr(services, which).faults.append(bad(body))
    corpus, _ = build_wikidata_corpus(companies, settings)
    assert [a.id for a in corpus] == EXPECTED_IDS
    assert waits == [settings.etiquette.backoff_s]


@pytest.mark.parametrize("which, poison", [
    ("sparql", json.loads(STRING_TERM)["results"]["bindings"]),  # the client caches the rows alone
    ("wiki", json.loads(PAGE_WITHOUT_TITLE)),
])
def test_a_bad_answer_cached_by_an_older_version_is_fetched_again(services, etiquette, tmp_path, which, poison):
    asked = service(which, services, etiquette, FetchCache(tmp_path))
    asked.ask()
    [path] = stored(tmp_path)
    path.write_text(json.dumps({**json.loads(path.read_text()), "response": poison}))
    assert asked.good(asked.ask())
    assert asked.server.received == 2


def far_future() -> str:
    return email.utils.formatdate(time.time() + 10 * 24 * 3600, usegmt=True)


@pytest.mark.parametrize("which", ["sparql", "wiki"])
def test_retry_after_is_capped_and_honoured_on_5xx(services, etiquette, waits, which):
    asked = service(which, services, etiquette)
    asked.server.faults.extend([
        Fault(429, b"slow down", {"Retry-After": "86400"}),
        Fault(503, b"maintenance", {"Retry-After": far_future()}),
        Fault(500, b"boom", {"Retry-After": "7"}),
    ])
    assert asked.good(asked.ask())
    assert waits == [60.0, 60.0, 7.0]


def cli_build(services, *extra: str) -> int:
    return main(["corpus", "build", "wikidata", "--endpoint", services.endpoint, "--wiki-api", services.wiki_api,
                 "--user-agent", TEST_AGENT, "--no-progress", *extra])


def test_the_cli_reports_a_bad_shape_as_a_message_and_stores_nothing(services, capsys, monkeypatch, waits):
    monkeypatch.setattr(wikidata_cli, "Etiquette", functools.partial(Etiquette, sleep=waits.append))
    services.wiki.faults.extend([bad(EMPTY_BATCH)] * 5)
    assert cli_build(services, "--recipe", "companies", "--limit", "7", "--noise", "4") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Gave up on MediaWiki API request to") and "Traceback" not in err
    assert "rerun the same command to resume" in err
    assert len(waits) == 4 and not corpus_path("companies").exists()


def test_a_build_without_any_class_article_is_an_error_not_a_corpus_of_noise(services, capsys, tmp_path):
    recipe = tmp_path / "nothing.json"  # Japan (Q17) is an item, but nothing is an instance of it
    recipe.write_text(json.dumps({"name": "nothing", "class": "Q17", "aspects": {"P17": "country"},
                                  "limit": 5, "noise": 4}))
    assert cli_build(services, "--recipe", str(recipe)) == 2
    err = capsys.readouterr().err
    assert "No article of class Q17" in err and "nothing was stored" in err
    assert not corpus_path("nothing").exists()
    assert sum(services.wiki.served.values()) == 0  # no noise drawn for a corpus that will not be stored
