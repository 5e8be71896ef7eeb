"""`corpus label`: a dump import labelled from a real SPARQL server (oxigraph) holding its items' properties,
in batches, politely, from the cache on a rerun; then trained on like any labelled corpus."""
from __future__ import annotations

import math
import urllib.parse

import pytest

from explore.cli import main
from explore.corpus.dump_import import import_dump
from explore.corpus.registry import open_corpus, store_corpus
from explore.corpus.wikidata.corpus_labels import LabelSettings, label_corpus
from explore.corpus.wikidata.http_etiquette import FetchError
from explore.corpus.wikidata.recipes import load_recipe
from tests.cirrus_dump_fixture import write_dump

from .conftest import TEST_AGENT
from .dump_world import NO_ENGLISH_LABEL, dump_world
from .local_servers import Fault, OxigraphServer, start_sparql_proxy
from tests.explore.corpus.wikidata.recipe_labels import recipe_aspect_names, recipe_labels

ARTICLES = 200
BATCH = 40


@pytest.fixture(scope="module")
def dump(vital_corpus, tmp_path_factory):
    return write_dump(tmp_path_factory.mktemp("dump") / "enwiki-20240501-cirrussearch-content.json.gz",
                      vital_corpus.articles[:ARTICLES])


@pytest.fixture(scope="module")
def world(dump):
    return dump_world(dump)


@pytest.fixture(scope="module")
def _sparql(world, tmp_path_factory):
    server = OxigraphServer(world.write(tmp_path_factory.mktemp("dump-world") / "items.nt"))
    proxy = start_sparql_proxy(server.query_url)
    yield proxy
    proxy.stop()
    server.stop()


@pytest.fixture
def sparql(_sparql):
    _sparql.reset()
    yield _sparql
    _sparql.reset()


@pytest.fixture
def endpoint(sparql):
    return sparql.url + "/sparql"


@pytest.fixture
def imported(dump):
    corpus, _ = import_dump(dump.path, "enwiki")
    store_corpus(corpus)
    return corpus


def kept_or_given(imported, world) -> dict:
    """The recipe's labels labelling leaves: the endpoint's values where it has some, else the article's own (issue
    #54 item 2: labels with nothing to replace them are kept, here those the import read off a lead)."""
    return {a.id: labels for a in imported if (labels := {**recipe_labels(a), **world.expected.get(a.id, {})})}


def label(endpoint, *extra):
    return main(["corpus", "label", "enwiki", "--recipe", "wikipedia", "--endpoint", endpoint, "--batch-size",
                 str(BATCH), "--user-agent", TEST_AGENT, "--no-progress", *extra])


def asked_items(sparql) -> list[list[str]]:
    """The item ids of each VALUES query the server answered."""
    batches = []
    for key in sparql.served:
        query = dict(urllib.parse.parse_qsl(key))["query"]
        values = query.split("VALUES ?item {", 1)[1].split("}", 1)[0]
        batches.append([term.removeprefix("wd:") for term in values.split()])
    return batches


def test_the_fixture_graph_is_small_and_covers_the_dump(world, dump):
    assert 300 <= world.triple_count <= 800
    assert len(world.expected) > 40 and world.unknown
    assert {aspect for labels in world.expected.values() for aspect in labels} == {"country", "occupation", "kind"}


def test_a_dump_import_is_labelled_from_the_endpoint(imported, dump, world, endpoint, sparql, capsys):
    assert label(endpoint) == 0
    out = capsys.readouterr().out
    labelled = open_corpus("enwiki")
    with_qid = [article for article in labelled if article.id.startswith("Q")]
    assert len(with_qid) == len(dump.qids) and len(labelled) - len(with_qid) > 0  # some pages have no item
    assert {a.id: recipe_labels(a) for a in labelled if recipe_labels(a)} == kept_or_given(imported, world)
    assert labelled[dump.qids[dump.articles[3].id]].aspects["country"] == ("China", NO_ENGLISH_LABEL)
    # labels are not content: the spaces of the imported corpus stay valid
    assert labelled.content_hash == imported.content_hash and [a.id for a in labelled] == [a.id for a in imported]
    details = labelled.provenance.details
    assert details["aspects_recipe"] == "wikipedia" and details["aspects_endpoint"] == endpoint
    assert details["file"] == imported.provenance.details["file"]  # the import's provenance is kept

    counts = {aspect: sum(1 for labels in kept_or_given(imported, world).values() if aspect in labels)
              for aspect in ("country", "occupation", "kind")}
    own = {a.id: recipe_labels(a).get("country") for a in imported}
    given = {qid: labels.get("country") for qid, labels in world.expected.items()}
    kept, replaced = sum(bool(own[i] and not given.get(i)) for i in own), sum(bool(own[i] and given.get(i)) for i in own)
    added = sum(bool(given.get(i) and not own[i]) for i in own)
    assert kept and f"  country: kept on {kept} articles, replaced on {replaced}, added to {added}" in out
    assert f"without one (left as they were): {len(labelled) - len(with_qid)}" in out
    assert f"unknown to the endpoint: {len(world.unknown)} ({', '.join(world.unknown[:5])}, ...)" in out
    assert f"labelled:                {len(world.expected)}" in out
    assert f"with each aspect:        country {counts['country']} (" in out
    assert f"occupation {counts['occupation']} (" in out and f"kind {counts['kind']} (" in out
    assert "Stored " in out and "as 'enwiki'" in out

    batches = asked_items(sparql)
    value_queries = math.ceil(len(with_qid) / BATCH)
    assert all(len(batch) <= BATCH for batch in batches) and len(batches) <= 2 * value_queries
    assert sorted({qid for batch in batches for qid in batch}) == sorted(a.id for a in with_qid)
    assert set(sparql.agents) == {TEST_AGENT}


