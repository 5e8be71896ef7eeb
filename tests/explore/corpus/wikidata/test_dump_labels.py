"""`corpus label --wikidata-dump`: a dump import labelled from a Wikidata JSON dump written in the real format gets
the labels the SPARQL path gets from a real server (oxigraph) loaded with the same entities as RDF; a killed run
resumes; a wrong or damaged file is a clear error."""
from __future__ import annotations

import bz2
import gzip
import logging

import pytest

from explore.cli import main
from explore.corpus.dump_import import import_dump
from explore.corpus.registry import open_corpus, store_corpus
from explore.corpus.wikidata.corpus_labels import LabelSettings, label_corpus
from explore.corpus.wikidata.dump_labels import CHECKPOINT_FILE, dump_labels_dir, label_corpus_from_dump
from explore.corpus.wikidata.recipes import load_recipe
from explore.errors import CorpusFormatError
from tests.cirrus_dump_fixture import write_dump
from tests.wikidata_dump_fixture import query_service_triples, write_wikidata_dump

from .dump_world import (ABSENT_VALUE, DEPRECATED_VALUE, NO_ENGLISH_LABEL, PREFERRED_VALUE, dump_entities, is_unknown)
from .local_servers import OxigraphServer
from tests.explore.corpus.wikidata.recipe_labels import recipe_aspect_names, recipe_labels

ARTICLES = 120


@pytest.fixture(scope="module")
def dump(vital_corpus, tmp_path_factory):
    return write_dump(tmp_path_factory.mktemp("cirrus") / "enwiki-20240501-cirrussearch-content.json.gz",
                      vital_corpus.articles[:ARTICLES])


@pytest.fixture(scope="module")
def entities(dump):
    return dump_entities(dump)


@pytest.fixture(scope="module")
def wikidata_dump(entities, tmp_path_factory):
    return write_wikidata_dump(tmp_path_factory.mktemp("wikidata") / "latest-all.json.gz", entities)


@pytest.fixture(scope="module")
def endpoint(entities, tmp_path_factory):
    rdf = tmp_path_factory.mktemp("wikidata-rdf") / "entities.nt"
    rdf.write_text(query_service_triples(entities), encoding="utf-8")
    server = OxigraphServer(rdf)
    yield server.query_url
    server.stop()


@pytest.fixture
def imported(dump):
    corpus, _ = import_dump(dump.path, "enwiki")
    store_corpus(corpus)
    return corpus


def aspects_of(corpus):
    return {article.id: dict(article.aspects) for article in corpus if article.aspects}


def test_the_fixture_is_a_real_format_dump_with_a_long_entity(wikidata_dump):
    with gzip.open(wikidata_dump, "rb") as lines:
        lines = lines.read().split(b"\n")
    assert lines[0] == b"[" and lines[-2] == b"]" and lines[-1] == b""
    assert all(line.endswith(b",") for line in lines[1:-3]) and not lines[-3].endswith(b",")
    assert lines[1].startswith(b'{"type":"property","datatype":"wikibase-item","id":"P31"')
    assert lines[2].startswith(b'{"type":"item","id":"Q')
    assert max(map(len, lines)) > 1 << 20


def test_dump_labels_equal_the_sparql_labels_on_the_same_items(imported, wikidata_dump, endpoint, etiquette, dump):
    recipe = load_recipe("wikipedia")
    settings = LabelSettings(endpoint=endpoint, etiquette=etiquette, items_per_query=40, progress=False)
    by_sparql, sparql_summary = label_corpus(imported, recipe, settings)
    passes = []
    by_dump, summary = label_corpus_from_dump(imported, recipe, wikidata_dump, progress=False, checkpoint_lines=25,
                                              on_checkpoint=lambda c: passes.append((c.phase, c.line)))
    assert aspects_of(by_dump) == aspects_of(by_sparql)
    assert summary.unknown_items == sparql_summary.unknown_items
    assert summary.unknown_items == [dump.qids[a.id] for i, a in enumerate(dump.articles)
                                     if a.id in dump.qids and is_unknown(i)]
    assert (summary.labelled, summary.aspect_articles, summary.aspect_labels) == \
        (sparql_summary.labelled, sparql_summary.aspect_articles, sparql_summary.aspect_labels)
    # what the comparison covers: ranks, unknown values, labels missing or absent, a second pass, a long line
    labels = aspects_of(by_dump)
    every = {label for aspects in labels.values() for values in aspects.values() for label in values}
    assert DEPRECATED_VALUE not in every and PREFERRED_VALUE in every
    assert NO_ENGLISH_LABEL in every and ABSENT_VALUE in every
    preferred = next(aspects for aspects in labels.values() if PREFERRED_VALUE in aspects.get("country", ()))
    assert preferred["country"] == (PREFERRED_VALUE,)
    assert len(labels) > 30
    assert all(summary.aspect_articles[name] for name in ("country", "occupation", "kind", "industry"))
    assert ("labels", 25) in passes  # the values written before the items that need them: a second pass
    assert "Read from the Wikidata dump latest-all.json.gz" in "\n".join(summary.lines())
    assert by_dump.provenance.details["aspects_dump"] == str(wikidata_dump.resolve())
    assert by_dump.content_hash == imported.content_hash  # labels are not content


