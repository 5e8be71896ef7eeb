"""Issue #49 items 5 and 6: `corpus label --wikidata-dump` reads a hostile dump without a traceback: an entity nested
100,000 deep is a counted, named problem (the nesting bound every importer keeps), and a claim whose target is not an
item id ("Q142\\u0000<script>") is counted and skipped, never a label."""
from __future__ import annotations

import json

from explore.cli import main
from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.registry import open_corpus, store_corpus


def _item_claim(pid: str, target: str) -> dict:
    return {"mainsnak": {"snaktype": "value", "property": pid, "datatype": "wikibase-item",
                         "datavalue": {"type": "wikibase-entityid",
                                       "value": {"entity-type": "item", "id": target}}},
            "type": "statement", "rank": "normal"}


def _entity(qid: str, label: str = "", claims: dict | None = None) -> str:
    return json.dumps({"type": "item", "id": qid, "labels": {"en": {"language": "en", "value": label}} if label else {},
                       "claims": claims or {}})


def _store_corpus() -> Corpus:
    articles = [Article(qid, title, f"{title} is a place.", "", "", (), {}) for qid, title in
                (("Q1", "Paris"), ("Q2", "Deep"), ("Q3", "Lyon"))]
    corpus = Corpus("mini", articles, Provenance("test", "2026"))
    store_corpus(corpus)
    return corpus


def _dump(tmp_path, *lines: str):
    path = tmp_path / "latest-all.json"
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
    return path


def test_an_entity_nested_100000_deep_is_a_counted_problem_not_a_recursion_error(tmp_path, capsys):
    _store_corpus()
    deep = '{"type":"item","id":"Q2","claims":{"P17":' + "[" * 100_000 + "]" * 100_000 + "}}"
    dump = _dump(tmp_path, _entity("Q1", "Paris", {"P17": [_item_claim("P17", "Q142")]}), deep,
                 _entity("Q142", "France"))
    assert main(["corpus", "label", "mini", "--recipe", "wikipedia", "--wikidata-dump", str(dump),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "1 entity lines unreadable" in out and "line 3: values nested more than 64 deep" in out
    labelled = open_corpus("mini")
    assert labelled["Q1"].labels("country") == ("France",) and labelled["Q2"].labels("country") == ()


def test_a_claim_target_that_is_no_item_id_is_counted_and_skipped(tmp_path, capsys):
    _store_corpus()
    claims = {"P17": [_item_claim("P17", "Q142\u0000<script>"), _item_claim("P17", "Q142")],
              "P31": [_item_claim("P31", "Q515 "), _item_claim("P31", "q515"), _item_claim("P31", "Q0515")]}
    dump = _dump(tmp_path, _entity("Q1", "Paris", claims), _entity("Q3", "Lyon", {"P17": [_item_claim("P17", "Q142")]}),
                 _entity("Q142", "France"))
    assert main(["corpus", "label", "mini", "--recipe", "wikipedia", "--wikidata-dump", str(dump),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "4 claim values that are not item ids skipped" in out and "'Q142\\x00<script>'" in out
    labelled = open_corpus("mini")
    assert labelled["Q1"].labels("country") == ("France",) and labelled["Q1"].labels("kind") == ()
    every = {label for article in labelled for values in article.aspects.values() for label in values}
    assert not any("script" in label or "\x00" in label for label in every)
