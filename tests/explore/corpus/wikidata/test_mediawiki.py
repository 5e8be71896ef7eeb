"""The MediaWiki client against the fixture API: leads, links with continuation, random draws,
and the same retry rules as the SPARQL client."""
from __future__ import annotations

import time

import pytest

from explore.corpus.wikidata.http_etiquette import Etiquette, FetchError
from explore.corpus.wikidata.mediawiki import MediaWikiClient, PageLinks, WikiPage

from .conftest import TEST_AGENT
from .local_servers import Fault, free_port


@pytest.fixture
def wiki(services, etiquette):
    return MediaWikiClient(services.wiki_api, etiquette)


def test_pages_follow_redirects_and_report_missing_pages(wiki):
    pages = wiki.pages(["Toyota", "Ghost Corp", "Orphan page"])
    assert pages["Toyota"] == WikiPage("Toyota Motor Corporation", "Toyota is a Japanese automaker.", "Q53268",
                                       "https://en.wikipedia.org/wiki/Toyota_Motor_Corporation")
    assert pages["Ghost Corp"] is None
    assert pages["Orphan page"].qid == ""


def test_links_are_gathered_across_continuations_in_order(wiki, services):
    links = wiki.links(["Google", "Toyota Motor Corporation"])
    assert links["Google"] == PageLinks(("Apple Inc.", "Berlin", "Google", "Honda", "Toyota", "United States"), ())
    assert links["Toyota Motor Corporation"] == PageLinks(("Honda", "Tokyo"), ("Toyota",))
    assert sum(services.wiki.served.values()) == 3  # 9 links, three per answer


def test_batches_over_the_api_limits_are_refused_before_sending(wiki, services):
    with pytest.raises(ValueError):
        wiki.pages([f"Page {i}" for i in range(21)])
    with pytest.raises(ValueError):
        wiki.links([f"Page {i}" for i in range(51)])
    assert services.wiki.received == 0


def test_random_draws_chain_through_the_continuation(wiki):
    first, after = wiki.random_titles(3)
    second, _ = wiki.random_titles(2, after)
    assert first + second == ["Douglas Adams", "Rival Motors", "Berlin", "Apple Inc.", "Paris"]


def test_a_server_that_is_down_is_retried_with_backoff_then_reported(waits, etiquette):
    client = MediaWikiClient(f"http://127.0.0.1:{free_port()}/w/api.php", etiquette)
    with pytest.raises(FetchError, match="after 4 attempts: cannot reach"):
        client.pages(["Google"])
    assert waits == [0.5, 1.0, 2.0]


def test_a_timeout_is_retried(services, waits):
    services.wiki.faults.append(Fault(delay_s=1.5))
    client = MediaWikiClient(services.wiki_api, Etiquette(user_agent=TEST_AGENT, timeout_s=0.5, backoff_s=0.5,
                                                           sleep=waits.append))
    assert client.pages(["Google"])["Google"].qid == "Q95"
    assert waits == [0.5]


def test_429_retry_after_is_honoured_for_real(services):
    services.wiki.faults.append(Fault(429, b"", {"Retry-After": "1"}))
    client = MediaWikiClient(services.wiki_api, Etiquette(user_agent=TEST_AGENT, timeout_s=5))
    started = time.monotonic()
    assert client.pages(["Google"])["Google"].qid == "Q95"
    assert time.monotonic() - started >= 1.0


def test_500_then_success_and_maxlag_waits_as_asked(wiki, services, waits):
    maxlag = b'{"error": {"code": "maxlag", "info": "Waiting for a database server: 6 seconds lagged."}}'
    services.wiki.faults.extend([Fault(500), Fault(200, maxlag, {"Retry-After": "4"})])
    assert wiki.pages(["Google"])["Google"].qid == "Q95"
    assert waits == [0.5, 4.0]


@pytest.mark.parametrize("body, message", [
    (b'{"batchcomplete": true, "query": {"pages": [', "malformed JSON"),
    (b"", "empty body"),
    (b'{"error": {"code": "badtitle", "info": "Bad title"}}', "badtitle"),
])
def test_broken_answers_are_clear_errors(wiki, services, waits, body, message):
    services.wiki.faults.append(Fault(200, body, {"Content-Type": "application/json"}))
    with pytest.raises(FetchError, match=message):
        wiki.pages(["Google"])
    assert waits == []
