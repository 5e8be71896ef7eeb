"""Reading a Wikimedia CirrusSearch content dump (`*-cirrussearch-content.json.gz`): Elasticsearch bulk NDJSON,
an action line `{"index": {"_id": PAGE_ID}}` before each page document (title, opening_text, outgoing_link,
redirect [{namespace, title}], wikibase_item, popularity_score, namespace, wiki, ...). One page at a time, so
memory does not grow with the dump; each record is read to a `DumpPage` or to the `DumpSkip` that says why not."""
from __future__ import annotations

import bz2
import gzip
import math
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import BinaryIO
from urllib.parse import quote

from explore.corpus.json_fields import Capped, KeptTooLong, LineProblem, kept_fields
from explore.corpus.jsonl_import import MAX_LINE_BYTES, parse_json_line, validate_article
from explore.errors import CorpusFormatError

ARTICLE_NAMESPACE = 0
_WIKI_LANGUAGE = re.compile(r"([a-z][a-z0-9_-]*)wiki")  # "enwiki" -> en.wikipedia.org; "commonswiki" is no Wikipedia


class SkipReason(Enum):
    """Why a record of a dump is left out. Real dumps carry each of these; none stops an import."""

    BAD_LINE = "not a JSON object line"
    NOT_ARTICLE = "not in the article namespace"
    REDIRECTS_ONLY = "only redirects, no article text"
    NO_LEAD = "no lead (opening_text, or text before the first heading)"
    REDIRECT = "a redirect page"
    EMPTY = "an empty page (no text)"
    INVALID = "a field of the wrong shape"
    DUPLICATE = "a title already imported"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class DumpSkip:
    """A record left out: where (file, line) and why, in the words a JSONL import uses."""

    line: int
    reason: SkipReason
    message: str


@dataclass(frozen=True)
class DumpPage:
    """One article of the dump, fields checked. `links` are titles as the dump gives them (not yet resolved to
    articles); `aliases` are the titles of the redirects to it."""

    line: int
    id: str
    title: str
    lead: str
    url: str
    links: tuple[str, ...]
    aliases: tuple[str, ...]
    popularity: float


def normalize_title(title: str) -> str:
    """A link target as MediaWiki reads it: underscores are spaces, the first letter is upper case
    (outgoing_link holds "Political_philosophy" for the page titled "Political philosophy")."""
    title = " ".join(title.replace("_", " ").split())
    return title[:1].upper() + title[1:]


def article_url(wiki: object, title: str) -> str:
    """The page's address on its Wikipedia ("enwiki" -> https://en.wikipedia.org/wiki/Title); "" if `wiki`
    names no Wikipedia."""
    match = _WIKI_LANGUAGE.fullmatch(wiki) if isinstance(wiki, str) else None
    if not match or match.group(1) in ("commons", "wikidata", "meta", "species"):
        return ""
    language = match.group(1).replace("_", "-")
    return page_address(f"https://{language}.wikipedia.org/wiki/", title)


def page_address(prefix: str, title: str) -> str:
    """The address of page `title` on the wiki whose pages are at `prefix` ("https://en.wikipedia.org/wiki/")."""
    return prefix + quote(title.replace(" ", "_"), safe=":/()")


def open_dump(path: Path) -> tuple[BinaryIO, BinaryIO]:
    """(decompressed stream, raw file): gzip, bz2 or plain by the file's first bytes. The raw file's position
    tells how far through the dump a reader is (for the ETA)."""
    path = Path(path)
    try:
        raw = path.open("rb")
    except OSError as exc:
        raise CorpusFormatError(f"{path}: cannot be read ({exc.strerror})") from exc
    magic = raw.read(3)
    raw.seek(0)
    if magic[:2] == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw, mode="rb"), raw
    if magic == b"BZh":
        return bz2.BZ2File(raw, mode="rb"), raw
    return raw, raw


def damaged_dump(path: Path, raw: BinaryIO | None, line: int, problem: Exception) -> CorpusFormatError:
    """The error for a compressed dump its decompressor cannot finish, placed by byte and line."""
    where = ""
    if raw is not None:
        try:
            where = f" at about byte {raw.tell():,} of {Path(path).stat().st_size:,}"
        except (OSError, ValueError):
            pass
    return CorpusFormatError(f"{path}: the file is truncated or damaged{where} (after line {line:,}: {problem}). "
                             "Download it again, and compare its checksum with the one published beside it.")


