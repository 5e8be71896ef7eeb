"""Labels of the vital corpus derived from the public tables in ../shared/data/labels/ (see label_tables.py).

What each table gives, and to whom:
- Pantheon 1.0 (famous people): `birthplace` (the present-day country of the birthplace), `occupation` and
  `century` (floruit: birth + 40). The build (vital.py) takes the birthplace for every person matched, and the
  others only where the person's own text names none; for a person whose description and lead name no state,
  the birthplace's country stands in as their `country` (Mozart: Austria); where the text names one it stays
  (Hitler: Germany; his birthplace aspect says Austria).
- The Level-4 and Level-5 people lists: `century` from the Wikidata birth year where the text gives none.
- The older Level-3 list: `field`, its finer filing ("Post-classical history", "Abrahamic religions").
Matching is by normalised title (the corpus has no page ids); what does not match is counted, not guessed.
The result is written to assets/aspects/vital_table_labels.json with the credits the tables ask for.
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from explore.corpus.label_tables import (
    LEVEL4_PEOPLE_FILE,
    LEVEL5_PEOPLE_FILE,
    PantheonPerson,
    read_level3,
    read_pantheon,
    read_vital_people,
)
from explore.corpus.vital_aspects import TABLES_DIR, FLORUIT_AFTER_BIRTH, century_label, country_label, lexicon

TABLE_LABELS_FILE = "vital_table_labels.json"
PANTHEON = "Pantheon 1.0"
LEVEL3 = "Vital articles, Level 3 (older edition)"
VITAL_PEOPLE = "Vital articles, Levels 4 and 5 (people)"
CREDITS = {
    PANTHEON: "Yu, Ronen, Hu, Lu, Hidalgo (2016), \"Pantheon 1.0, a manually verified dataset of globally "
                    "famous biographies\", Scientific Data 3:150075; Harvard Dataverse doi:10.7910/DVN/28201",
    LEVEL3: "Wikipedia, \"Wikipedia:Vital articles\", CC BY-SA 4.0",
    VITAL_PEOPLE: "Wikipedia's lists (CC BY-SA 4.0); birth years from Wikidata (CC0)",
}
# Pantheon's occupations in the corpus's vocabulary (assets/aspects/occupations.json); the rest give none.
PANTHEON_OCCUPATIONS = {
    "POLITICIAN": "politician", "ACTOR": "actor", "SOCCER": "footballer", "WRITER": "writer",
    "RELIGIOUS": "religious leader", "SINGER": "singer", "MUSICIAN": "musician", "PHILOSOPHER": "philosopher",
    "PHYSICIST": "physicist", "COMPOSER": "composer", "MILITARY": "military officer", "CHEMIST": "chemist",
    "PAINTER": "painter", "FILM": "filmmaker", "TENNIS": "tennis player", "MATHEMATICIAN": "mathematician",
    "PHYSICIAN": "physician", "BIOLOGIST": "biologist", "SOCIAL": "activist", "ECONOMIST": "economist",
    "ARTIST": "artist", "ASTRONOMER": "astronomer", "BUSINESSPERSON": "businessperson", "ATHLETE": "athlete",
    "ARCHITECT": "architect", "BASKETBALL": "basketball player", "EXPLORER": "explorer", "INVENTOR": "inventor",
    "HISTORIAN": "historian", "WRESTLER": "wrestler", "ENGINEER": "engineer", "PSYCHOLOGIST": "psychologist",
    "DIPLOMAT": "politician", "ASTRONAUT": "explorer", "CHESSMASTER": "chess player", "SCULPTOR": "sculptor",
    "LINGUIST": "linguist", "PRESENTER": "television presenter", "JOURNALIST": "journalist", "BOXER": "boxer",
    "DESIGNER": "designer", "SOCIOLOGIST": "sociologist", "GEOGRAPHER": "geographer", "PRODUCER": "producer",
    "PHOTOGRAPHER": "photographer", "DANCER": "dancer", "CONDUCTOR": "conductor", "ANTHROPOLOGIST": "anthropologist",
    "GEOLOGIST": "earth scientist", "CRITIC": "critic", "BASEBALL": "baseball player", "COMEDIAN": "comedian",
    "HOCKEY": "ice hockey player", "GOLFER": "golfer", "CRICKETER": "cricketer", "MARTIAL": "martial artist",
}


def title_key(title: str) -> str:
    """A title as tables and the corpus both write it: no accents, case or punctuation. A disambiguator stays:
    "Mercury (planet)" is not the Mercury a table of people lists."""
    folded = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z0-9]+", folded.lower()))


@dataclass
class TableLabels:
    """Per article id, per aspect: the labels a table gives and the table's name; what did not match, counted."""

    labels: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    unmatched: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)

    def add(self, article_id: str, aspect: str, labels: list[str], table: str) -> None:
        if labels and aspect not in self.labels.get(article_id, {}):
            self.labels.setdefault(article_id, {})[aspect] = labels
            self.sources.setdefault(article_id, {})[aspect] = table

    def as_json(self) -> dict:
        return {
            "_why": "Labels of the vital corpus derived from public tables (explore/corpus/table_labels.py); "
                    "regenerate with: python scripts/derive_vital_table_labels.py",
            "credits": CREDITS,
            "articles": {a: {aspect: {"labels": labels, "table": self.sources[a][aspect]}
                             for aspect, labels in sorted(aspects.items())}
                         for a, aspects in sorted(self.labels.items())},
            "unmatched": dict(sorted(self.unmatched.items())),
            "skipped": dict(sorted(self.skipped.items())),
        }


