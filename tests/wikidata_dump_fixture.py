"""Write a Wikidata JSON dump in the real format (`latest-all.json.gz`: a JSON array, "[" on the first line, one
entity per line, each but the last followed by a comma, "]" on the last line; each entity as the dump writes it:
type, id, labels, descriptions, aliases, claims with ranks, snak types, references, sitelinks), and the N-Triples the
Wikidata Query Service holds for the same entities (rdfs:label per label, `wdt:` for the best-rank value statements,
"unknown value" as a .well-known/genid IRI, schema:version per entity), so a test can load one into a SPARQL server
and compare what the two ways of labelling give."""
from __future__ import annotations

import bz2
import gzip
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SCHEMA_VERSION = "http://schema.org/version"
GENID = "http://www.wikidata.org/.well-known/genid/"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"


@dataclass(frozen=True)
class Statement:
    value: str | None = None  # an item id, or the text of a string value
    rank: str = "normal"  # "preferred", "normal", "deprecated"
    snaktype: str = "value"  # or "somevalue" (unknown value), "novalue"
    datatype: str = "wikibase-item"  # or "string", "external-id"


@dataclass(frozen=True)
class Entity:
    id: str
    labels: dict[str, str] = field(default_factory=dict)  # language -> label
    claims: dict[str, tuple[Statement, ...]] = field(default_factory=dict)
    enwiki: str = ""
    padding: int = 0  # bytes of other languages' descriptions, as a much-described item has


def _snak(entity: Entity, pid: str, statement: Statement) -> dict:
    snak = {"snaktype": statement.snaktype, "property": pid,
            "hash": hashlib.sha1(f"{entity.id}{pid}{statement}".encode()).hexdigest()}
    if statement.snaktype == "value":
        if statement.datatype == "wikibase-item":
            value = {"value": {"entity-type": "item", "numeric-id": int(statement.value[1:]), "id": statement.value},
                     "type": "wikibase-entityid"}
        else:
            value = {"value": statement.value, "type": "string"}
        snak["datavalue"] = value
    snak["datatype"] = statement.datatype
    return snak


def entity_document(entity: Entity) -> dict:
    """The entity as the JSON dump writes it."""
    kind = "property" if entity.id.startswith("P") else "item"
    doc: dict = {"type": kind, "id": entity.id}
    if kind == "property":
        doc = {"type": kind, "datatype": "wikibase-item", "id": entity.id}
    doc["labels"] = {language: {"language": language, "value": value} for language, value in entity.labels.items()}
    doc["descriptions"] = {"en": {"language": "en", "value": f"description of {entity.id}"}}
    if entity.padding:
        text = 'A "long" description — ✓ ' * 40
        doc["descriptions"].update({f"x-{index}": {"language": f"x-{index}", "value": text}
                                    for index in range(entity.padding // 1200 + 1)})
    doc["aliases"] = {"en": [{"language": "en", "value": f"{entity.id} alias"}]}
    doc["claims"] = {
        pid: [{"mainsnak": _snak(entity, pid, statement), "type": "statement",
               "id": f"{entity.id}${index:08d}-0000-0000-0000-000000000000", "rank": statement.rank,
               "references": [{"hash": "d5847b9b6032aa8b13dae3c2dfd9ed5d114d21b3", "snaks": {
                   "P143": [{"snaktype": "value", "property": "P143", "datavalue": {
                       "value": {"entity-type": "item", "numeric-id": 328, "id": "Q328"}, "type": "wikibase-entityid"},
                       "datatype": "wikibase-item"}]}, "snaks-order": ["P143"]}]}
              for index, statement in enumerate(statements)]
        for pid, statements in entity.claims.items()}
    if kind == "item":
        doc["sitelinks"] = ({"enwiki": {"site": "enwiki", "title": entity.enwiki, "badges": []}}
                            if entity.enwiki else {})
    doc["lastrevid"] = 2100000000 + int(entity.id[1:]) % 1000
    doc["modified"] = "2024-05-01T12:00:00Z"
    return doc


def write_wikidata_dump(path: Path, entities: list[Entity]) -> Path:
    """`entities` as a dump at `path`, gzip'd or bzip2'd by its suffix (else plain)."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else bz2.open if path.suffix == ".bz2" else open
    with opener(path, "wt", encoding="utf-8") as out:
        out.write("[\n")
        for index, entity in enumerate(entities):
            line = json.dumps(entity_document(entity), ensure_ascii=False, separators=(",", ":"))
            out.write(line + (",\n" if index < len(entities) - 1 else "\n"))
        out.write("]\n")
    return path


def _literal(text: str, language: str | None = None) -> str:
    return json.dumps(text, ensure_ascii=False) + (f"@{language}" if language else "")


def query_service_triples(entities: list[Entity]) -> str:
    """The N-Triples the Wikidata Query Service holds for `entities` that labelling asks about."""
    lines = []
    for entity in entities:
        subject = f"<{WD}{entity.id}>"
        lines.append(f'{subject} <{SCHEMA_VERSION}> "{2100000000 + int(entity.id[1:]) % 1000}"^^<{XSD_INTEGER}> .')
        lines.extend(f"{subject} <{RDFS_LABEL}> {_literal(label, language)} ."
                     for language, label in entity.labels.items())
        for pid, statements in entity.claims.items():
            best = "preferred" if any(s.rank == "preferred" for s in statements) else "normal"
            for index, statement in enumerate(statements):
                if statement.rank != best or statement.snaktype == "novalue":  # no value: a wdno: class, no wdt:
                    continue
                if statement.snaktype == "somevalue":
                    target = f"<{GENID}{hashlib.md5(f'{entity.id}{pid}{index}'.encode()).hexdigest()}>"
                elif statement.datatype == "wikibase-item":
                    target = f"<{WD}{statement.value}>"
                else:
                    target = _literal(statement.value)
                lines.append(f"{subject} <{WDT}{pid}> {target} .")
    return "\n".join(lines) + "\n"