def test_a_killed_run_resumes_from_its_checkpoint_and_gives_the_same_labels(imported, wikidata_dump):
    recipe = load_recipe("wikipedia")
    whole, _ = label_corpus_from_dump(imported, recipe, wikidata_dump, "whole", progress=False)
    seen = []

    def kill_at_third(checkpoint):
        seen.append((checkpoint.phase, checkpoint.line))
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        label_corpus_from_dump(imported, recipe, wikidata_dump, progress=False, checkpoint_lines=25,
                               on_checkpoint=kill_at_third)
    assert (dump_labels_dir("enwiki") / CHECKPOINT_FILE).exists()
    lines_read = []
    resumed, summary = label_corpus_from_dump(imported, recipe, wikidata_dump, progress=False, checkpoint_lines=25,
                                              on_checkpoint=lambda c: lines_read.append((c.phase, c.line)))
    assert aspects_of(resumed) == aspects_of(whole)
    assert f"resumed at line {seen[-1][1]:,} of the items pass" in summary.read_from
    assert min(line for phase, line in lines_read if phase == "items") > seen[-1][1]  # not read again


def test_a_damaged_checkpoint_is_not_trusted(imported, wikidata_dump, caplog):
    recipe = load_recipe("wikipedia")
    whole, _ = label_corpus_from_dump(imported, recipe, wikidata_dump, "whole", progress=False)
    with pytest.raises(KeyboardInterrupt):
        label_corpus_from_dump(imported, recipe, wikidata_dump, progress=False, checkpoint_lines=25,
                               on_checkpoint=lambda c: (_ for _ in ()).throw(KeyboardInterrupt))
    checkpoint = dump_labels_dir("enwiki") / CHECKPOINT_FILE
    checkpoint.write_text(checkpoint.read_text().replace('"line": 25', '"line": 75'))
    with caplog.at_level(logging.WARNING):
        again, summary = label_corpus_from_dump(imported, recipe, wikidata_dump, progress=False)
    assert "cannot be trusted" in caplog.text and "resumed" not in summary.read_from
    assert aspects_of(again) == aspects_of(whole)


def test_the_cli_labels_from_a_bz2_dump_and_tidies_up(imported, entities, tmp_path, capsys):
    path = write_wikidata_dump(tmp_path / "latest-all.json.bz2", entities)
    assert main(["corpus", "label", "enwiki", "--recipe", "wikipedia", "--wikidata-dump", str(path),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "(the Wikidata dump " in out and "Read from the Wikidata dump latest-all.json.bz2" in out
    assert "Stored " in out and "as 'enwiki'" in out
    assert open_corpus("enwiki").aspect_names and not dump_labels_dir("enwiki").exists()


def test_a_wrong_or_damaged_file_is_a_clear_error(imported, dump, wikidata_dump, tmp_path, capsys):
    recipe = load_recipe("wikipedia")
    with pytest.raises(CorpusFormatError, match="not a Wikidata JSON dump .* `corpus import-dump`"):
        label_corpus_from_dump(imported, recipe, dump.path, progress=False)  # a CirrusSearch dump
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(wikidata_dump.read_bytes()[:-200])
    with pytest.raises(CorpusFormatError, match="truncated or damaged"):
        label_corpus_from_dump(imported, recipe, cut, progress=False)
    flipped = tmp_path / "flipped.json.bz2"
    data = bytearray(bz2.compress(gzip.decompress(wikidata_dump.read_bytes())))
    data[len(data) // 2] ^= 0x55
    flipped.write_bytes(bytes(data))
    with pytest.raises(CorpusFormatError, match="truncated or damaged"):
        label_corpus_from_dump(imported, recipe, flipped, progress=False)
    assert main(["corpus", "label", "enwiki", "--recipe", "wikipedia", "--wikidata-dump", str(tmp_path / "none.gz"),
                 "--no-progress"]) == 2
    assert "cannot be read" in capsys.readouterr().err
    assert main(["corpus", "label", "enwiki", "--recipe", "wikipedia", "--wikidata-dump", str(wikidata_dump),
                 "--endpoint", "http://127.0.0.1:1/sparql"]) == 2
    assert "not both" in capsys.readouterr().err
    assert not recipe_aspect_names(open_corpus("enwiki"))
