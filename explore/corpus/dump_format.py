"""Which dump a file is, told from its first bytes (after gzip or bz2) before hours of reading: a CirrusSearch
content dump, a MediaWiki XML export, WikiExtractor output (<doc> blocks or --json lines) are imported; a JSONL
corpus, a Wikidata dump, another XML file, another compression or anything else is refused with what it is and what
to do with it. Each importable format names the reader that turns it into pages."""
from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import BinaryIO

from explore.corpus.cirrus_dump import DumpPage, DumpSkip, open_dump, read_records
from explore.corpus.mediawiki_xml import EXPORT_ROOT, read_export_pages
from explore.corpus.wikiextractor_dump import DOC_HEADER, read_doc_pages, read_json_pages
from explore.errors import CorpusFormatError

HEAD_BYTES = 1 << 16  # read to tell the format; a CirrusSearch action line or an XML root is far shorter
SHAPE_LINES = 20  # JSON lines looked at
Reader = Callable[[Path, BinaryIO, int, BinaryIO | None], Iterator[DumpPage | DumpSkip | int]]

_XML_PROLOGUE = re.compile(r"\s*(?:<\?.*?\?>\s*|<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*", re.S)
_XML_ROOT = re.compile(r"<([A-Za-z_][\w.:-]*)([^>]*)>?")
_WIKIEXTRACTOR_JSON = re.compile(r'\{"id":\s*"?\d+"?,\s*"revid":')  # its key order: id, revid, url, title, text
_OTHER_COMPRESSION = {b"\xfd7zXZ\x00": ("xz", "xz -d FILE"), b"7z\xbc\xaf\x27\x1c": ("7-Zip", "7z x FILE"),
                      b"\x28\xb5\x2f\xfd": ("zstd", "zstd -d FILE"), b"PK\x03\x04": ("zip", "unzip FILE")}
ACCEPTED = ("a CirrusSearch content dump (*-cirrussearch-content.json.gz), a MediaWiki XML export "
            "(*-pages-articles.xml.bz2), or WikiExtractor output (<doc> files or --json lines)")


class DumpFormat(Enum):
    """A format `corpus import-dump` reads; the value names it in provenance and messages."""

    CIRRUS = "Wikipedia CirrusSearch dump"
    MEDIAWIKI_XML = "MediaWiki XML export"
    WIKIEXTRACTOR_DOC = "WikiExtractor output"
    WIKIEXTRACTOR_JSON = "WikiExtractor --json output"

    def __str__(self) -> str:
        return self.value

    @property
    def reader(self) -> Reader:
        return {DumpFormat.CIRRUS: read_records, DumpFormat.MEDIAWIKI_XML: read_export_pages,
                DumpFormat.WIKIEXTRACTOR_DOC: read_doc_pages, DumpFormat.WIKIEXTRACTOR_JSON: read_json_pages}[self]

    @property
    def ranks_pages(self) -> bool:
        """Only a CirrusSearch dump has a popularity_score for --top to rank pages by."""
        return self is DumpFormat.CIRRUS

    @property
    def positions(self) -> str:
        """What the positions its reader yields count (where an interrupted import went on)."""
        return "page" if self is DumpFormat.MEDIAWIKI_XML else "line"


def dump_format(path: Path) -> DumpFormat:
    """The format of the dump at `path` from its first bytes, or CorpusFormatError saying what it is instead and
    what to do. A file that cannot be decompressed from its start is left to the reader, which names the damage."""
    path = Path(path)
    magic = _raw_head(path)
    for prefix, (name, command) in _OTHER_COMPRESSION.items():
        if magic.startswith(prefix):
            raise CorpusFormatError(f"{path}: compressed with {name}, which the import does not read. Decompress it "
                                    f"first (`{command.replace('FILE', str(path))}`), or recompress it with bzip2 "
                                    "or gzip, and import the result.")
    head = _decompressed_head(path)
    if head is None:
        return DumpFormat.CIRRUS
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    if not text.strip():
        raise CorpusFormatError(f"{path}: empty (no pages after decompression). Expected {ACCEPTED}.")
    first = text.lstrip()
    if first.startswith("<"):
        return _xml_format(path, first)
    if first.startswith("["):
        raise CorpusFormatError(f"{path}: a Wikidata JSON dump (a JSON array of entities), not a dump of pages. It "
                                f"labels a corpus: `aspectnav corpus label CORPUS --recipe wikipedia --wikidata-dump {path}`.")
    if first.startswith("{"):
        return _json_format(path, [line.strip() for line in first.splitlines()[:SHAPE_LINES] if line.strip()])
    raise CorpusFormatError(f"{path}: not a dump the import reads (it begins {first[:40]!r}). Expected {ACCEPTED}.")


def _raw_head(path: Path) -> bytes:
    try:
        with path.open("rb") as raw:
            return raw.read(8)
    except OSError as exc:
        raise CorpusFormatError(f"{path}: cannot be read ({exc.strerror})") from exc


def _decompressed_head(path: Path) -> bytes | None:
    """Up to HEAD_BYTES of the decompressed file, what could be read of them before damage; None if nothing could."""
    stream, _ = open_dump(path)
    parts: list[bytes] = []
    with stream:
        try:
            while sum(map(len, parts)) < HEAD_BYTES and (part := stream.read(4096)):
                parts.append(part)
        except (EOFError, OSError, zlib.error):
            pass
    return b"".join(parts) or None


def _xml_format(path: Path, text: str) -> DumpFormat:
    if DOC_HEADER.match(text.split("\n", 1)[0].strip()):
        return DumpFormat.WIKIEXTRACTOR_DOC
    root = _XML_ROOT.match(text, _XML_PROLOGUE.match(text).end())
    name = root.group(1) if root else "?"
    if name.rsplit(":", 1)[-1] == EXPORT_ROOT:
        return DumpFormat.MEDIAWIKI_XML
    what = "an HTML page" if name.lower() == "html" else f"an XML file whose root element is <{name}>"
    raise CorpusFormatError(f"{path}: {what}, not a MediaWiki export (<{EXPORT_ROOT} xmlns=\"http://www.mediawiki.org/"
                            "xml/export-0.10/\">, as in *-pages-articles.xml.bz2) nor WikiExtractor output "
                            f"(<doc id=.. url=.. title=..>). Expected {ACCEPTED}.")


def _json_format(path: Path, lines: list[str]) -> DumpFormat:
    if any(_WIKIEXTRACTOR_JSON.match(line) for line in lines):
        return DumpFormat.WIKIEXTRACTOR_JSON
    objects = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            objects.append(record)
    if not objects or any(set(record) == {"index"} for record in objects):
        return DumpFormat.CIRRUS  # its odd lines are named one by one by the import
    articles = [record for record in objects if {"id", "title", "text"} <= set(record)]
    if articles and len(articles) * 2 >= len(objects):
        raise CorpusFormatError(f"{path}: a JSONL corpus (one article per line: id, title, text), not a dump. Import "
                                f"it with `aspectnav corpus import {path} --name NAME`.")
    keys = ", ".join(sorted(objects[0])[:8])
    raise CorpusFormatError(f"{path}: JSON lines of another shape (the first has {keys}), neither a CirrusSearch "
                            "dump (an {\"index\": ...} line before each page) nor WikiExtractor --json output (id, "
                            f"revid, url, title, text). Expected {ACCEPTED}.")
