"""The public label tables in ../shared/data/labels/ (Pantheon 1.0, the vital lists' filing and people), read as
typed rows.

They are read at build time only (scripts/derive_vital_table_labels.py); what is derived from them ships in
assets/aspects/. A table whose header or a row's column count is not what the format says stops the read with
the file and line named: a shifted column would give every later row a wrong label. A value a row may
legitimately lack or blur ("Unknown", "1237?", "530s") is read as what it says or as missing, never guessed.
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from explore.errors import AspectNavError

PANTHEON_FILE = "pantheon_1.0.tsv"
LEVEL3_FILE = "vital_level3_sections.tsv"
LEVEL4_PEOPLE_FILE = "vital_level4_people_wikidata.tsv"
LEVEL5_PEOPLE_FILE = "vital_level5_people_wikidata.tsv"

PANTHEON_COLUMNS = ("en_curid", "name", "numlangs", "birthcity", "birthstate", "countryName", "countryCode",
                    "countryCode3", "LAT", "LON", "continentName", "birthyear", "gender", "occupation", "industry",
                    "domain", "TotalPageViews", "L_star", "StdDevPageViews", "PageViewsEnglish",
                    "PageViewsNonEnglish", "AverageViews", "HPI")
LEVEL3_COLUMNS = ("title", "section", "subsection", "level")
PEOPLE_COLUMNS = ("title", "wikidata_id", "birth_year", "sex_or_gender")
UNKNOWN_COUNTRY = "UNK"  # Pantheon's code for a birthplace it could not place in a present-day country
WIKIDATA_ID = re.compile(r"Q[1-9]\d*")
# "1809", "-384"; "530s" is a decade (its first year); "1237?" is uncertain, read as unknown.
BIRTH_YEAR = re.compile(r"(-?\d{1,4})(s?)")


class LabelTableError(AspectNavError):
    """A shared label table that is not in the format it says: named with its file and line."""

    def __init__(self, path: Path, line: int, problem: str) -> None:
        super().__init__(f"{path}, line {line}: {problem}. Nothing was derived from it; restore the file "
                         f"(see ../shared/data/labels/PROVENANCE.md).")


@dataclass(frozen=True)
class PantheonPerson:
    """One Pantheon 1.0 row: `birth_country_code` is the ISO alpha-2 of the birthplace in today's borders."""

    page_id: int
    name: str
    birth_country_code: str
    birth_year: int | None
    occupation: str


@dataclass(frozen=True)
class Level3Filing:
    """Where the older Level-3 list files an article: its section and finer subsection."""

    title: str
    section: str
    subsection: str
    level: int


@dataclass(frozen=True)
class VitalPerson:
    """A person of the Level-4 or Level-5 list with their Wikidata item and birth year."""

    title: str
    wikidata_id: str
    birth_year: int | None


def _rows(path: Path, columns: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) of a TSV whose header must be `columns`; a row of another width is an error."""
    if not path.is_file():
        raise AspectNavError(f"{path} is missing: the shared label tables live in ../shared/data/labels/ "
                             f"beside the checkout (see PROVENANCE.md there).")
    lines = []
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):  # a few MB: read whole, decoded per line
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise LabelTableError(path, number, f"not UTF-8 text ({exc.reason})") from None
    rows = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(rows, None)
    if header is None or tuple(header) != columns:
        raise LabelTableError(path, 1, f"the header is {header!r}, not the columns {list(columns)!r}")
    for number, row in enumerate(rows, start=2):
        if not row:
            continue
        if len(row) != len(columns):
            raise LabelTableError(path, number, f"{len(row)} columns where the header has {len(columns)}")
        yield number, dict(zip(columns, row))


def _birth_year(value: str) -> int | None:
    match = BIRTH_YEAR.fullmatch(value.strip())
    return int(match.group(1)) if match and int(match.group(1)) != 0 else None


def read_pantheon(directory: Path) -> list[PantheonPerson]:
    path = directory / PANTHEON_FILE
    people = []
    for line, row in _rows(path, PANTHEON_COLUMNS):
        if not row["en_curid"].isdigit():
            raise LabelTableError(path, line, f"en_curid {row['en_curid']!r} is not a page id")
        code = row["countryCode"].strip()
        code = "" if code == UNKNOWN_COUNTRY else code
        if code and not re.fullmatch(r"[A-Z]{2}", code):
            raise LabelTableError(path, line, f"countryCode {code!r} is not an ISO alpha-2 code")
        people.append(PantheonPerson(page_id=int(row["en_curid"]), name=row["name"].strip(),
                                     birth_country_code=code, birth_year=_birth_year(row["birthyear"]),
                                     occupation=row["occupation"].strip()))
    return people


def read_level3(directory: Path) -> list[Level3Filing]:
    path = directory / LEVEL3_FILE
    filings = []
    for line, row in _rows(path, LEVEL3_COLUMNS):
        if row["level"] not in ("1", "2", "3"):
            raise LabelTableError(path, line, f"level {row['level']!r} is not 1, 2 or 3")
        if not row["title"].strip() or not row["subsection"].strip():
            raise LabelTableError(path, line, "a row without its title or subsection")
        filings.append(Level3Filing(title=row["title"].strip(), section=row["section"].strip(),
                                    subsection=row["subsection"].strip(), level=int(row["level"])))
    return filings


def read_vital_people(directory: Path, file_name: str) -> list[VitalPerson]:
    path = directory / file_name
    people = []
    for line, row in _rows(path, PEOPLE_COLUMNS):
        if not WIKIDATA_ID.fullmatch(row["wikidata_id"]):
            raise LabelTableError(path, line, f"wikidata_id {row['wikidata_id']!r} is not an item id (Q…)")
        year = row["birth_year"].strip()
        if year and not re.fullmatch(r"-?\d{1,4}", year):
            raise LabelTableError(path, line, f"birth_year {year!r} is not a year")
        people.append(VitalPerson(title=row["title"].strip(), wikidata_id=row["wikidata_id"],
                                  birth_year=int(year) if year and int(year) != 0 else None))
    return people
