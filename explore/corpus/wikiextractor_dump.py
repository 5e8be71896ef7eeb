"""Reading WikiExtractor's output of a Wikipedia dump: its default `<doc id=".." url=".." title="..">` blocks (the
title line, a blank line, then one line per paragraph, a section heading as a short line ending in ".") and its
--json lines (id, revid, url, title, text). Each page becomes a `DumpPage` or the `DumpSkip` that says why not (an
empty page is skipped and counted, never the end of an import); positions are the file's line numbers, after a whole
page. Links are there only when WikiExtractor ran with --links (`<a href="Quoted%20title">words</a>`)."""
from __future__ import annotations

import html
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote

from explore.corpus.cirrus_dump import DumpPage, DumpSkip, SkipReason, damaged_or_disk
from explore.corpus.json_fields import skip_line
from explore.corpus.jsonl_import import MAX_LINE_BYTES, parse_json_line, validate_article
from explore.corpus.model import is_web_address
from explore.errors import CorpusFormatError

DOC_HEADER = re.compile(r'<doc id="([^"]*)"(?: revid="[^"]*")? url="([^"]*)" title="(.*)">')
_DOC_END = "</doc>"
_LINK = re.compile(r'<a href="([^"]*)">(.*?)</a>', re.S)
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_SENTENCE_BREAK = re.compile(r"[.!?]\s")
# WikiExtractor keeps a section heading as its own line with "." added; a line this short, one sentence long, after
# the first paragraph is taken for one (a one-line second paragraph this short ends the lead early: rare, and the
# lead is still the first paragraph).
HEADING_WORDS = 8


def _lines(path: Path, stream: BinaryIO, raw: BinaryIO | None) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, whole) per line: a line over MAX_LINE_BYTES is read on to its end and comes as its first
    MAX_LINE_BYTES (`whole` False), so it costs no more memory and the numbers after it stay the file's."""
    number = 0
    while True:
        try:
            line = stream.readline(MAX_LINE_BYTES + 1)
            whole = len(line) <= MAX_LINE_BYTES or line.endswith(b"\n")
            if not whole:
                skip_line(b"", stream)
        except (EOFError, OSError, zlib.error) as exc:
            raise damaged_or_disk(path, raw, number, exc) from None
        if not line:
            return
        number += 1
        yield number, line.decode("utf-8", errors="replace"), whole


def lead_and_links(body: str) -> tuple[str, tuple[str, ...]]:
    """The lead (the paragraphs before the first heading, as one line) and the link targets of a page's text."""
    body = html.unescape(body)
    links = tuple(dict.fromkeys(unquote(html.unescape(href)).strip() for href, _ in _LINK.findall(body)
                                if href.strip()))
    paragraphs = [" ".join(_TAG.sub("", _LINK.sub(r"\2", line)).split()) for line in body.splitlines()]
    lead: list[str] = []
    for paragraph in filter(None, paragraphs):
        if lead and _is_heading(paragraph):
            break
        lead.append(paragraph)
    return " ".join(lead), links


def _is_heading(line: str) -> bool:
    return line[-1] in ".!?" and len(line.split()) <= HEADING_WORDS and not _SENTENCE_BREAK.search(line[:-1])


def _page_or_skip(path: Path, number: int, page_id: object, title: object, url: object,
                  body: object) -> DumpPage | DumpSkip:
    shown = f" ({title!r})" if isinstance(title, str) and title.strip() else ""
    where = f"{path}, line {number}{shown}"
    if body is not None and not isinstance(body, str):
        return DumpSkip(number, SkipReason.INVALID, f"{where}, field 'text': must be a string, not "
                                                    f"{type(body).__name__}")
    if not (body or "").strip():
        return DumpSkip(number, SkipReason.EMPTY, f"{where}: no text")
    lead, links = lead_and_links(body)
    if not lead:
        return DumpSkip(number, SkipReason.NO_LEAD, f"{where}: no text before its first section heading")
    page_id = str(page_id).strip() if isinstance(page_id, (str, int)) and not isinstance(page_id, bool) else ""
    fields = {"id": f"page-{page_id}" if page_id else title, "title": title, "text": lead, "links": list(links),
              "url": url.strip() if isinstance(url, str) and is_web_address(url.strip()) else None}
    try:
        checked = validate_article(path, number, fields)
    except CorpusFormatError as exc:
        return DumpSkip(number, SkipReason.INVALID, str(exc))
    return DumpPage(line=number, id=checked.id, title=checked.title, lead=checked.text, url=checked.url or "",
                    links=tuple(checked.links or ()), aliases=(), popularity=0.0)


def read_doc_pages(path: Path, stream: BinaryIO, start_line: int = 0,
                   raw: BinaryIO | None = None) -> Iterator[DumpPage | DumpSkip | int]:
    """Each <doc> block as a DumpPage or DumpSkip, after the first `start_line` lines; after each block, the lines
    read so far. Text outside a block, and a block cut off (no </doc>), are skipped and counted."""
    header: re.Match | None = None
    opened, body, number = 0, [], 0
    for number, line, _ in _lines(path, stream, raw):
        if number <= start_line:
            continue
        text = line.strip()
        found = DOC_HEADER.fullmatch(text)
        if header is not None and (found or text == _DOC_END):
            if found:
                yield DumpSkip(opened, SkipReason.BAD_LINE,
                               f"{path}, line {opened}: a <doc> block cut off (no </doc> before line {number})")
            else:
                page_id, url, title = header.groups()
                if body and body[0].strip() == title.strip():  # WikiExtractor repeats the title as the first line
                    body = body[1:]
                yield _page_or_skip(path, opened, page_id, html.unescape(title), url, "".join(body))
                header = None
                yield number
        if found:
            header, opened, body = found, number, []
        elif header is not None and text != _DOC_END:
            body.append(line)
        elif header is None and text and text != _DOC_END:
            yield DumpSkip(number, SkipReason.BAD_LINE, f"{path}, line {number}: text outside a <doc> ... </doc> "
                                                        f"block ({text[:60]!r})")
            yield number
    if header is not None:
        yield DumpSkip(opened, SkipReason.BAD_LINE, f"{path}, line {opened}: a <doc> block cut off (the file ends "
                                                    "before its </doc>)")
    yield number


def read_json_pages(path: Path, stream: BinaryIO, start_line: int = 0,
                    raw: BinaryIO | None = None) -> Iterator[DumpPage | DumpSkip | int]:
    """Each line of WikiExtractor --json output as a DumpPage or DumpSkip (its revid is read past), after the first
    `start_line` lines; after each, the lines read so far."""
    number = 0
    for number, line, whole in _lines(path, stream, raw):
        if number <= start_line or not line.strip():
            continue
        if not whole:
            yield DumpSkip(number, SkipReason.BAD_LINE, f"{path}, line {number}: a page of over "
                                                        f"{MAX_LINE_BYTES >> 20} MiB, the limit for one line")
            yield number
            continue
        try:
            record = parse_json_line(path, number, line)
        except CorpusFormatError as exc:
            yield DumpSkip(number, SkipReason.BAD_LINE, str(exc))
            yield number
            continue
        if not isinstance(record, dict):
            yield DumpSkip(number, SkipReason.BAD_LINE,
                           f"{path}, line {number}: expected a JSON object, got {type(record).__name__}")
        else:
            yield _page_or_skip(path, number, record.get("id"), record.get("title"), record.get("url"),
                                record.get("text"))
        yield number
    yield number
