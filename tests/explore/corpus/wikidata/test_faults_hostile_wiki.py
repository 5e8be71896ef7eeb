"""Issue #25, item 8: a wiki that answers empty leads, javascript: addresses or a continuation that never ends,
served by the loopback MediaWiki stand-in: refused before caching, bounded, or skipped and counted, never stored."""
from __future__ import annotations

import json

import pytest

from explore.cli import main
from explore.corpus.registry import corpus_path, open_corpus
from explore.corpus.wikidata.builder import build_wikidata_corpus
from explore.corpus.wikidata.fetch_cache import FetchCache
from explore.corpus.wikidata.http_etiquette import FetchError
from explore.corpus.wikidata.mediawiki import MediaWikiClient

from .conftest import TEST_AGENT
from .fixture_world import EXPECTED_IDS

ATTEMPTS = 4  # the etiquette fixture's max_attempts


def cli_build(services, *extra: str) -> int:
    return main(["corpus", "build", "wikidata", "--endpoint", services.endpoint, "--wiki-api", services.wiki_api,
                 "--user-agent", TEST_AGENT, "--no-progress", "--recipe", "companies", "--limit", "7", "--noise", "4",
                 *extra])


def test_a_javascript_address_is_refused_and_never_cached(services, etiquette, waits, tmp_path):
    wiki = MediaWikiClient(services.wiki_api, etiquette, FetchCache(tmp_path))
    services.wiki.wiki.faults.fullurl = "javascript:alert(document.cookie)"
    with pytest.raises(FetchError, match=r"does not fit the request.*javascript:alert"):
        wiki.pages(["Google"])
    assert list(tmp_path.rglob("*.json")) == []
    services.wiki.wiki.faults.fullurl = None  # the server heals: the rerun fetches a good answer
    assert wiki.pages(["Google"])["Google"].url.startswith("https://")


def test_a_continuation_that_never_ends_stops_after_a_bounded_number_of_pages(services, etiquette, tmp_path):
    wiki = MediaWikiClient(services.wiki_api, etiquette, FetchCache(tmp_path), max_pages=12)
    services.wiki.wiki.faults.endless_continue = True
    with pytest.raises(FetchError, match=r"still asked to continue after 12 pages of one request.*Google"):
        wiki.links(["Google"])
    assert services.wiki.received == 12 and len(list(tmp_path.rglob("*.json"))) == 12


def test_a_build_whose_leads_are_all_empty_fails_with_exit_2_and_stores_nothing(services, capsys):
    services.wiki.wiki.faults.all_extracts_empty = True
    assert cli_build(services) == 2
    err = capsys.readouterr().err
    assert "empty lead" in err and "nothing was stored" in err and "Traceback" not in err
    assert not corpus_path("companies").exists()


def test_a_few_empty_leads_are_skipped_and_counted(services, capsys):
    services.wiki.wiki.faults.empty_extracts = {"Google"}
    assert cli_build(services) == 0
    out = capsys.readouterr().out
    assert "with an empty lead:  1 (skipped" in out
    stored = open_corpus("companies")
    assert all(article.text for article in stored) and "Google" not in {a.title for a in stored}
    assert len(stored) == len(EXPECTED_IDS) - 1
