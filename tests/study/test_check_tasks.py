"""Attention items and gold tasks: what passing means, and how a decoy is judged unrelated."""
from __future__ import annotations

from study.check_tasks import Check, CheckKind, decoy_suggestions, shared_labels
from study.synthetic import tiny_corpus


def test_attention_passes_only_when_the_instructed_article_is_first():
    check = Check(CheckKind.ATTENTION, "a05")
    assert check.passed(("a05", "a01"))
    assert not check.passed(("a01", "a05"))
    assert not check.passed(())


def test_gold_fails_only_when_the_decoy_is_first():
    check = Check(CheckKind.GOLD, "a05")
    assert check.passed(("a01", "a05"))
    assert not check.passed(("a05", "a01"))


def test_a_check_round_trips_and_names_its_source():
    check = Check(CheckKind.GOLD, "a05")
    assert Check.from_dict(check.to_dict()) == check
    assert check.source_label == "check:gold"
    assert "decoy 'Mount Fuji'" in check.describe("Mount Fuji")


def test_shared_labels_and_decoy_suggestions():
    corpus = tiny_corpus()
    # a00: France, painter; a03: France, physicist; a04: Japan, physicist
    assert shared_labels(corpus, "a00", "a03") == {"country": ["France"]}
    assert shared_labels(corpus, "a00", "a04") == {}
    remoteness = {a.id: int(a.id[1:]) / 40 for a in corpus}
    suggested = decoy_suggestions(corpus, "a00", remoteness)
    assert len(suggested) == 3
    assert all(not shared_labels(corpus, "a00", a) for a in suggested)
    assert suggested == sorted(suggested, key=lambda a: -remoteness[a])
