"""Import a corpus from JSONL (one article per line), validating every field before storing."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.registry import check_name
from explore.errors import CorpusFormatError

REQUIRED_TEXT = ("id", "title", "text")
OPTIONAL_TEXT = ("description", "url")
KNOWN_FIELDS = set(REQUIRED_TEXT) | set(OPTIONAL_TEXT) | {"links", "aspects"}


@dataclass(frozen=True)
class ImportReport:
    articles: int
    dropped_links: int


def _fail(path: Path, line: int, field: str | None, message: str):
    where = f"{path}, line {line}" + (f", field {field!r}" if field else "")
    raise CorpusFormatError(f"{where}: {message}")


def _parse_line(path: Path, number: int, raw: str) -> dict:
    try:
        record = json.loads(raw)
    except json.JSONDecodeError as exc:
        _fail(path, number, None, f"not valid JSON ({exc.msg} at column {exc.colno})")
    if not isinstance(record, dict):
        _fail(path, number, None, f"expected a JSON object, got {type(record).__name__}")
    unknown = sorted(set(record) - KNOWN_FIELDS)
    if unknown:
        _fail(path, number, unknown[0], f"unknown field; allowed: {', '.join(sorted(KNOWN_FIELDS))}")
    for field in REQUIRED_TEXT:
        value = record.get(field)
        if not isinstance(value, str) or not value.strip():
            _fail(path, number, field, "required, must be a non-empty string")
    for field in OPTIONAL_TEXT:
        if record.get(field) is not None and not isinstance(record[field], str):
            _fail(path, number, field, "must be a string")
    links = record.get("links") or []
    if not isinstance(links, list) or not all(isinstance(x, str) for x in links):
        _fail(path, number, "links", "must be a list of article ids (strings)")
    aspects = record.get("aspects") or {}
    if not isinstance(aspects, dict):
        _fail(path, number, "aspects", "must be an object mapping aspect name to a list of labels")
    for name, labels in aspects.items():
        if not name.strip():
            _fail(path, number, "aspects", "aspect names must be non-empty")
        if isinstance(labels, str):
            labels = [labels]
        if not isinstance(labels, list) or not all(isinstance(x, str) and x.strip() for x in labels):
            _fail(path, number, f"aspects.{name}", "must be a list of non-empty strings")
        aspects[name] = labels
    return record


def import_jsonl(path: Path, name: str) -> tuple[Corpus, ImportReport]:
    """Parse and validate the whole file; raise on the first bad line, store nothing."""
    path = Path(path)
    check_name(name)
    try:
        handle = path.open("rb")  # decoded per line, so a bad byte is reported on its own line
    except OSError as exc:
        raise CorpusFormatError(f"{path}: cannot be read ({exc.strerror})") from exc
    records: list[tuple[int, dict]] = []
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
            article_id = record["id"].strip()
            if article_id in seen:
                _fail(path, number, "id", f"duplicate id {article_id!r} (first on line {seen[article_id]})")
            seen[article_id] = number
            records.append((number, record))
    if not records:
        raise CorpusFormatError(f"{path}: no articles (the file is empty)")

    dropped = 0
    articles = []
    for _, record in records:
        article_id = record["id"].strip()
        links = [link for link in dict.fromkeys(record.get("links") or []) if link in seen and link != article_id]
        dropped += len(record.get("links") or []) - len(links)
        aspects = {
            aspect.strip(): tuple(dict.fromkeys(label.strip() for label in labels))
            for aspect, labels in (record.get("aspects") or {}).items()
            if labels
        }
        articles.append(
            Article(
                id=article_id,
                title=record["title"].strip(),
                text=record["text"].strip(),
                description=(record.get("description") or "").strip(),
                url=(record.get("url") or "").strip(),
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
