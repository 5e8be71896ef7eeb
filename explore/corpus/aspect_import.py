"""Attach a new aspect to a stored corpus from a file of `id,label` rows (CSV with a header, or JSONL).

Every row is checked before anything changes: a bad line, an unknown article id or an aspect that already
exists (without `replace`) is refused with the file, line and reason, and the corpus stays as it was.
Labels do not enter `Corpus.content_hash`, so the corpus's spaces stay valid; a columnar corpus stays columnar.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Iterator

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from explore.corpus.model import Article, Corpus
from explore.corpus.relabelled import relabelled
from explore.errors import CorpusFormatError
from explore.names import check_name
from explore.schema import field_problem, refusals
from explore.user_files import parse_user_json, user_lines

_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
SHOWN = 5  # unknown ids named in an error before "and N more"
_OPEN_AT_END = "unexpected end of data"  # what a strict csv reader says of a quote still open when the file ends


class LabelRow(BaseModel):
    """One row: an article id of the corpus and one label of the new aspect (several rows give several labels)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: _Text = Field(description="a non-empty string (an article id of the corpus)")
    label: _Text = Field(description="a non-empty string")


@dataclass(frozen=True)
class AttachedAspect:
    """What attaching did: the new corpus and the counts a user checks."""

    corpus: Corpus
    aspect: str
    articles: int  # articles that got at least one label
    labels: int  # distinct labels
    duplicate_rows: int  # rows repeating an (id, label) already given

    def summary(self) -> str:
        note = f"; {self.duplicate_rows} repeated row(s) counted once" if self.duplicate_rows else ""
        return (f"Aspect {self.aspect!r}: {self.labels} label(s) on {self.articles:,} of {len(self.corpus):,} articles "
                f"of {self.corpus.name!r}{note}.")


def _rows(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, raw record) per data row; CSV needs an `id,label` header, JSONL one object per line.
    Read a line at a time (explore/user_files.py bounds each line and refuses bytes that are not UTF-8 text)."""
    lines = user_lines(path, CorpusFormatError, what="row")
    if path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
        for number, line in lines:
            if line.strip():
                yield number, parse_user_json(line, path, CorpusFormatError, line=number)
        return
    at = [0]  # the line being read: csv's own line_num lags behind on the line a csv.Error is raised on
    since_last: list[int] = []  # non-blank lines read for the record being parsed: where it starts

    def texts() -> Iterator[str]:
        for at[0], text in lines:
            if text.strip("\r\n"):
                since_last.append(at[0])
            yield text

    def open_quote(start: int) -> CorpusFormatError:
        return CorpusFormatError(f"{path}, line {start}: a quote opened here is never closed on that line, so the "
                                 "rows after it would be read as part of one label; close the quote (a label "
                                 "cannot span lines)")

    # strict: a quote still open when the file ends is an error, not a label (the lenient reader keeps it silently)
    reader = csv.DictReader(texts(), strict=True)
    try:
        if reader.fieldnames is None:
            raise CorpusFormatError(f"{path}: no rows (an empty file)")
        header = [name.strip() for name in reader.fieldnames]
        if header[:2] != ["id", "label"] or len(header) != 2:
            raise CorpusFormatError(f"{path}, line 1: the header must be exactly 'id,label', got {','.join(header)!r}")
        since_last.clear()
        for record in reader:
            start = since_last[0] if since_last else reader.line_num
            since_last.clear()
            if reader.line_num > start:  # a quote left open swallows the next rows into one label: refuse
                raise open_quote(start)
            if None in record or None in record.values():
                raise CorpusFormatError(f"{path}, line {reader.line_num}: expected 2 fields (id,label)")
            if any(value.strip() for value in record.values()):
                yield reader.line_num, {key.strip(): value for key, value in record.items()}
    except csv.Error as error:  # a field past csv.field_size_limit(), a quote left open at the end
        start = since_last[0] if since_last else at[0]
        if str(error) == _OPEN_AT_END or start < at[0]:  # the record ran on past its line: a quote left open
            raise open_quote(start) from None
        raise CorpusFormatError(f"{path}, line {at[0]}: not valid CSV ({error})") from None


def read_label_rows(path: Path) -> list[tuple[int, LabelRow]]:
    path = Path(path)
    rows = []
    for number, record in _rows(path):
        if not isinstance(record, dict):
            raise CorpusFormatError(f"{path}, line {number}: expected an object with 'id' and 'label'")
        try:
            rows.append((number, LabelRow.model_validate(record)))
        except ValidationError as error:
            problems = "; ".join(map(field_problem, refusals(error, LabelRow)))
            raise CorpusFormatError(f"{path}, line {number}: {problems}") from None
    if not rows:
        raise CorpusFormatError(f"{path}: no rows (an empty file, or a header alone)")
    return rows


def attach_aspect(corpus: Corpus, aspect: str, path: Path, replace_existing: bool = False) -> AttachedAspect:
    """A copy of `corpus` with `aspect` labelled from `path`; nothing is stored here (the caller stores it)."""
    name = check_name(aspect, "aspect")  # also keeps out , : + =, which separate aspects in commands and queries
    clash = next((a for a in corpus.aspect_names if a.casefold() == name.casefold()), None)
    if clash is not None and not replace_existing:
        raise CorpusFormatError(f"Corpus {corpus.name!r} already has aspect {clash!r}; pass --replace to replace "
                                "its labels.")
    rows = read_label_rows(Path(path))
    unknown = [(number, row.id) for number, row in rows if row.id not in corpus]
    if unknown:
        shown = ", ".join(f"{article_id!r} (line {number})" for number, article_id in unknown[:SHOWN])
        more = f" and {len(unknown) - SHOWN} more" if len(unknown) > SHOWN else ""
        raise CorpusFormatError(f"{path}: {len(unknown)} row(s) name no article of corpus {corpus.name!r}: "
                                f"{shown}{more}. Ids are the corpus's article ids (`aspectnav corpus stats` counts "
                                "them; an import's `id` field).")
    labels: dict[str, dict[str, None]] = {}
    for _, row in rows:
        labels.setdefault(row.id, {})[row.label] = None
    duplicates = len(rows) - sum(len(v) for v in labels.values())

    def change(article: Article) -> Article:
        aspects = {a: v for a, v in article.aspects.items() if a != clash}
        if article.id in labels:
            aspects[name] = tuple(labels[article.id])
        return replace(article, aspects=aspects)

    attached = relabelled(corpus, change)  # a columnar corpus stays columnar
    distinct = len({label for values in labels.values() for label in values})
    return AttachedAspect(attached, name, len(labels), distinct, duplicates)
