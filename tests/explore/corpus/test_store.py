import pytest

from explore.corpus.model import Corpus
from explore.corpus.registry import open_corpus, store_corpus
from explore.corpus.store import ARTICLES_FILE, load_corpus, save_corpus
from explore.errors import AspectNavError, UnknownCorpusError
from explore.json_seal import sealed


def test_round_trip_keeps_everything(small_corpus, tmp_path):
    save_corpus(small_corpus, tmp_path / "small")
    loaded = load_corpus(tmp_path / "small")
    assert loaded.articles == small_corpus.articles
    assert loaded.provenance == small_corpus.provenance
    assert loaded.content_hash == small_corpus.content_hash


def test_a_store_written_before_aliases_still_loads(small_corpus, tmp_path):
    import hashlib
    import json

    import pyarrow.parquet as pq

    from explore.corpus.stored_layout import CARD_FILE
    directory = save_corpus(small_corpus, tmp_path / "old")
    table = pq.read_table(directory / ARTICLES_FILE).drop_columns(["aliases"])
    pq.write_table(table, directory / ARTICLES_FILE)
    card = json.loads((directory / CARD_FILE).read_text())
    card["articles_sha256"] = hashlib.sha256((directory / ARTICLES_FILE).read_bytes()).hexdigest()
    (directory / CARD_FILE).write_text(json.dumps(sealed(card)))
    loaded = load_corpus(directory)
    assert small_corpus["curie"].aliases and loaded["curie"].aliases == ()
    assert [a.title for a in loaded] == [a.title for a in small_corpus]


def test_replacing_a_corpus_leaves_no_staging_dirs(small_corpus, tmp_path):
    save_corpus(small_corpus, tmp_path / "small")
    save_corpus(small_corpus, tmp_path / "small")
    assert [p.name for p in tmp_path.iterdir()] == ["small"]


def test_damaged_corpus_gives_a_clear_error(small_corpus, tmp_path):
    save_corpus(small_corpus, tmp_path / "small")
    (tmp_path / "small" / ARTICLES_FILE).write_bytes(b"not parquet")
    with pytest.raises(AspectNavError, match="'small' is damaged"):
        load_corpus(tmp_path / "small")


def test_registry_stores_and_opens_by_name(small_corpus):
    store_corpus(small_corpus)
    assert open_corpus("small").articles == small_corpus.articles
    with pytest.raises(UnknownCorpusError, match="Available: .*small.*vital"):
        open_corpus("nope")
    with pytest.raises(AspectNavError, match="Invalid corpus name"):
        open_corpus("../etc")


def test_inferred_labels_round_trip_apart_from_aspects(small_corpus, tmp_path):
    import dataclasses

    radium = dataclasses.replace(small_corpus["radium"], inferred={"topic": ("Physical sciences",)})
    corpus = Corpus("small", [radium if a.id == "radium" else a for a in small_corpus], small_corpus.provenance)
    loaded = load_corpus(save_corpus(corpus, tmp_path / "small"))
    assert loaded["radium"].inferred == {"topic": ("Physical sciences",)}
    assert loaded["radium"].aspects == {}
    assert loaded["curie"].inferred == {}


def test_a_store_written_before_inferred_labels_still_loads(small_corpus, tmp_path):
    import hashlib
    import json

    import pyarrow.parquet as pq

    directory = save_corpus(small_corpus, tmp_path / "small")
    table = pq.read_table(directory / ARTICLES_FILE).drop_columns(["inferred"])
    pq.write_table(table, directory / ARTICLES_FILE)
    card = json.loads((directory / "corpus.json").read_text())
    card["articles_sha256"] = hashlib.sha256((directory / ARTICLES_FILE).read_bytes()).hexdigest()
    (directory / "corpus.json").write_text(json.dumps(sealed(card)))
    loaded = load_corpus(directory)
    assert loaded["curie"].aspects == small_corpus["curie"].aspects
    assert all(a.inferred == {} for a in loaded)
