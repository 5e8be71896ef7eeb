"""What kind, read off a description's head: relational heads read through their complement, no guess."""
from __future__ import annotations

import json

import pytest

from explore.corpus import kinds
from explore.corpus.kinds import kind_of, kind_table
from explore.errors import AspectNavError


@pytest.mark.parametrize("description, kind", [
    ("1968 film by Stanley Kubrick", "film or television"),
    ("Edible berry", "fruit"),
    ("Species of venomous snake", "reptile"),
    ("Family of large seabirds", "bird"),
    ("Genus of trees known as baobab", "tree"),
    ("Branch of mathematics", "academic discipline"),
    ("Unit of area", "unit of measurement"),
    ("Chemical element with atomic number 89 (Ac)", "chemical element"),
    ("Genre of popular music", "music genre"),
    ("Parasitic or predatory annelid worms", "other invertebrate"),
    ("1025 Encyclopedia of medicine compiled by Avicenna", "book or text"),
    ("Indian religion and philosophy", "religion or belief"),
    ("Habitable artificial satellite", "aircraft or spacecraft"),
    ("Zen Buddhist temple in Kyoto, Japan", "religious building"),
    ("1861–1865 conflict in the United States", "war"),
])
def test_heads_give_their_kind(description, kind):
    assert kind_of(description) == [kind]


@pytest.mark.parametrize("description", [
    "Establishment serving alcoholic beverages",  # the head is "establishment", not the beverages
    "State of medically-controlled temporary loss of sensation",  # "state of" is no polity
    "Lowest and supporting layer of a structure",
    "Process of generalization",
    "",
    "   ",
])
def test_unknown_or_relational_heads_give_none(description):
    assert kind_of(description) == []


def test_a_phrase_listed_under_two_kinds_is_an_error_naming_it(tmp_path, monkeypatch):
    (tmp_path / "kinds.json").write_text(json.dumps(
        {"relational": {}, "labels": {"bird": ["parrot"], "mammal": ["parrot"]}}), encoding="utf-8")
    monkeypatch.setattr(kinds, "TABLES_DIR", tmp_path)
    kind_table.cache_clear()
    try:
        with pytest.raises(AspectNavError, match="'parrot' is listed under both 'bird' and 'mammal'"):
            kind_table()
    finally:
        kind_table.cache_clear()


def test_the_vocabulary_groups_tens_not_one():
    """Every kind gathers several heads: a kind of one phrase would label a handful of articles at most."""
    table = kind_table()
    per_kind: dict[str, int] = {}
    for kind in table.phrases.values():
        per_kind[kind] = per_kind.get(kind, 0) + 1
    assert 40 <= len(per_kind) <= 120
    assert min(per_kind.values()) >= 1 and sum(per_kind.values()) / len(per_kind) >= 5
