"""The shipped build of a built-in corpus: used on a fresh data home only when current and intact."""
import json
import logging
import shutil

import pytest

from explore.corpus import registry
from explore.corpus.registry import corpus_path, open_corpus
from explore.corpus.shipped import BUILDER_FILE, SHIPPED_CORPORA_DIR, BuiltinCorpus, built_by, ship_build, shipped_build
from explore.corpus.store import ARTICLES_FILE, load_corpus
from explore.corpus.vital import vital_fingerprint
from tests.explore.corpus.test_faults_store import flip_text_byte
from tests.fixture_corpora import aspect_corpus


@pytest.fixture
def small_builtin(tmp_path, monkeypatch):
    """A built-in corpus named 'vital' whose shipped build lies in a temporary assets folder; `built`
    counts how often it had to be built instead."""
    corpus = aspect_corpus("vital")
    root = tmp_path / "assets-corpora"
    ship_build(corpus, "fp-1", root)
    monkeypatch.setattr("explore.corpus.shipped.SHIPPED_CORPORA_DIR", root)
    built = []

    def build():
        built.append(1)
        return corpus

    fingerprint = {"value": "fp-1"}
    monkeypatch.setattr(registry, "_builtin_builders",
                        lambda: {"vital": BuiltinCorpus(build, lambda: fingerprint["value"])})
    return corpus, root, built, fingerprint


def test_a_fresh_data_home_copies_the_shipped_build_instead_of_building(small_builtin):
    corpus, _, built, _ = small_builtin
    opened = open_corpus("vital")
    assert built == [] and opened.articles == corpus.articles
    stored = load_corpus(corpus_path("vital"))  # copied in: later opens load it like any stored corpus
    assert stored.articles == corpus.articles
    assert built_by(corpus_path("vital")) == "fp-1"  # the copy says which code built it (an upgrade replaces it)


def test_a_shipped_build_from_other_code_is_ignored_and_the_corpus_built(small_builtin, caplog):
    corpus, _, built, fingerprint = small_builtin
    fingerprint["value"] = "fp-2"
    with caplog.at_level(logging.WARNING, logger="explore.corpus.shipped"):
        assert open_corpus("vital").articles == corpus.articles
    assert built == [1] and "fp-1" in caplog.text and "fp-2" in caplog.text


@pytest.mark.parametrize("damage", ["flipped text", "no builder file", "garbage builder file", "no articles"])
def test_a_damaged_shipped_build_is_logged_and_the_corpus_built(small_builtin, caplog, damage):
    corpus, root, built, _ = small_builtin
    shipped = root / "vital"
    if damage == "flipped text":
        flip_text_byte(shipped / ARTICLES_FILE, corpus)
    elif damage == "no builder file":
        (shipped / BUILDER_FILE).unlink()
    elif damage == "garbage builder file":
        (shipped / BUILDER_FILE).write_text("{not json")
    else:
        (shipped / ARTICLES_FILE).unlink()
    with caplog.at_level(logging.WARNING, logger="explore.corpus.shipped"):
        assert open_corpus("vital").articles == corpus.articles
    assert built == [1] and "building it instead" in caplog.text


def test_no_shipped_build_at_all_builds_quietly(small_builtin, caplog):
    corpus, root, built, _ = small_builtin
    shutil.rmtree(root / "vital")
    with caplog.at_level(logging.WARNING):
        assert open_corpus("vital").articles == corpus.articles
    assert built == [1] and not caplog.records


def test_the_shipped_vital_build_is_current():
    """Fails after a change to how vital is built or labelled until scripts/build_vital_corpus.sh has run."""
    recorded = json.loads((SHIPPED_CORPORA_DIR / "vital" / BUILDER_FILE).read_text())["fingerprint"]
    assert recorded == vital_fingerprint(), "run scripts/build_vital_corpus.sh and commit assets/corpora/vital"
    assert shipped_build("vital", vital_fingerprint()) is not None


@pytest.mark.slow
def test_the_shipped_vital_build_equals_a_fresh_build(vital_corpus):
    shipped = shipped_build("vital", vital_fingerprint())
    assert shipped.articles == vital_corpus.articles and shipped.content_hash == vital_corpus.content_hash
    assert shipped.provenance.links == vital_corpus.provenance.links


def test_a_builtin_corpus_stored_by_older_code_is_replaced_on_open(monkeypatch, isolated_home):
    """An upgrade reaches a reader's data home: the stored copy of a built-in corpus records the fingerprint of
    the code that built it, and a copy from other code is built again (an aspect attached keeps the record)."""
    from explore.corpus import registry
    from explore.corpus.model import Article, Corpus, Provenance
    from explore.corpus.shipped import BuiltinCorpus, built_by

    def version(labels: str) -> Corpus:
        return Corpus("vital", [Article("a", "A", "text", aspects={"topic": (labels,)})],
                      Provenance(source="test", date="2026-01-01"))

    current = {"fingerprint": "v1", "corpus": version("old")}
    monkeypatch.setattr(registry, "_builtin_builders", lambda: {"vital": BuiltinCorpus(
        lambda: current["corpus"], lambda: current["fingerprint"])})
    assert registry.open_corpus("vital")["a"].labels("topic") == ("old",)
    assert built_by(registry.corpus_path("vital")) == "v1"
    attached = version("old")
    attached.articles[0] = Article("a", "A", "text", aspects={"topic": ("old",), "era": ("modern",)})
    registry.store_corpus(attached)  # e.g. `corpus attach-aspect vital`
    assert registry.open_corpus("vital")["a"].labels("era") == ("modern",)  # same code: kept, not rebuilt
    current.update(fingerprint="v2", corpus=version("new"))  # AspectNav upgraded: new labels
    assert registry.open_corpus("vital")["a"].labels("topic") == ("new",)
    assert built_by(registry.corpus_path("vital")) == "v2"