def test_a_rerun_is_served_from_the_cache(imported, endpoint, sparql, capsys):
    assert label(endpoint) == 0
    served = sum(sparql.served.values())
    first = {a.id: dict(a.aspects) for a in open_corpus("enwiki")}
    assert label(endpoint) == 0
    assert sum(sparql.served.values()) == served
    assert "Requests: 0 fetched" in capsys.readouterr().out
    assert {a.id: dict(a.aspects) for a in open_corpus("enwiki")} == first


def test_a_failed_run_stores_nothing_and_the_rerun_asks_only_what_is_missing(imported, endpoint, sparql, etiquette,
                                                                               world):
    recipe = load_recipe("wikipedia")
    settings = LabelSettings(endpoint=endpoint, etiquette=etiquette, items_per_query=BATCH, progress=False)
    sparql.faults.extend([None, None, Fault(status=400, body=b"bad query")])  # the third query is refused
    with pytest.raises(FetchError, match="refused the query"):
        label_corpus(imported, recipe, settings)
    assert not recipe_aspect_names(open_corpus("enwiki"))
    before = sum(sparql.served.values())
    assert before == 2
    labelled, summary = label_corpus(imported, recipe, settings)
    assert summary.from_cache == 2 and summary.fetched == sum(sparql.served.values()) - before
    assert {a.id: recipe_labels(a) for a in labelled if recipe_labels(a)} == kept_or_given(imported, world)


def test_a_busy_endpoint_is_waited_for(imported, endpoint, sparql, etiquette, waits, world):
    sparql.faults.extend([Fault(status=503, headers={"Retry-After": "3"}), Fault(status=429)])
    settings = LabelSettings(endpoint=endpoint, etiquette=etiquette, items_per_query=BATCH, progress=False)
    labelled, _ = label_corpus(imported, load_recipe("wikipedia"), settings)
    assert waits == [3.0, 60.0]
    assert {a.id: recipe_labels(a) for a in labelled if recipe_labels(a)} == kept_or_given(imported, world)


def test_earlier_labels_of_the_recipe_aspects_are_replaced_where_a_value_is_found_others_kept(imported, endpoint,
                                                                                             etiquette, world):
    from dataclasses import replace

    given = next(a for a in imported if "country" in world.expected.get(a.id, {}))
    silent = next(a for a in imported if a.id.startswith("Q") and "country" not in world.expected.get(a.id, {}))
    marks = {given.id: {"country": ("Atlantis",), "topic": ("Maths",)}, silent.id: {"country": ("Lemuria",)}}
    marked = replace(imported, articles=[replace(a, aspects=marks.get(a.id, a.aspects)) for a in imported])
    settings = LabelSettings(endpoint=endpoint, etiquette=etiquette, items_per_query=BATCH, progress=False)
    labelled, summary = label_corpus(marked, load_recipe("wikipedia"), settings)
    assert labelled[given.id].aspects == {"topic": ("Maths",), **world.expected[given.id]}  # replaced
    assert labelled[silent.id].aspects == {"country": ("Lemuria",), **world.expected.get(silent.id, {})}  # kept
    assert "country" in summary.replaced_aspects


def test_output_stores_a_new_corpus_and_leaves_the_import_as_it_was(imported, endpoint, capsys):
    assert label(endpoint, "--output", "enwiki-labelled") == 0
    assert recipe_aspect_names(open_corpus("enwiki-labelled")) and not recipe_aspect_names(open_corpus("enwiki"))
    assert label(endpoint, "--output", "enwiki-labelled") == 2
    assert "A corpus named 'enwiki-labelled' exists; pass --force" in capsys.readouterr().err
    assert label(endpoint, "--output", "enwiki-labelled", "--force") == 0


def test_user_errors_are_messages(imported, endpoint, sparql, tmp_path, capsys):
    assert main(["corpus", "label", "nowhere", "--recipe", "wikipedia", "--endpoint", endpoint]) == 2
    assert "No corpus named 'nowhere'" in capsys.readouterr().err
    assert label(endpoint, "--recipe", "planets") == 2
    assert "No recipe 'planets'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"aspects": {"P27": "country of citizenship"}}')
    assert label(endpoint, "--recipe", str(bad)) == 2
    assert f"{bad}: field 'aspects.P27' must be" in capsys.readouterr().err
    sparql.faults.append(Fault(status=400, body=b"bad query"))
    assert label(endpoint) == 2
    err = capsys.readouterr().err
    assert f"SPARQL endpoint {endpoint} refused the query" in err and "rerun the same command to resume" in err
    assert not recipe_aspect_names(open_corpus("enwiki"))
    with pytest.raises(SystemExit):
        label(endpoint, "--batch-size", "0")
    assert "must be at least 1" in capsys.readouterr().err


def test_a_label_only_recipe_cannot_build(capsys):
    assert main(["corpus", "build", "wikidata", "--recipe", "wikipedia"]) == 2
    assert "'wikipedia' has no \"class\", so it cannot build a corpus" in capsys.readouterr().err


@pytest.mark.slow  # encodes the corpus with MiniLM and trains a head
def test_import_label_then_train_a_country_space(dump, endpoint, capsys):
    from explore.spaces import spaces_for
    from training.cli import main as training_main

    assert main(["corpus", "import-dump", str(dump.path), "--name", "enwiki"]) == 0
    assert label(endpoint) == 0
    assert training_main(["train", "--corpus", "enwiki", "--aspects", "country", "--drop-labels-below", "2",
                           "--epochs", "2", "--quiet"]) == 0
    assert "space country:" in capsys.readouterr().out
    space = spaces_for(open_corpus("enwiki")).open("country")
    assert space.aspects == ("country",)
