"""`corpus import-dump` tells a dump's format from its first bytes (issue #54, item 3): the formats it reads are
imported, anything else is refused before the import reads the file, with what it is and what to do."""
from __future__ import annotations

import bz2
import gzip
import json
import lzma

import pytest

from explore.cli import main
from explore.corpus.dump_format import DumpFormat, dump_format
from explore.errors import CorpusFormatError
from tests.mediawiki_dump_fixture import EXPORT_HEAD, EXPORT_TAIL, page_xml

CIRRUS = json.dumps({"index": {"_id": "12"}}) + "\n" + json.dumps({"title": "A", "opening_text": "B."}) + "\n"
EXPORT = EXPORT_HEAD + page_xml("Anarchism", 12, "'''Anarchism''' is a philosophy.") + EXPORT_TAIL
DOCS = '<doc id="12" url="https://en.wikipedia.org/wiki?curid=12" title="Anarchism">\nAnarchism\n\nA text.\n</doc>\n'
EXTRACTED_JSON = json.dumps({"id": "12", "revid": "1", "url": "https://en.wikipedia.org/wiki?curid=12",
                             "title": "Anarchism", "text": "A text."}) + "\n"


@pytest.mark.parametrize("content, expected", [
    (CIRRUS, DumpFormat.CIRRUS), (EXPORT, DumpFormat.MEDIAWIKI_XML), (DOCS, DumpFormat.WIKIEXTRACTOR_DOC),
    (EXTRACTED_JSON, DumpFormat.WIKIEXTRACTOR_JSON),
    ('<?xml version="1.0" encoding="utf-8"?>\n<!-- exported -->\n' + EXPORT, DumpFormat.MEDIAWIKI_XML),
    ("\ufeff" + EXPORT, DumpFormat.MEDIAWIKI_XML)],
    ids=["cirrus", "export", "wikiextractor", "wikiextractor json", "export with prologue", "export with a BOM"])
@pytest.mark.parametrize("compress, suffix", [(bz2.compress, ".bz2"), (gzip.compress, ".gz"), (lambda b: b, "")],
                         ids=["bz2", "gzip", "plain"])
def test_each_format_is_told_from_its_first_bytes_compressed_or_not(tmp_path, content, expected, compress, suffix):
    path = tmp_path / f"dump{suffix}"
    path.write_bytes(compress(content.encode()))
    assert dump_format(path) is expected


@pytest.mark.parametrize("content, words", [
    ('<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry/></feed>',
     "an XML file whose root element is <feed>, not a MediaWiki export"),
    ("<!DOCTYPE html>\n<html><body>Not found</body></html>", "an HTML page, not a MediaWiki export"),
    ("-- MySQL dump 10.19\nCREATE TABLE `page` (", "not a dump the import reads (it begins '-- MySQL dump"),
    ("id,title,text\n1,A,B\n", "not a dump the import reads (it begins 'id,title,text"),
    ('{"type": "item", "labels": {}}\n', "JSON lines of another shape (the first has labels, type)"),
    ("\n\n  \n", "empty (no pages after decompression)"),
], ids=["atom feed", "html", "sql", "csv", "other json lines", "blank"])
def test_anything_else_is_refused_with_what_it_is_and_what_is_read(tmp_path, content, words):
    path = tmp_path / "thing.bz2"
    path.write_bytes(bz2.compress(content.encode()))
    with pytest.raises(CorpusFormatError) as refused:
        dump_format(path)
    assert words in str(refused.value) and "Expected a CirrusSearch content dump" in str(refused.value)
    assert "MediaWiki XML export (*-pages-articles.xml.bz2)" in str(refused.value)


def test_another_compression_is_named_with_the_command_that_undoes_it(tmp_path):
    path = tmp_path / "enwiki-pages-articles.xml.xz"
    path.write_bytes(lzma.compress(EXPORT.encode()))
    with pytest.raises(CorpusFormatError, match=r"compressed with xz.*`xz -d .*enwiki-pages-articles.xml.xz`"):
        dump_format(path)


def test_a_refused_file_is_never_read_past_its_head(tmp_path, capsys, monkeypatch):
    """A 40 MB file of the wrong kind is refused from its first 64 KiB: the import pass never begins."""
    from explore.corpus import dump_import
    from explore.corpus import dump_format as format_module

    path = tmp_path / "feed.xml"
    path.write_text("<rss version='2.0'><channel>" + "<item><title>x</title></item>\n" * 1_300_000 + "</channel></rss>")
    read = []
    original = format_module.open_dump

    class Counted:
        def __init__(self, stream):
            self.stream = stream

        def read(self, size=-1):
            data = self.stream.read(size)
            read.append(len(data))
            return data

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

    monkeypatch.setattr(format_module, "open_dump", lambda opened: (Counted(original(opened)[0]), None))
    monkeypatch.setattr(dump_import, "open_dump", lambda path: pytest.fail("the import pass began"))
    assert main(["corpus", "import-dump", str(path), "--name", "feed"]) == 2
    err = capsys.readouterr().err
    assert "an XML file whose root element is <rss>, not a MediaWiki export" in err and "Traceback" not in err
    assert 0 < sum(read) <= format_module.HEAD_BYTES < path.stat().st_size // 100


def test_a_jsonl_corpus_is_not_taken_for_wikiextractor_output(tmp_path):
    """Both have id, title and text; WikiExtractor writes revid second, a JSONL corpus has none."""
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({"id": "a", "title": "A", "text": "B.", "url": "https://example.org/a"}) + "\n")
    with pytest.raises(CorpusFormatError, match="a JSONL corpus .* `aspectnav corpus import"):
        dump_format(path)
