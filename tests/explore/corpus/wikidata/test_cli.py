"""`python -m explore corpus build wikidata`: builds, stores, summarises; user errors are messages."""
from __future__ import annotations

import pytest

from explore.cli import main
from explore.corpus.registry import open_corpus

from .conftest import TEST_AGENT
from .fixture_world import EXPECTED_IDS


def build(services, *extra):
    return main(["corpus", "build", "wikidata", "--recipe", "companies", "--limit", "7", "--noise", "4",
                 "--endpoint", services.endpoint, "--wiki-api", services.wiki_api,
                 "--user-agent", TEST_AGENT, "--no-progress", *extra])


def test_build_stores_the_corpus_and_prints_a_summary(services, capsys):
    assert build(services) == 0
    out = capsys.readouterr().out
    for line in ("Wikidata items found: 9", "with an article:     7 (1 missing on Wikipedia, skipped)",
                 "with each aspect:    country 6, industry 5", "Noise articles added:  4 of 4 asked",
                 "Stored 10 articles as 'companies'"):
        assert line in out
    corpus = open_corpus("companies")
    assert [a.id for a in corpus] == EXPECTED_IDS
    assert corpus.provenance.details["wiki_api"] == services.wiki_api


def test_an_existing_corpus_needs_force_or_another_name(services, capsys):
    assert build(services) == 0
    assert build(services) == 2
    assert "pass --force" in capsys.readouterr().err
    assert build(services, "--name", "companies-2") == 0
    assert len(open_corpus("companies-2")) == len(EXPECTED_IDS)
    assert build(services, "--force") == 0


def test_user_errors_are_messages_not_tracebacks(services, capsys):
    assert main(["corpus", "build", "wikidata", "--recipe", "planets"]) == 2
    assert "No recipe 'planets'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:  # a bad --name is a usage error (explore/names.py), exit 2
        build(services, "--name", "bad name!")
    assert usage.value.code == 2 and "Invalid corpus name 'bad name!'" in capsys.readouterr().err


