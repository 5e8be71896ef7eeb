"""The SPARQL a recipe needs, written for any SPARQL 1.1 server holding Wikidata-shaped RDF:
labels through rdfs:label (not Wikidata's label SERVICE), sitelinks through schema:about/isPartOf."""
from __future__ import annotations

from dataclasses import dataclass

from explore.corpus.era import century_of_wikidata_time
from explore.corpus.wikidata.recipes import Recipe
from explore.corpus.wikidata.sparql import Row

ENTITY_PREFIX = "http://www.wikidata.org/entity/"

PREFIXES = """PREFIX wd: <http://www.wikidata.org/entity/>
PREFIX wdt: <http://www.wikidata.org/prop/direct/>
PREFIX schema: <http://schema.org/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
"""


@dataclass(frozen=True)
class ClassMember:
    """An item of the recipe's class; `title`/`url` are empty when it has no article in the language."""

    qid: str
    title: str = ""
    url: str = ""
    description: str = ""


@dataclass(frozen=True)
class NoiseCheck:
    qid: str
    in_class: bool
    description: str = ""


def wikipedia_site(language: str) -> str:
    """The schema:isPartOf object of a Wikipedia sitelink."""
    return f"https://{language}.wikipedia.org/"


def _class_pattern(recipe: Recipe) -> str:
    path = "wdt:P31/wdt:P279*" if recipe.subclasses else "wdt:P31"
    return f"?item {path} wd:{recipe.class_qid} ."


def _values(qids: list[str]) -> str:
    return " ".join(f"wd:{qid}" for qid in qids)


def _lang(language: str) -> str:
    return f'"{language}"'


def members_page_query(recipe: Recipe, page_size: int, offset: int) -> str:
    """One page of class items (the inner query pages over items, not rows), each with its
    article and description when it has them."""
    return PREFIXES + f"""SELECT ?item ?article ?title ?description WHERE {{
  {{ SELECT DISTINCT ?item WHERE {{ {_class_pattern(recipe)} }} LIMIT {page_size} OFFSET {offset} }}
  OPTIONAL {{ ?article schema:about ?item ; schema:isPartOf <{wikipedia_site(recipe.language)}> ;
                       schema:name ?title . }}
  OPTIONAL {{ ?item schema:description ?description . FILTER(LANG(?description) = {_lang(recipe.language)}) }}
}}"""


def aspect_values_query(recipe: Recipe, qids: list[str]) -> str:
    """Values of the recipe's properties for a batch of items, with their labels when they have one."""
    branches = " UNION ".join(
        f'{{ ?item wdt:{pid} ?value . BIND("{pid}" AS ?property) }}' for pid in recipe.aspects
    )
    return PREFIXES + f"""SELECT ?item ?property ?value ?valueLabel WHERE {{
  VALUES ?item {{ {_values(qids)} }}
  {branches}
  OPTIONAL {{ ?value rdfs:label ?valueLabel . FILTER(LANG(?valueLabel) = {_lang(recipe.language)}) }}
}}"""


def known_items_query(qids: list[str]) -> str:
    """Which of the items the server holds anything about (an id it does not know has no triple)."""
    return PREFIXES + f"""SELECT ?item WHERE {{
  VALUES ?item {{ {_values(qids)} }}
  FILTER EXISTS {{ ?item ?property ?value }}
}}"""


def aliases_query(recipe: Recipe, qids: list[str]) -> str:
    """The items' aliases in the recipe's language (Wikidata's "also known as", skos:altLabel)."""
    return PREFIXES + f"""SELECT ?item ?alias WHERE {{
  VALUES ?item {{ {_values(qids)} }}
  ?item skos:altLabel ?alias . FILTER(LANG(?alias) = {_lang(recipe.language)})
}}"""


