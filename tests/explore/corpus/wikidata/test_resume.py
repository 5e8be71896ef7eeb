"""A build that fails or is killed mid-way resumes from the cache without fetching anything twice."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from explore.corpus.registry import open_corpus
from explore.corpus.wikidata.builder import build_wikidata_corpus
from explore.corpus.wikidata.http_etiquette import FetchError
from explore.settings import HOME_ENV, REPO_ROOT

from .conftest import TEST_AGENT
from .fixture_world import EXPECTED_IDS, EXPECTED_LINKS
from .local_servers import Fault


def cache_files(home: Path) -> list[Path]:
    return sorted((home / "cache" / "wikidata").rglob("*.json"))


def assert_nothing_served_twice(services) -> None:
    for server in (services.sparql, services.wiki):
        twice = {key: n for key, n in server.served.items() if n > 1}
        assert not twice, f"fetched more than once: {twice}"


@pytest.mark.parametrize("which, fault", [
    ("wiki", Fault(200, b'{"query": {"pages": [{"title": "Goo')),
    ("wiki", Fault(200, b"")),
    ("sparql", Fault(200, b"")),
])
def test_a_failed_build_leaves_a_valid_cache_and_the_rerun_fetches_only_the_rest(
        companies, settings, services, isolated_home, which, fault):
    server = getattr(services, which)
    server.faults.extend([None, None, fault])  # the third request of that service breaks
    with pytest.raises(FetchError):
        build_wikidata_corpus(companies, settings)
    stored = cache_files(isolated_home)
    assert stored and not list((isolated_home / "cache").rglob("*.tmp"))
    for path in stored:
        record = json.loads(path.read_text())
        assert set(record) == {"request", "response"}

    corpus, summary = build_wikidata_corpus(companies, settings)
    assert [a.id for a in corpus] == EXPECTED_IDS
    assert summary.from_cache == len(stored)
    assert_nothing_served_twice(services)


def run_cli(home: Path, services, *extra: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "explore", "corpus", "build", "wikidata", "--recipe", "companies",
               "--limit", "7", "--noise", "4", "--endpoint", services.endpoint, "--wiki-api", services.wiki_api,
               "--user-agent", TEST_AGENT, "--no-progress", *extra]
    env = {**os.environ, HOME_ENV: str(home)}
    return subprocess.Popen(command, cwd=REPO_ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@pytest.mark.slow
def test_a_killed_build_restarts_and_finishes_without_fetching_any_page_twice(services, isolated_home):
    services.wiki.hold_at = 8  # the 8th wiki request waits; the build is killed while it does
    first = run_cli(isolated_home, services)
    try:
        assert services.wiki.holding.wait(60), first.communicate(timeout=5)[0]
        first.kill()
        first.wait(timeout=10)
    finally:
        services.wiki.release.set()
        if first.poll() is None:
            first.kill()
    wiki_before, sparql_before = sum(services.wiki.served.values()), sum(services.sparql.served.values())
    assert wiki_before == 7 and sparql_before >= 2
    assert not (isolated_home / "corpora" / "companies").exists()

    second = run_cli(isolated_home, services)
    output, _ = second.communicate(timeout=60)
    assert second.returncode == 0, output
    assert "Noise articles added:  4 of 4 asked" in output
    assert f", {wiki_before + sparql_before} from the cache" in output
    assert_nothing_served_twice(services)
    corpus = open_corpus("companies")
    assert [a.id for a in corpus] == EXPECTED_IDS
    assert {a.id: a.links for a in corpus} == EXPECTED_LINKS
