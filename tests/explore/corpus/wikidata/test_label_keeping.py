"""Issue #54 item 2: `corpus label` keeps the recipe aspects' labels it has nothing to replace them with (an article
with no Wikidata id, an item the dump or endpoint holds nothing about, an item without the property), says per aspect
how many it kept, replaced and added, and never writes over a built-in corpus without --output. Both ways of reading
the values share the code: the dump and a real SPARQL server (oxigraph) loaded with the same entities."""
from __future__ import annotations

import pytest

from explore.cli import main
from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.registry import corpus_path, open_corpus, store_corpus
from explore.corpus.stored_layout import CARD_FILE
from explore.corpus.wikidata.http_etiquette import DEFAULT_USER_AGENT
from tests.wikidata_dump_fixture import Entity, Statement, query_service_triples, write_wikidata_dump

from .local_servers import OxigraphServer

ENTITIES = [
    Entity("Q1", {"en": "Paris"}, {"P17": (Statement("Q142"),)}, "Paris"),  # had "Oldland": replaced
    Entity("Q2", {"en": "Nowhere"}, {}, "Nowhere"),  # in the source, without the property: its label kept
    Entity("Q4", {"en": "Lyon"}, {"P17": (Statement("Q142"),)}, "Lyon"),  # had none: added
    Entity("Q142", {"en": "France"}, {}, "France"),
]


def _corpus() -> Corpus:
    articles = [
        Article("Q1", "Paris", "Paris.", "", "", (), {"country": ("Oldland",), "topic": ("Geography",)}),
        Article("Q2", "Nowhere", "Nowhere.", "", "", (), {"country": ("Spain",)}),
        Article("Q3", "Rome", "Rome.", "", "", (), {"country": ("Italy",)}),  # an item the source has not
        Article("Q4", "Lyon", "Lyon.", "", "", (), {}),
        Article("painter", "A painter", "A painter.", "", "", (), {"occupation": ("painter",)}),  # no Wikidata id
    ]
    return Corpus("mini", articles, Provenance("test", "2026"))


@pytest.fixture(scope="module")
def wikidata_dump(tmp_path_factory):
    return write_wikidata_dump(tmp_path_factory.mktemp("wikidata") / "latest-all.json.gz", ENTITIES)


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory):
    rdf = tmp_path_factory.mktemp("wikidata-rdf") / "entities.nt"
    rdf.write_text(query_service_triples(ENTITIES), encoding="utf-8")
    server = OxigraphServer(rdf)
    yield server.query_url
    server.stop()


def _check_kept(out: str) -> None:
    labelled = open_corpus("mini")
    assert labelled["Q1"].labels("country") == ("France",)  # replaced
    assert labelled["Q2"].labels("country") == ("Spain",) and labelled["Q3"].labels("country") == ("Italy",)
    assert labelled["Q4"].labels("country") == ("France",)  # added
    assert labelled["painter"].labels("occupation") == ("painter",)  # no Wikidata id: left as it was
    assert labelled["Q1"].labels("topic") == ("Geography",)  # not a recipe aspect
    assert "country: kept on 2 articles, replaced on 1, added to 1" in out
    assert "occupation: kept on 1 article, replaced on 0, added to 0" in out


def test_labelling_from_a_dump_keeps_what_it_does_not_replace(wikidata_dump, capsys):
    store_corpus(_corpus())
    assert main(["corpus", "label", "mini", "--recipe", "wikipedia", "--wikidata-dump", str(wikidata_dump),
                 "--no-progress"]) == 0
    _check_kept(capsys.readouterr().out)


def test_labelling_from_an_endpoint_keeps_what_it_does_not_replace(endpoint, capsys):
    store_corpus(_corpus())
    assert main(["corpus", "label", "mini", "--recipe", "wikipedia", "--endpoint", endpoint, "--user-agent",
                 DEFAULT_USER_AGENT, "--no-progress"]) == 0
    _check_kept(capsys.readouterr().out)


def test_a_built_in_corpus_is_never_labelled_in_place(wikidata_dump, capsys):
    assert main(["corpus", "label", "vital", "--recipe", "wikipedia", "--wikidata-dump", str(wikidata_dump),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "'vital' is built in" in err and "Pass --output NAME" in err
    assert not (corpus_path("vital") / CARD_FILE).exists()  # refused before anything was opened or written