def noise_check_query(recipe: Recipe, qids: list[str]) -> str:
    """For candidate noise items: are they in the class (they must not be), and their description."""
    return PREFIXES + f"""SELECT ?item ?description ?member WHERE {{
  VALUES ?item {{ {_values(qids)} }}
  OPTIONAL {{ ?item schema:description ?description . FILTER(LANG(?description) = {_lang(recipe.language)}) }}
  BIND(EXISTS {{ {_class_pattern(recipe)} }} AS ?member)
}}"""


def qid_of(term: dict | None) -> str:
    value = (term or {}).get("value", "")
    return value[len(ENTITY_PREFIX):] if value.startswith(ENTITY_PREFIX) else value


def _text(row: Row, name: str) -> str:
    return row.get(name, {}).get("value", "")


def parse_members(rows: list[Row]) -> list[ClassMember]:
    """One member per item, in ascending QID order so pages read the same from any server."""
    members: dict[str, ClassMember] = {}
    for row in rows:
        qid = qid_of(row.get("item"))
        if not qid:
            continue
        seen = members.get(qid)
        if seen is None or (not seen.title and _text(row, "title")):
            members[qid] = ClassMember(qid, _text(row, "title"), _text(row, "article"), _text(row, "description"))
    return sorted(members.values(), key=lambda member: _qid_number(member.qid))


def parse_aspect_values(recipe: Recipe, rows: list[Row]) -> dict[str, dict[str, tuple[str, ...]]]:
    """{qid: {aspect: labels}}; a value without a label in the language is named by its QID."""
    collected: dict[str, dict[str, set[str]]] = {}
    for row in rows:
        qid, pid = qid_of(row.get("item")), _text(row, "property")
        if pid not in recipe.aspects or "value" not in row or _unknown_value(row["value"]):
            continue
        label = _century(row["value"]) if _is_time(row["value"]) else _text(row, "valueLabel") or qid_of(row["value"])
        if label:
            collected.setdefault(qid, {}).setdefault(recipe.aspects[pid], set()).add(label)
    return {
        qid: {aspect: tuple(sorted(labels)) for aspect, labels in by_aspect.items()}
        for qid, by_aspect in collected.items()
    }


def _is_time(term: dict) -> bool:
    return term.get("type") in ("literal", "typed-literal") and str(term.get("datatype", "")).endswith("#dateTime")


def _century(term: dict) -> str | None:
    """A date value's century (`wdt:` gives the date, not its precision: a year is taken as it stands)."""
    return century_of_wikidata_time(str(term.get("value", "")))


def _unknown_value(term: dict) -> bool:
    """Wikidata's "unknown value" (somevalue): a blank node, or a .well-known/genid IRI in today's RDF; no label."""
    return term.get("type") == "bnode" or "/.well-known/genid/" in str(term.get("value", ""))


def parse_aliases(rows: list[Row]) -> dict[str, tuple[str, ...]]:
    """{qid: aliases}, each item's sorted so any server's answer order reads the same."""
    collected: dict[str, set[str]] = {}
    for row in rows:
        qid, alias = qid_of(row.get("item")), _text(row, "alias").strip()
        if qid and alias:
            collected.setdefault(qid, set()).add(alias)
    return {qid: tuple(sorted(aliases)) for qid, aliases in collected.items()}


def parse_known_items(rows: list[Row]) -> set[str]:
    return {qid for row in rows if (qid := qid_of(row.get("item")))}


def parse_noise_checks(rows: list[Row]) -> dict[str, NoiseCheck]:
    checks: dict[str, NoiseCheck] = {}
    for row in rows:
        qid = qid_of(row.get("item"))
        member = _text(row, "member").lower() in ("true", "1")
        previous = checks.get(qid)
        checks[qid] = NoiseCheck(qid, member or bool(previous and previous.in_class),
                                 _text(row, "description") or (previous.description if previous else ""))
    return checks


def _qid_number(qid: str) -> tuple[int, str]:
    digits = qid[1:]
    return (int(digits), qid) if digits.isdigit() else (0, qid)
