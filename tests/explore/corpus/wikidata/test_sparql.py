"""The SPARQL client against Oxigraph behind a fault-injecting proxy: retries where the rules say
retry, a clear error where they do not, and never 'no rows' for a broken answer."""
from __future__ import annotations

import time

import pytest

from explore.corpus.wikidata.http_etiquette import Etiquette, FetchError
from explore.corpus.wikidata.queries import aspect_values_query, members_page_query, parse_members
from explore.corpus.wikidata.sparql import SparqlClient

from .conftest import TEST_AGENT
from .local_servers import Fault, free_port

PING = ("SELECT ?label WHERE { <http://www.wikidata.org/entity/Q30> "
        "<http://www.w3.org/2000/01/rdf-schema#label> ?label }")


def labels(rows):
    return sorted(row["label"]["value"] for row in rows)


def test_recipe_queries_run_on_a_plain_sparql_server(services, etiquette, companies):
    client = SparqlClient(services.endpoint, etiquette)
    members = parse_members(client.select(members_page_query(companies, 500, 0)))
    assert [m.qid for m in members if m.title][:3] == ["Q95", "Q312", "Q9584"]
    assert {m.qid for m in members} >= {"Q1000002"}  # found although it has no English article
    rows = client.select(aspect_values_query(companies, ["Q40993"]))
    assert sorted(r.get("valueLabel", {}).get("value", "") for r in rows) == ["", "Germany"]


def test_a_server_that_is_down_is_retried_with_backoff_then_reported(waits, etiquette):
    client = SparqlClient(f"http://127.0.0.1:{free_port()}/sparql", etiquette)
    with pytest.raises(FetchError, match="after 4 attempts: cannot reach"):
        client.select(PING)
    assert waits == [0.5, 1.0, 2.0]


def test_a_timeout_is_retried(services, waits):
    services.sparql.faults.append(Fault(delay_s=2.5))
    etiquette = Etiquette(user_agent=TEST_AGENT, timeout_s=1, backoff_s=0.5, sleep=waits.append)
    client = SparqlClient(services.endpoint, etiquette)
    assert labels(client.select(PING)) == ["United States", "Vereinigte Staaten"]
    assert waits == [0.5]


def test_429_retry_after_is_honoured_for_real(services):
    services.sparql.faults.append(Fault(429, b"slow down", {"Retry-After": "1"}))
    client = SparqlClient(services.endpoint, Etiquette(user_agent=TEST_AGENT, timeout_s=5))
    started = time.monotonic()
    assert labels(client.select(PING)) == ["United States", "Vereinigte Staaten"]
    assert time.monotonic() - started >= 1.0


def test_429_waits_as_long_as_the_server_asks_not_the_backoff(services, waits, etiquette):
    services.sparql.faults.extend([Fault(429, headers={"Retry-After": "7"}), Fault(503, headers={"Retry-After": "3"})])
    assert labels(SparqlClient(services.endpoint, etiquette).select(PING))
    assert waits == [7.0, 3.0]


def test_500_then_success(services, waits, etiquette):
    services.sparql.faults.extend([Fault(500, b"boom"), Fault(502)])
    assert labels(SparqlClient(services.endpoint, etiquette).select(PING)) == ["United States", "Vereinigte Staaten"]
    assert waits == [0.5, 1.0]


@pytest.mark.parametrize("body, message", [
    (b'{"head": {"vars": ["label"]}, "results": {"bindi', "malformed JSON"),
    (b"", "empty body"),
    (b"<html>maintenance</html>", "malformed JSON"),
])
def test_a_200_without_a_results_document_is_an_error_not_an_empty_class(services, waits, etiquette, body, message):
    services.sparql.faults.append(Fault(200, body, {"Content-Type": "application/sparql-results+json"}))
    with pytest.raises(FetchError, match=message):
        SparqlClient(services.endpoint, etiquette).select(PING)
    assert waits == []


def test_a_bad_query_is_not_retried(services, waits, etiquette):
    with pytest.raises(FetchError, match="refused the query"):
        SparqlClient(services.endpoint, etiquette).select("SELECT WHERE nonsense")
    assert waits == []


def test_a_refused_user_agent_says_what_to_do(services, waits):
    default_agent = "sparqlwrapper 2.0.0 (rdflib.github.io/sparqlwrapper)"
    client = SparqlClient(services.endpoint, Etiquette(user_agent=default_agent, sleep=waits.append))
    with pytest.raises(FetchError, match="--user-agent"):
        client.select(PING)
