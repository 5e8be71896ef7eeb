"""The Wikidata side of a dump fixture (tests/cirrus_dump_fixture.py): N-Triples about the items its pages name,
made from the vital articles' own labels, so a corpus labelled from them is known in advance. People get citizenship
(P27) and occupation (P106), other articles with a country get P17, places their kind (P31); some items are
unknown to the server, one country value has no English label (its QID stands in)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tests.cirrus_dump_fixture import DumpFixture
from tests.wikidata_dump_fixture import Entity, Statement

from .fixture_world import RDFS_LABEL, WD, WDT

NO_ENGLISH_LABEL = "Q4999999"  # a country known only by its German name


def is_unknown(index: int) -> bool:
    """Every 13th page's item is one the server holds nothing about (deleted or merged since the dump)."""
    return index % 13 == 5


@dataclass(frozen=True)
class DumpWorld:
    triples: str
    expected: dict[str, dict[str, tuple[str, ...]]]  # qid -> aspect -> labels, as the `wikipedia` recipe gives them
    unknown: list[str]  # the items the server does not know, in dump order
    values: dict[str, str]  # label -> the value item's QID

    @property
    def triple_count(self) -> int:
        return self.triples.count("\n")

    def write(self, path: Path) -> Path:
        path.write_text(self.triples, encoding="utf-8")
        return path


def dump_world(dump: DumpFixture) -> DumpWorld:
    values: dict[str, str] = {}
    lines: list[str] = []

    def value(label: str) -> str:
        if label not in values:
            values[label] = f"Q{500000 + len(values)}"
            lines.append(f"<{WD}{values[label]}> <{RDFS_LABEL}> {json.dumps(label, ensure_ascii=False)}@en .")
        return values[label]

    expected: dict[str, dict[str, tuple[str, ...]]] = {}
    unknown: list[str] = []
    lines.append(f"<{WD}{NO_ENGLISH_LABEL}> <{RDFS_LABEL}> \"Nirgendland\"@de .")
    for index, article in enumerate(dump.articles):
        qid = dump.qids.get(article.id)
        if qid is None:
            continue
        if is_unknown(index):
            unknown.append(qid)
            continue
        subject = f"<{WD}{qid}>"
        lines.append(f"{subject} <{RDFS_LABEL}> {json.dumps(article.title, ensure_ascii=False)}@en .")
        person = bool(article.aspects.get("occupation"))
        claims: dict[str, tuple[str, ...]] = {
            "P27" if person else "P17": article.aspects.get("country", ()),
            "P106": article.aspects.get("occupation", ()),
            "P31": ("human",) if person else article.aspects.get("place_type", ()),
        }
        labels: dict[str, set[str]] = {}
        for pid, names in claims.items():
            for name in names:
                lines.append(f"{subject} <{WDT}{pid}> <{WD}{value(name)}> .")
                labels.setdefault("occupation" if pid == "P106" else "kind" if pid == "P31" else "country",
                                  set()).add(name)
        if index == 3:  # the one value without an English label
            lines.append(f"{subject} <{WDT}P17> <{WD}{NO_ENGLISH_LABEL}> .")
            labels.setdefault("country", set()).add(NO_ENGLISH_LABEL)
        if labels:
            expected[qid] = {aspect: tuple(sorted(names)) for aspect, names in labels.items()}
    return DumpWorld("\n".join(lines) + "\n", expected, unknown, values)


ABSENT_VALUE = "Q4999998"  # a value item missing from the dump (deleted since): named by its QID
DEPRECATED_VALUE, PREFERRED_VALUE = "Atlantis", "Ruritania"


def dump_entities(dump: DumpFixture) -> list[Entity]:
    """The same kind of world as `dump_world`, as Wikidata JSON dump entities in dump order, with what real entities
    have: deprecated statements (never a label), a preferred one (the only label of its property then), "unknown
    value" and "no value" statements, a value with no English label, a value missing from the dump, a value entity
    written before the items that need it (found by the second pass) and an entity line of over 1 MiB. Items the
    server does not know (`is_unknown`) are not in it."""
    values: dict[str, str] = {}

    def value(label: str) -> str:
        return values.setdefault(label, f"Q{500000 + len(values)}")

    items: list[Entity] = []
    for index, article in enumerate(dump.articles):
        qid = dump.qids.get(article.id)
        if qid is None or is_unknown(index):
            continue
        person = bool(article.aspects.get("occupation"))
        country = "P27" if person else "P17"
        claims = {
            country: [Statement(value(name)) for name in article.aspects.get("country", ())],
            "P106": [Statement(value(name)) for name in article.aspects.get("occupation", ())],
            "P31": [Statement(value(name))
                    for name in (("human",) if person else article.aspects.get("place_type", ()))],
        }
        if index == 3:
            claims[country].append(Statement(NO_ENGLISH_LABEL))
        if index % 10 == 1:
            claims[country].append(Statement(value(DEPRECATED_VALUE), rank="deprecated"))
        if index % 10 == 2 and claims[country]:
            claims[country].append(Statement(value(PREFERRED_VALUE), rank="preferred"))
        if index % 10 == 4:
            claims["P106"].append(Statement(snaktype="somevalue"))
        if index % 10 == 6:
            claims["P136"] = [Statement(snaktype="novalue")]
        if index == 8:
            claims["P452"] = [Statement(ABSENT_VALUE)]
        items.append(Entity(qid, {"en": article.title, "de": article.title},
                            {pid: tuple(s) for pid, s in claims.items() if s},
                            enwiki=article.title, padding=1_300_000 if index == 10 else 0))
    value_entities = [Entity(qid, {"en": label}) for label, qid in values.items()]
    value_entities.append(Entity(NO_ENGLISH_LABEL, {"de": "Nirgendland"}))
    before, after = value_entities[::2], value_entities[1::2]
    return [Entity("P31", {"en": "instance of"}), *before, *items[:len(items) // 2], *after, *items[len(items) // 2:]]
