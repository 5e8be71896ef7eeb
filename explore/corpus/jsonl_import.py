"""Import a corpus from JSONL (one article per line), validating every field before storing."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, ValidationError

from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.registry import check_name
from explore.errors import CorpusFormatError
from explore.schema import Refusal, refusals

_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
# A single label may be written as a string: {"country": "Italy"}.
_Labels = Annotated[list[_Text], BeforeValidator(lambda value: [value] if isinstance(value, str) else value)]


class ArticleLine(BaseModel):
    """One JSONL line. Strict: a title of 5 or a link list of "b" is refused, not turned into text."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: _Text = Field(description="a non-empty string")
    title: _Text = Field(description="a non-empty string")
    text: _Text = Field(description="a non-empty string")
    description: str | None = Field(None, description="a string")
    url: str | None = Field(None, description="a string")
    links: list[str] | None = Field(None, description="a list of article ids (strings)")
    aspects: dict[_Text, _Labels] | None = Field(
        None, description="an object mapping each non-empty aspect name to a list of non-empty strings (its labels)")


@dataclass(frozen=True)
class ImportReport:
    articles: int
    dropped_links: int


def _fail(path: Path, line: int, field: str | None, message: str):
    where = f"{path}, line {line}" + (f", field {field!r}" if field else "")
    raise CorpusFormatError(f"{where}: {message}")


def _parse_line(path: Path, number: int, raw: str) -> ArticleLine:
    try:
        record = json.loads(raw)
    except json.JSONDecodeError as exc:
        _fail(path, number, None, f"not valid JSON ({exc.msg} at column {exc.colno})")
    try:
        return ArticleLine.model_validate(record)
    except ValidationError as error:
        found = refusals(error, ArticleLine)
    if not found[0].field:
        _fail(path, number, None, f"expected a JSON object, got {type(record).__name__}")
    raise CorpusFormatError(f"{path}, line {number}, " + "; ".join(map(_problem, found)))


def _problem(refusal: Refusal) -> str:
    """field 'title': required, must be a non-empty string (and the like)."""
    if refusal.unknown:
        return f"field {refusal.field!r}: unknown field; allowed: {refusal.expected}"
    if refusal.key is not None:
        return f"field {refusal.field!r}: bad name {refusal.key!r}; must be {refusal.expected}"
    blank = refusal.missing or (isinstance(refusal.got, str) and not refusal.got.strip())
    return f"field {refusal.field!r}: {'required, ' if blank else ''}must be {refusal.expected}"


def import_jsonl(path: Path, name: str) -> tuple[Corpus, ImportReport]:
    """Parse and validate the whole file; raise on the first bad line, store nothing."""
    path = Path(path)
    check_name(name)
    try:
        handle = path.open("rb")  # decoded per line, so a bad byte is reported on its own line
    except OSError as exc:
        raise CorpusFormatError(f"{path}: cannot be read ({exc.strerror})") from exc
    records: list[ArticleLine] = []
    seen: dict[str, int] = {}
    with handle:
        for number, raw_bytes in enumerate(handle, start=1):
            try:
                raw = raw_bytes.decode("utf-8")
            except UnicodeDecodeError as exc:
                _fail(path, number, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})")
            if not raw.strip():
                continue
            record = _parse_line(path, number, raw)
            if record.id in seen:
                _fail(path, number, "id", f"duplicate id {record.id!r} (first on line {seen[record.id]})")
            seen[record.id] = number
            records.append(record)
    if not records:
        raise CorpusFormatError(f"{path}: no articles (the file is empty)")

    dropped = 0
    articles = []
    for record in records:
        given = record.links or []
        links = [link for link in dict.fromkeys(given) if link in seen and link != record.id]
        dropped += len(given) - len(links)
        aspects = {aspect: tuple(dict.fromkeys(labels)) for aspect, labels in (record.aspects or {}).items() if labels}
        articles.append(
            Article(
                id=record.id,
                title=record.title,
                text=record.text,
                description=(record.description or "").strip(),
                url=(record.url or "").strip(),
                links=tuple(links),
                aspects=aspects,
            )
        )
    has_links = any(a.links for a in articles)
    provenance = Provenance(
        source=f"JSONL import of {path.name}",
        date=date.today().isoformat(),
        links="hyperlinks" if has_links else "none",
        details={"file": str(path.resolve())},
    )
    return Corpus(name=name, articles=articles, provenance=provenance), ImportReport(len(articles), dropped)
