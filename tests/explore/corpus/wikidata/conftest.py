"""Servers for the Wikidata builder tests: started once per session on loopback, reset per test."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from explore.corpus.wikidata.builder import BuildSettings
from explore.corpus.wikidata.http_etiquette import Etiquette
from explore.corpus.wikidata.recipes import load_recipe

from .fixture_world import write_world
from .local_servers import FixtureServer, OxigraphServer, start_mediawiki, start_sparql_proxy

TEST_AGENT = "AspectNav-tests/1.0 (aspectnav-tests@example.org)"


@dataclass
class LocalServices:
    sparql: FixtureServer  # counting, fault-injecting proxy in front of Oxigraph
    wiki: FixtureServer

    @property
    def endpoint(self) -> str:
        return self.sparql.url + "/sparql"

    @property
    def wiki_api(self) -> str:
        return self.wiki.url + "/w/api.php"


@pytest.fixture(scope="session")
def world_files(tmp_path_factory):
    return write_world(tmp_path_factory.mktemp("world"))


@pytest.fixture(scope="session")
def oxigraph(world_files):
    server = OxigraphServer(world_files[0])
    yield server
    server.stop()


@pytest.fixture(scope="session")
def _session_services(oxigraph, world_files):
    sparql = start_sparql_proxy(oxigraph.query_url)
    wiki = start_mediawiki(world_files[1])
    yield LocalServices(sparql, wiki)
    sparql.stop()
    wiki.stop()


@pytest.fixture
def services(_session_services):
    """The servers with fresh counters and no pending faults."""
    _session_services.sparql.reset()
    _session_services.wiki.reset()
    yield _session_services
    _session_services.sparql.reset()
    _session_services.wiki.reset()


@pytest.fixture
def waits():
    """Records the waits an Etiquette asks for instead of sleeping them."""
    return []


@pytest.fixture
def etiquette(waits):
    return Etiquette(user_agent=TEST_AGENT, timeout_s=5, max_attempts=4, backoff_s=0.5, sleep=waits.append)


@pytest.fixture
def settings(services, etiquette):
    return BuildSettings(endpoint=services.endpoint, wiki_api=services.wiki_api, etiquette=etiquette, progress=False)


@pytest.fixture
def companies():
    """The shipped recipe, cut to the fixture world: 7 class articles, 4 noise articles."""
    return load_recipe("companies").with_overrides(limit=7, noise=4)