def damaged_or_disk(path: Path, raw: BinaryIO | None, line: int, exc: Exception) -> Exception:
    """What to raise for `exc`, raised while reading a compressed dump: a stream the decompressor cannot finish (an
    EOFError, zlib's error, gzip.BadGzipFile, bz2's "Invalid data stream": no errno) is damage, named by
    `damaged_dump`; a real read error of the disk (it has an errno) is left as it is."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return exc
    return damaged_dump(path, raw, line, exc)


# What the import reads of a page (everything else, `text` and `source_text` first, is skipped unread when a record
# is too long to parse whole): `text` only to tell a redirect-only record, so a few bytes of it do.
KEPT_FIELDS = {"title": None, "opening_text": None, "outgoing_link": None, "redirect": None, "wikibase_item": None,
               "popularity_score": None, "namespace": None, "wiki": None, "text": Capped(256)}


def _dump_lines(path: Path, stream: BinaryIO, raw: BinaryIO | None) -> Iterator[tuple[int, bytes | LineProblem]]:
    """(line number, line) per line of the decompressed dump. A line over MAX_LINE_BYTES (a long article: its `text`
    and `source_text` are most of it) is read on to its end keeping only KEPT_FIELDS, which come instead of the line,
    or the LineProblem that says why they cannot be read; so a record of any size costs the memory of its kept
    fields, and it counts as one line (the numbers after it stay exact). Shorter lines are parsed whole: the C parser
    reads a 20 KB record in a fifth of the time the skipping reader does. A stream the decompressor cannot finish
    (cut short, flipped bits) is CorpusFormatError naming about where, never an EOFError or the disk's fault (a real
    read error of the disk has an errno and is left to the caller)."""
    number = 0
    while True:
        try:
            line = stream.readline(MAX_LINE_BYTES + 1)
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                try:
                    line = kept_fields(line, stream, KEPT_FIELDS, MAX_LINE_BYTES)
                except LineProblem as problem:
                    line = problem
        except (EOFError, OSError, zlib.error) as exc:
            raise damaged_or_disk(path, raw, number, exc) from None
        if not line:
            return
        number += 1
        yield number, line


def read_records(path: Path, stream: BinaryIO, start_line: int = 0,
                 raw: BinaryIO | None = None) -> Iterator[DumpPage | DumpSkip | int]:
    """Each document of the dump as a DumpPage or DumpSkip, after the first `start_line` lines (skipped unread:
    a resumed import). Between records it yields the number of lines read so far, a safe place to resume from
    (never between an action line and its document). `raw` (the compressed file) lets damage be placed."""
    page_id: str | None = None
    number = 0
    for number, line in _dump_lines(path, stream, raw):
        if number <= start_line:
            continue
        if isinstance(line, LineProblem):
            mib = MAX_LINE_BYTES >> 20
            reason = (f"the fields this import keeps (title, lead, links, redirects) are longer than {mib} MiB, the "
                      "limit for one article" if isinstance(line, KeptTooLong) else
                      f"a line of over {mib} MiB whose kept fields cannot be read: {line}")
            yield DumpSkip(number, SkipReason.BAD_LINE, f"{path}, line {number}: {reason}")
            page_id = None
            yield number
            continue
        if not line.strip():
            continue
        try:
            record = parse_json_line(path, number, line)
        except CorpusFormatError as exc:
            yield DumpSkip(number, SkipReason.BAD_LINE, str(exc))
            page_id = None
            yield number
            continue
        if isinstance(record, dict) and set(record) == {"index"} and isinstance(record["index"], dict):
            page_id = str(record["index"].get("_id", "")) or None
            continue
        yield _page_or_skip(path, number, record, page_id)
        page_id = None
        yield number
    yield number


def _popularity(value: object) -> float | None:
    """popularity_score as a float (0 when absent or not a number); None for a number no float holds (a 4,000-digit
    integer, NaN, an infinity): that record is skipped, the import goes on."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _page_or_skip(path: Path, number: int, record: object, page_id: str | None) -> DumpPage | DumpSkip:
    where = f"{path}, line {number}"
    if not isinstance(record, dict):
        return DumpSkip(number, SkipReason.BAD_LINE, f"{where}: expected a JSON object, got {type(record).__name__}")
    namespace = record.get("namespace", ARTICLE_NAMESPACE)
    if namespace != ARTICLE_NAMESPACE:
        return DumpSkip(number, SkipReason.NOT_ARTICLE, f"{where}: namespace {namespace!r}, not an article (0)")
    lead = record.get("opening_text")
    if not (isinstance(lead, str) and lead.strip()):
        if record.get("redirect") and not (record.get("text") or "").strip():
            return DumpSkip(number, SkipReason.REDIRECTS_ONLY, f"{where}: only redirects, no article text")
        return DumpSkip(number, SkipReason.NO_LEAD, f"{where}: no opening_text (the lead this corpus keeps)")
    title = record.get("title")
    qid = record.get("wikibase_item")
    fields = {
        "id": qid if isinstance(qid, str) and qid.strip() else (f"page-{page_id}" if page_id else title),
        "title": title,
        "text": lead,
        "links": record.get("outgoing_link") or [],
        "aliases": _redirect_titles(record.get("redirect"), title),
    }
    if isinstance(title, str):
        fields["url"] = article_url(record.get("wiki"), title.strip())
    try:
        checked = validate_article(path, number, fields)
    except CorpusFormatError as exc:
        return DumpSkip(number, SkipReason.INVALID, str(exc))
    popularity = _popularity(record.get("popularity_score"))
    if popularity is None:
        shown = str(record["popularity_score"])
        shown = shown if len(shown) <= 24 else f"a number of {len(shown):,} digits"
        return DumpSkip(number, SkipReason.INVALID, f"{where}, field 'popularity_score': {shown} is not a usable "
                                                    "number (a finite share of page views)")
    return DumpPage(line=number, id=checked.id, title=checked.title, lead=checked.text, url=checked.url or "",
                    links=tuple(checked.links or ()), aliases=tuple(checked.aliases or ()), popularity=popularity)


def _redirect_titles(redirects: object, title: object) -> object:
    """The article-namespace redirect titles, its own title and repeats left out; a redirect field of the wrong
    shape is passed on as it is, so the validation refuses it in its usual words."""
    if not isinstance(redirects, list) or not all(isinstance(r, dict) for r in redirects):
        return redirects
    names = [r.get("title") for r in redirects if r.get("namespace", ARTICLE_NAMESPACE) == ARTICLE_NAMESPACE]
    return [name for name in dict.fromkeys(names) if name != title]
