"""Reading a MediaWiki XML export (`*-pages-articles.xml.bz2`, Special:Export): <siteinfo> (the wiki's name and
namespaces), then one <page> (title, ns, id, <redirect/> on a redirect, a revision's wikitext in <text>) after
another. Streamed: the parser is fed a chunk at a time and each page is let go once read, so memory does not grow
with the dump; each page is read to a `DumpPage` or to the `DumpSkip` that says why not. Positions are page numbers
(the n-th <page> of the file): a resumed import skips that many pages without reading their wikitext."""
from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO
from xml.etree import ElementTree

from explore.corpus.cirrus_dump import (ARTICLE_NAMESPACE, DumpPage, DumpSkip, SkipReason, damaged_or_disk,
                                        page_address)
from explore.corpus.jsonl_import import validate_article
from explore.corpus.wikitext_lead import DEFAULT_NAMESPACES, is_redirect_text, lead_and_links
from explore.errors import CorpusFormatError

CHUNK_BYTES = 1 << 20
EXPORT_ROOT = "mediawiki"


def _local(tag: str) -> str:
    """The element's name without its namespace ("{http://www.mediawiki.org/xml/export-0.10/}page" -> "page"):
    exports 0.3 to 0.11 share the element names."""
    return tag.rsplit("}", 1)[-1]


class _Site:
    """What <siteinfo> says that reading a page needs: where its pages are (from <base>, the main page's address:
    "https://en.wikipedia.org/wiki/" of ".../wiki/Main_Page") and its namespace names."""

    def __init__(self) -> None:
        self.pages_at = ""
        self.namespaces = DEFAULT_NAMESPACES

    def address(self, title: str) -> str | None:
        return page_address(self.pages_at, title) if self.pages_at else None

    def read(self, siteinfo: ElementTree.Element) -> None:
        names = set(DEFAULT_NAMESPACES)
        for element in siteinfo.iter():
            name = _local(element.tag)
            if name == "base" and (element.text or "").strip().startswith(("https://", "http://")):
                base = element.text.strip()
                self.pages_at = base[:base.rfind("/") + 1]
            elif name == "namespace" and element.get("key") != "0" and element.text:
                names.add(element.text.strip().lower())
        self.namespaces = frozenset(names)


def read_export_pages(path: Path, stream: BinaryIO, start_page: int = 0,
                      raw: BinaryIO | None = None) -> Iterator[DumpPage | DumpSkip | int]:
    """Each <page> of the export as a DumpPage or DumpSkip, after the first `start_page` pages (passed over unread);
    after each page, the number of pages read so far (where a resumed import goes on). Damage (a cut-off file,
    malformed XML, a stream the decompressor cannot finish) is CorpusFormatError naming where."""
    parser = ElementTree.XMLPullParser(events=("start", "end"))
    site, root, pages = _Site(), None, 0
    while True:
        try:
            chunk = stream.read(CHUNK_BYTES)
        except (EOFError, OSError, zlib.error) as exc:
            raise damaged_or_disk(path, raw, pages, exc) from None
        try:
            if chunk:
                parser.feed(chunk)
            else:
                parser.close()
            events = list(parser.read_events())
        except ElementTree.ParseError as exc:
            raise _malformed(path, pages, exc) from None
        for event, element in events:
            if root is None:
                root = element
                if _local(root.tag) != EXPORT_ROOT:
                    raise CorpusFormatError(f"{path}: the XML's root element is <{_local(root.tag)}>, not a MediaWiki "
                                            f"export's <{EXPORT_ROOT}>.")
                continue
            if event != "end":
                continue
            name = _local(element.tag)
            if name == "siteinfo":
                site.read(element)
                root.clear()
            elif name == "page":
                pages += 1
                if pages > start_page:
                    yield _page_or_skip(path, pages, element, site)
                    yield pages
                root.clear()  # the page is read: let it go
        if not chunk:
            break
    if root is None:
        raise CorpusFormatError(f"{path}: empty (no XML after decompression)")
    yield pages


def _malformed(path: Path, pages: int, exc: ElementTree.ParseError) -> CorpusFormatError:
    line, column = exc.position
    problem = str(exc).split(":", 1)[0]  # expat's words ("no element found", "mismatched tag"), less its place
    return CorpusFormatError(f"{path}: the XML is cut off or malformed at line {line:,}, column {column} of the "
                             f"decompressed file (after page {pages:,}: {problem}). "
                             "Download it again, and compare its checksum with the one published beside it.")


def _child_text(element: ElementTree.Element, name: str) -> str | None:
    for child in element:
        if _local(child.tag) == name:
            return child.text or ""
    return None


def _page_or_skip(path: Path, number: int, page: ElementTree.Element, site: _Site) -> DumpPage | DumpSkip:
    title = (_child_text(page, "title") or "").strip()
    where = f"{path}, page {number:,} ({title!r})" if title else f"{path}, page {number:,}"
    namespace = (_child_text(page, "ns") or str(ARTICLE_NAMESPACE)).strip()
    if namespace != str(ARTICLE_NAMESPACE):
        return DumpSkip(number, SkipReason.NOT_ARTICLE, f"{where}: namespace {namespace}, not an article (0)")
    revisions = [child for child in page if _local(child.tag) == "revision"]
    wikitext = (_child_text(revisions[-1], "text") or "") if revisions else ""  # a history dump: the latest
    if any(_local(child.tag) == "redirect" for child in page) or is_redirect_text(wikitext):
        return DumpSkip(number, SkipReason.REDIRECT, f"{where}: a redirect, not an article")
    if not wikitext.strip():
        return DumpSkip(number, SkipReason.EMPTY, f"{where}: no wikitext")
    read = lead_and_links(wikitext, site.namespaces)
    if not read.lead:
        return DumpSkip(number, SkipReason.NO_LEAD, f"{where}: no text before its first section heading")
    page_id = (_child_text(page, "id") or "").strip()
    fields = {"id": f"page-{page_id}" if page_id else title, "title": title, "text": read.lead,
              "links": list(read.links), "url": site.address(title)}
    try:
        checked = validate_article(path, number, fields)
    except CorpusFormatError as exc:
        return DumpSkip(number, SkipReason.INVALID, str(exc).replace(f"{path}, line {number}", where, 1))
    return DumpPage(line=number, id=checked.id, title=checked.title, lead=checked.text, url=checked.url or "",
                    links=tuple(checked.links or ()), aliases=(), popularity=0.0)