def credits_line() -> str:
    """The credit of every table some labels come from, in one line for a reader (the Corpus page)."""
    return "; ".join(f"{table}: {credit}" for table, credit in CREDITS.items())


def floruit_century(birth_year: int) -> str:
    """The century a person is labelled by from a birth year alone (the description rule: birth + 40)."""
    return century_label(birth_year + FLORUIT_AFTER_BIRTH)


def _pantheon_country(person: PantheonPerson) -> list[str]:
    if not person.birth_country_code:
        return []
    try:
        return [country_label(person.birth_country_code)]
    except (AttributeError, KeyError, LookupError):
        return []


def derive_table_labels(articles: list[tuple[str, str]], tables_dir: Path) -> TableLabels:
    """Match the tables' rows to `articles` ((id, title) pairs) by title and derive their labels: every label a
    table gives, whatever the article's text says (the build decides which fill a gap: see vital.py)."""
    by_key: dict[str, list[str]] = {}
    for article_id, title in articles:
        by_key.setdefault(title_key(title), []).append(article_id)
    derived = TableLabels()
    known_countries = lexicon().country_labels

    def match(title: str, table: str) -> str | None:
        found = by_key.get(title_key(title), [])
        if len(found) != 1:
            derived.unmatched[table] += 1
            return None
        return found[0]

    for person in read_pantheon(tables_dir):
        article = match(person.name, PANTHEON)
        if article is None:
            continue
        birthplace = _pantheon_country(person)
        if birthplace and birthplace[0] in known_countries:
            derived.add(article, "birthplace", birthplace, PANTHEON)
        else:
            derived.skipped[f"{PANTHEON}: no present-day birthplace country"] += 1
        occupation = PANTHEON_OCCUPATIONS.get(person.occupation)
        if occupation is None:
            derived.skipped[f"{PANTHEON}: occupation {person.occupation} has no counterpart"] += 1
        else:
            derived.add(article, "occupation", [occupation], PANTHEON)
        if person.birth_year is not None:
            derived.add(article, "century", [floruit_century(person.birth_year)], PANTHEON)
    for file_name in (LEVEL4_PEOPLE_FILE, LEVEL5_PEOPLE_FILE):
        for person in read_vital_people(tables_dir, file_name):
            found = by_key.get(title_key(person.title), [])
            if len(found) == 1 and person.birth_year is not None:  # most of Level 5's people are not in vital
                derived.add(found[0], "century", [floruit_century(person.birth_year)], VITAL_PEOPLE)
    for filing in read_level3(tables_dir):
        article = match(filing.title, LEVEL3)
        if article is not None:
            derived.add(article, "field", [field_label(filing.section, filing.subsection)], LEVEL3)
    return derived


def field_label(section: str, subsection: str) -> str:
    """A Level-3 subsection as a reader reads it: its last part ("Specific religions > Abrahamic religions" →
    "Abrahamic religions"), a "General" one with its section's name ("Science (general)")."""
    last = subsection.split(">")[-1].strip()
    return f"{section} (general)" if last == "General" else last


def shipped_table_labels() -> dict[str, dict[str, list[str]]]:
    """The derived labels shipped in assets/aspects/ (article id → aspect → labels); {} where none ship."""
    path = TABLES_DIR / TABLE_LABELS_FILE
    if not path.exists():
        return {}
    articles = json.loads(path.read_text(encoding="utf-8"))["articles"]
    return {a: {aspect: list(entry["labels"]) for aspect, entry in aspects.items()} for a, aspects in articles.items()}
