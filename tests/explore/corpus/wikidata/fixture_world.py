"""A tiny Wikidata + Wikipedia: the RDF the SPARQL server loads and the pages the MediaWiki
fixture serves, written to files by the tests. Both sides describe the same world."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
SCHEMA = "http://schema.org/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT_LABEL = "http://www.w3.org/2004/02/skos/core#altLabel"

BUSINESS, COMPANY, ENTERPRISE, PUBLIC_COMPANY = "Q4830453", "Q783794", "Q6881511", "Q891723"


@dataclass
class Item:
    qid: str
    label: str = ""
    description: str = ""
    claims: dict[str, list[str]] = field(default_factory=dict)  # PID -> QIDs
    enwiki: str = ""  # sitelink title on English Wikipedia
    dewiki: str = ""
    label_de: str = ""
    aliases: tuple[str, ...] = ()  # English "also known as"
    aliases_de: tuple[str, ...] = ()


ITEMS = [
    Item(BUSINESS, "business", label_de="Unternehmen"),
    Item(COMPANY, "company", claims={"P279": [BUSINESS]}),
    Item(ENTERPRISE, "enterprise", claims={"P279": [BUSINESS]}),
    Item(PUBLIC_COMPANY, "public company", claims={"P279": [COMPANY]}),
    Item("Q5", "human"), Item("Q515", "city"),
    Item("Q30", "United States", label_de="Vereinigte Staaten"),
    Item("Q183", "Germany", label_de="Deutschland"),
    Item("Q17", "Japan"),
    Item("Q999001", label_de="Nur-Deutsch-Land"),  # no English label: falls back to the QID
    Item("Q11661", "information technology"),
    Item("Q190117", "automotive industry"),
    # the class (via subclasses at one or two levels, or directly)
    Item("Q95", "Google", "American technology company", {"P31": [PUBLIC_COMPANY], "P17": ["Q30"], "P452": ["Q11661"]},
         enwiki="Google", dewiki="Google", aliases=("Google LLC", "Google Inc."), aliases_de=("Google-Konzern",)),
    Item("Q312", "Apple Inc.", "American technology company", {"P31": [COMPANY], "P17": ["Q30"], "P452": ["Q11661"]},
         enwiki="Apple Inc."),
    Item("Q9584", "Honda", "Japanese manufacturer", {"P31": [PUBLIC_COMPANY], "P17": ["Q17"], "P452": ["Q190117"]},
         enwiki="Honda"),
    Item("Q26678", "BMW", "German automaker", {"P31": [COMPANY], "P17": ["Q183"], "P452": ["Q190117"]},
         enwiki="BMW", aliases=("Bayerische Motoren Werke", "BMW")),  # its own title: not an alias
    Item("Q40993", "Porsche", "", {"P31": [BUSINESS], "P17": ["Q183", "Q999001"]}, enwiki="Porsche"),
    Item("Q53268", "Toyota", "Japanese automaker", {"P31": [COMPANY], "P17": ["Q17"], "P452": ["Q190117"]},
         enwiki="Toyota"),  # a sitelink that Wikipedia redirects
    Item("Q1000001", "Ghost Corp", "", {"P31": [COMPANY], "P17": ["Q30"]}, enwiki="Ghost Corp"),  # no such page
    Item("Q1000002", "Nowiki GmbH", "", {"P31": [COMPANY], "P17": ["Q183"]}, dewiki="Nowiki GmbH"),
    Item("Q1000003", "Rival Motors", "", {"P31": [ENTERPRISE], "P17": ["Q30"]}, enwiki="Rival Motors"),
    # not in the class: noise
    Item("Q42", "Douglas Adams", "English writer", {"P31": ["Q5"]}, enwiki="Douglas Adams"),
    Item("Q64", "Berlin", "capital of Germany", {"P31": ["Q515"], "P17": ["Q183"]}, enwiki="Berlin"),
    Item("Q90", "Paris", "capital of France", {"P31": ["Q515"]}, enwiki="Paris"),
    Item("Q1490", "Tokyo", "capital of Japan", {"P31": ["Q515"], "P17": ["Q17"]}, enwiki="Tokyo",
         aliases=("Tokyo Metropolis", "Edo")),
    Item("Q1726", "Munich", "city in Germany", {"P31": ["Q515"]}, enwiki="Munich"),
]


@dataclass
class Page:
    qid: str
    extract: str
    links: list[str] = field(default_factory=list)


PAGES = {
    "Google": Page("Q95", "Google LLC is an American technology company.",
                   ["Apple Inc.", "Berlin", "Google", "Honda", "Toyota", "United States", "Apple Inc."]),
    "Apple Inc.": Page("Q312", "Apple Inc. is an American technology company.",
                       ["Google", "Rival Motors", "Douglas Adams"]),
    "Honda": Page("Q9584", "Honda is a Japanese manufacturer.", ["Toyota Motor Corporation", "Japan"]),
    "BMW": Page("Q26678", "BMW is a German automaker.", ["Porsche", "Munich", "Berlin"]),
    "Porsche": Page("Q40993", "Porsche is a German sports car maker.", ["BMW"]),
    "Toyota Motor Corporation": Page("Q53268", "Toyota is a Japanese automaker.", ["Honda", "Tokyo"]),
    "Rival Motors": Page("Q1000003", "Rival Motors makes cars.", ["Google"]),
    "Douglas Adams": Page("Q42", "Douglas Adams was an English writer.", ["Apple Inc."]),
    "Berlin": Page("Q64", "Berlin is the capital of Germany.", ["Munich", "Paris", "BMW"]),
    "Paris": Page("Q90", "Paris is the capital of France.", ["Berlin"]),
    "Orphan page": Page("", "A page without a Wikidata item.", []),
    "Tokyo": Page("Q1490", "Tokyo is the capital of Japan.", ["Toyota", "Honda"]),
    "Munich": Page("Q1726", "Munich is a city in Bavaria.", ["BMW"]),
}
REDIRECTS = {"Toyota": "Toyota Motor Corporation"}
RANDOM_SEQUENCE = ["Douglas Adams", "Rival Motors", "Berlin", "Apple Inc.", "Paris", "Orphan page", "Tokyo", "Munich"]

# What the `companies` recipe with limit 7 and noise 4 must yield (Q1000003 is past the limit,
# Q1000001's page is missing; Rival Motors is drawn at random but is in the class, Apple is taken,
# the orphan page has no item).
EXPECTED_IDS = ["Q95", "Q312", "Q9584", "Q26678", "Q40993", "Q53268", "Q42", "Q64", "Q90", "Q1490"]
EXPECTED_LINKS = {
    "Q95": ("Q312", "Q64", "Q9584", "Q53268"), "Q312": ("Q95", "Q42"), "Q9584": ("Q53268",),
    "Q26678": ("Q40993", "Q64"), "Q40993": ("Q26678",), "Q53268": ("Q9584", "Q1490"),
    "Q42": ("Q312",), "Q64": ("Q90", "Q26678"), "Q90": ("Q64",), "Q1490": ("Q53268", "Q9584"),
}
EXPECTED_ALIASES = {"Q95": ("Google Inc.", "Google LLC"), "Q26678": ("Bayerische Motoren Werke",),
                    "Q1490": ("Edo", "Tokyo Metropolis")}
EXPECTED_ASPECTS = {
    "Q95": {"country": ("United States",), "industry": ("information technology",)},
    "Q312": {"country": ("United States",), "industry": ("information technology",)},
    "Q9584": {"country": ("Japan",), "industry": ("automotive industry",)},
    "Q26678": {"country": ("Germany",), "industry": ("automotive industry",)},
    "Q40993": {"country": ("Germany", "Q999001")},
    "Q53268": {"country": ("Japan",), "industry": ("automotive industry",)},
}


def _literal(text: str, language: str) -> str:
    return json.dumps(text, ensure_ascii=False) + f"@{language}"


def n_triples() -> str:
    lines = []
    for item in ITEMS:
        subject = f"<{WD}{item.qid}>"
        for text, language in ((item.label, "en"), (item.label_de, "de")):
            if text:
                lines.append(f"{subject} <{RDFS_LABEL}> {_literal(text, language)} .")
        for aliases, language in ((item.aliases, "en"), (item.aliases_de, "de")):
            lines.extend(f"{subject} <{SKOS_ALT_LABEL}> {_literal(alias, language)} ." for alias in aliases)
        if item.description:
            lines.append(f"{subject} <{SCHEMA}description> {_literal(item.description, 'en')} .")
            lines.append(f"{subject} <{SCHEMA}description> {_literal('Beschreibung', 'de')} .")
        for pid, values in item.claims.items():
            lines.extend(f"{subject} <{WDT}{pid}> <{WD}{value}> ." for value in values)
        for language, title in (("en", item.enwiki), ("de", item.dewiki)):
            if title:
                article = f"<https://{language}.wikipedia.org/wiki/{title.replace(' ', '_')}>"
                lines.append(f"{article} <{SCHEMA}about> {subject} .")
                lines.append(f"{article} <{SCHEMA}isPartOf> <https://{language}.wikipedia.org/> .")
                lines.append(f"{article} <{SCHEMA}name> {_literal(title, language)} .")
    return "\n".join(lines) + "\n"


def write_world(directory: Path) -> tuple[Path, Path]:
    """Write the RDF (N-Triples) and the wiki pages (JSON); return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    rdf = directory / "wikidata.nt"
    rdf.write_text(n_triples(), encoding="utf-8")
    wiki = directory / "wiki_pages.json"
    wiki.write_text(json.dumps({
        "pages": {title: {"qid": p.qid, "extract": p.extract, "links": p.links} for title, p in PAGES.items()},
        "redirects": REDIRECTS,
        "random": RANDOM_SEQUENCE,
    }, indent=1, ensure_ascii=False), encoding="utf-8")
    return rdf, wiki
