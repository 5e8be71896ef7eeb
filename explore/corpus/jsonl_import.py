"""Import a corpus from JSONL (one article per line), validating every field before storing."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator

from explore.corpus.model import Article, Corpus, Provenance, is_web_address
from explore.corpus.text_labels import with_text_labels
from explore.errors import CorpusFormatError
from explore.names import NAME_PATTERN, NAME_RULE, check_name
from explore.schema import field_problem, refusals
from explore.user_files import parse_user_json, user_lines

# One article per line; a longer line is refused before it is read whole (a 1.7 GB line once took 1.7 GB of memory).
# Full Wikipedia articles stay well under it; AspectNav reads leads.
MAX_LINE_BYTES = 1 << 20

_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
_AspectName = Annotated[str, StringConstraints(strip_whitespace=True, pattern=NAME_PATTERN)]


class ArticleLine(BaseModel):
    """One JSONL line. Strict: a title of 5 or a link list of "b" is refused, not turned into text."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: _Text = Field(description="a non-empty string")
    title: _Text = Field(description="a non-empty string")
    text: _Text = Field(description="a non-empty string")
    description: str | None = Field(None, description="a string")
    url: str | None = Field(None, description="a string")
    links: list[str] | None = Field(None, description="a list of article ids (strings)")
    aliases: list[_Text] | None = Field(None, description="a list of non-empty strings (other names of the article)")
    aspects: dict[_AspectName, list[_Text]] | None = Field(
        None, description=f"an object mapping each aspect name ({NAME_RULE}) to a list of non-empty strings (its labels)")

    @field_validator("url")
    @classmethod
    def _web_address(cls, url):
        """Checked here, not only when the Article is made, so the refusal names the file, line and field."""
        if url and url.strip() and not is_web_address(url.strip()):
            raise ValueError(f"an http(s) web address with a host (https://...) or left out, not {url.strip()[:200]!r}")
        return url

    @field_validator("aspects", mode="before")
    @classmethod
    def _names_distinct(cls, aspects):
        """Names are trimmed, so " c " and "c" would merge and one list of labels would be lost."""
        if isinstance(aspects, dict):
            seen: dict[str, str] = {}
            for name in aspects:
                folded = str(name).strip().casefold()
                if folded in seen:
                    raise ValueError(f"aspect names that differ by more than case or surrounding spaces "
                                     f"({seen[folded]!r} and {name!r} clash)")
                seen[folded] = name
        return aspects


@dataclass(frozen=True)
class ImportReport:
    """What the import left out, and why: links to ids not in the file, and self-links (by line)."""

    articles: int
    unknown_links: int
    self_link_lines: tuple[int, ...] = ()

    def notes(self) -> list[str]:
        notes = []
        if self.unknown_links == 1:
            notes.append("Dropped 1 link to an id not in the corpus.")
        elif self.unknown_links:
            notes.append(f"Dropped {self.unknown_links} links to ids not in the corpus.")
        lines = self.self_link_lines
        if lines:
            shown = ", ".join(map(str, lines[:10])) + (f" and {len(lines) - 10} more" if len(lines) > 10 else "")
            plural = "s" if len(lines) > 1 else ""
            notes.append(f"Dropped {len(lines)} self-link{plural} (an article linking to itself) "
                         f"on line{plural} {shown}.")
        return notes


def _fail(path: Path, line: int, field: str | None, message: str):
    where = f"{path}, line {line}" + (f", field {field!r}" if field else "")
    raise CorpusFormatError(f"{where}: {message}")


def parse_json_line(path: Path, number: int, raw: str | bytes) -> object:
    """One line's JSON value, checked as every user file is (explore/user_files.py): not UTF-8, not JSON, nested too
    deep or a key given twice -> CorpusFormatError naming the file and line."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            _fail(path, number, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    return parse_user_json(raw, path, CorpusFormatError, line=number)


def validate_article(path: Path, number: int, record: object) -> ArticleLine:
    """One article's fields checked; a refusal names the file, line and every field at fault (every importer's words)."""
    try:
        return ArticleLine.model_validate(record)
    except ValidationError as error:
        found = refusals(error, ArticleLine)
    if not found[0].field:
        _fail(path, number, None, f"expected a JSON object, got {type(record).__name__}")
    raise CorpusFormatError(f"{path}, line {number}, " + "; ".join(map(field_problem, found)))


def _parse_line(path: Path, number: int, raw: str) -> ArticleLine:
    return validate_article(path, number, parse_json_line(path, number, raw))


def import_jsonl(path: Path, name: str) -> tuple[Corpus, ImportReport]:
    """Parse and validate the whole file; raise on the first bad line, store nothing."""
    path = Path(path)
    check_name(name, "corpus")
    records: list[tuple[int, ArticleLine]] = []
    seen: dict[str, int] = {}
    aspect_names: dict[str, tuple[str, int]] = {}  # casefolded -> first spelling and its line
    for number, raw in user_lines(path, CorpusFormatError, MAX_LINE_BYTES, what="article"):  # a bad byte: its own line
        if not raw.strip():
            continue
        record = _parse_line(path, number, raw)
        if record.id in seen:
            _fail(path, number, "id", f"duplicate id {record.id!r} (first on line {seen[record.id]})")
        seen[record.id] = number
        for aspect in record.aspects or {}:
            first, line = aspect_names.setdefault(aspect.casefold(), (aspect, number))
            if first != aspect:
                _fail(path, number, "aspects",
                      f"aspect {aspect!r} differs only by case from {first!r} (line {line})")
        records.append((number, record))
    if not records:
        raise CorpusFormatError(f"{path}: no articles (the file is empty)")

    unknown = 0
    self_link_lines = []
    articles = []
    for number, record in records:
        given = record.links or []
        links = [link for link in dict.fromkeys(given) if link in seen and link != record.id]
        unknown += sum(1 for link in given if link not in seen)
        if record.id in given:
            self_link_lines.append(number)
        aspects = {aspect: tuple(dict.fromkeys(labels)) for aspect, labels in (record.aspects or {}).items() if labels}
        articles.append(with_text_labels(  # the file's own labels first; its texts fill the aspects it leaves out
            Article(
                id=record.id,
                title=record.title,
                text=record.text,
                description=(record.description or "").strip(),
                url=(record.url or "").strip(),
                links=tuple(links),
                aspects=aspects,
                aliases=tuple(dict.fromkeys(record.aliases or ())),
            )
        ))
    has_links = any(a.links for a in articles)
    provenance = Provenance(
        source=f"JSONL import of {path.name}",
        date=date.today().isoformat(),
        links="hyperlinks" if has_links else "none",
        details={"file": str(path.resolve())},
    )
    report = ImportReport(len(articles), unknown, tuple(self_link_lines))
    return Corpus(name=name, articles=articles, provenance=provenance), report
