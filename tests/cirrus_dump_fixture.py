"""Write a CirrusSearch content dump in the real format (gzip'd Elasticsearch bulk NDJSON: an action line, then the
page document with the fields Wikimedia's dumps carry) from a corpus's articles, plus the odd records real dumps
have. Tests import the result; the dump-import benchmark writes a scaled-up one the same way."""
from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from explore.corpus.model import Article

# What each odd record is, the reason the import gives for it, and the line it is written on is found by the
# tests through ODD_TITLES (a page's title) or the bad line's text.
BAD_JSON_LINE = '{"title": "Broken", "opening_text": "cut off mid'
LONG_RECORD_BYTES = 1_200_000  # a popular article's record: a short lead, most of it text and source text
REAL_RECORD_BYTES, REAL_LINKS = 20_000, 80  # an average English article's record: text and source text, links


@dataclass(frozen=True)
class DumpFixture:
    path: Path
    articles: list[Article]  # the good articles, in dump order
    popularity: dict[str, float]  # article id -> popularity_score
    qids: dict[str, str]  # article id -> the wikibase_item written (absent: none written)


def page_document(article: Article, page_id: int, popularity: float | None, qid: str | None,
                  titles: dict[str, str], namespace: int = 0) -> dict:
    """One page as CirrusSearch indexes it (the fields a content dump carries; the import reads a few)."""
    doc = {
        "template": ["Template:Short description", "Template:Infobox"],
        "content_model": "wikitext",
        "opening_text": article.text,
        "wiki": "enwiki",
        "auxiliary_text": ["An image caption"],
        "language": "en",
        "title": article.title,
        "text": article.text + " The rest of the article follows the lead.",
        "defaultsort": None,
        "timestamp": "2024-05-01T12:00:00Z",
        "redirect": [{"namespace": 0, "title": alias} for alias in article.aliases]
                    + [{"namespace": 2, "title": f"User:Fan of {article.title}"}],
        "heading": ["History", "See also"],
        "source_text": f"'''{article.title}''' ...",
        "coordinates": [],
        "version": 1200000000 + page_id,
        "version_type": "external",
        "external_link": ["https://example.org/"],
        "namespace_text": "",
        "namespace": namespace,
        "text_bytes": len(article.text.encode()) * 4,
        "incoming_links": int((popularity or 0) * 1e7),
        "category": ["Articles with short description"],
        # dbkeys, underscores for spaces, as the dump gives them; one link to a page not in the dump
        "outgoing_link": [titles[link].replace(" ", "_") for link in article.links if link in titles]
                         + ["Wikipedia:Citation_needed", "Some_page_not_in_this_dump"],
        "create_timestamp": "2003-01-01T00:00:00Z",
        "ores_articletopics": [],
    }
    if qid is not None:
        doc["wikibase_item"] = qid
    if popularity is not None:
        doc["popularity_score"] = popularity
    return doc


def lengthen(doc: dict, size: int = LONG_RECORD_BYTES) -> dict:
    """`doc` with its `text` and `source_text` grown (quotes, backslashes and non-ASCII among them, as wikitext has)
    until its line is about `size` bytes."""
    grow = max(0, size - len(json.dumps(doc, ensure_ascii=False).encode())) // 2
    prose = 'The article goes on "at length" — café, naïve, 東京; then a table:\n|-\n| {{cell}} || [[Link]]\n'
    wikitext = "{{Infobox|name=[[X]]}} '''bold''' <ref>{{cite web|url=https://example.org/?a=1&b=\\}}</ref>\n"
    doc = dict(doc)
    doc["text"] = doc["text"] + " " + prose * (grow // len(prose.encode()) + 1)
    doc["source_text"] = doc["source_text"] + wikitext * (grow // len(wikitext.encode()) + 1)
    return doc


def dump_lines(articles: list[Article], odd: bool = True, long_records: Iterable[int] = (),
               real_size: bool = False) -> Iterator[tuple[str, dict | None]]:
    """(line, document) pairs in the dump's order: an action line then its document, odd records among them; the
    pages at `long_records` (indexes) have records of about LONG_RECORD_BYTES; with `real_size` every page has a
    record of about REAL_RECORD_BYTES and REAL_LINKS outgoing links (its own, then others of the dump)."""
    titles = {a.id: a.title for a in articles}
    names = [title.replace(" ", "_") for title in titles.values()]
    long_records = set(long_records)
    for index, article in enumerate(articles):
        page_id = 1000 + index
        yield json.dumps({"index": {"_type": "page", "_id": str(page_id)}}), None
        doc = page_document(article, page_id, popularity_of(index, len(articles)), qid_of(index), titles)
        if index in long_records:
            doc = lengthen(doc)
        elif real_size:
            doc = lengthen(doc, REAL_RECORD_BYTES)
            doc["outgoing_link"] += [names[(index * 7919 + k * 131) % len(names)]
                                     for k in range(REAL_LINKS - len(doc["outgoing_link"]))]
        yield json.dumps(doc, ensure_ascii=False), doc
        if odd and index % 50 == 7:
            yield from _odd_records(index, article, titles)


def popularity_of(index: int, count: int) -> float | None:
    """A score falling with the position, so --top keeps a known set; every 31st page has none (real dumps
    leave it out of pages without page views)."""
    return None if index % 31 == 30 else round(1e-4 * (count - index) / count + 1e-9 * (index % 7), 12)


def qid_of(index: int) -> str | None:
    return None if index % 37 == 36 else f"Q{100000 + index}"  # a page without a Wikidata item now and then


def _odd_records(index: int, article: Article, titles: dict[str, str]) -> Iterator[tuple[str, dict | None]]:
    page_id = 900000 + index
    talk = Article("talk", f"Talk:{article.title}", "Discussion of the article.")
    yield json.dumps({"index": {"_id": str(page_id)}}), None
    yield json.dumps(page_document(talk, page_id, 1.0, None, titles, namespace=1)), None
    category = Article("cat", f"Category:{article.title}", "Pages about it.")
    yield json.dumps({"index": {"_id": str(page_id + 1)}}), None
    yield json.dumps(page_document(category, page_id + 1, 1.0, None, titles, namespace=14)), None
    no_lead = page_document(Article("x", f"{article.title} (list)", "x"), page_id + 2, 1.0, f"Q9{page_id}", titles)
    no_lead["opening_text"] = None  # lists and tables: a dump page with no lead paragraph
    yield json.dumps({"index": {"_id": str(page_id + 2)}}), None
    yield json.dumps(no_lead), None
    yield json.dumps({"index": {"_id": str(page_id + 3)}}), None
    yield json.dumps({"title": f"{article.title} (old)", "namespace": 0, "opening_text": None, "text": "",
                      "redirect": [{"namespace": 0, "title": f"{article.title} (older)"}]}), None
    duplicate = page_document(article, page_id + 4, None, f"Q8{page_id}", titles)  # the same title again
    yield json.dumps({"index": {"_id": str(page_id + 4)}}), None
    yield json.dumps(duplicate), None
    yield json.dumps({"index": {"_id": str(page_id + 5)}}), None
    yield BAD_JSON_LINE, None
    bad_title = page_document(article, page_id + 6, 1.0, f"Q7{page_id}", titles)
    bad_title["title"] = 12345  # a title of the wrong type: refused in the JSONL import's words
    yield json.dumps({"index": {"_id": str(page_id + 6)}}), None
    yield json.dumps(bad_title), None


def write_dump(path: Path, articles: Iterable[Article], odd: bool = True, compresslevel: int = 6,
               long_records: Iterable[int] = (), real_size: bool = False) -> DumpFixture:
    """Write `articles` as a gzip'd content dump at `path` (with odd records unless `odd` is False; the pages at
    `long_records` with records of over 1 MiB)."""
    articles = list(articles)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=compresslevel) as out:
        for line, _ in dump_lines(articles, odd, long_records, real_size):
            out.write(line + "\n")
    popularity = {a.id: p for i, a in enumerate(articles) if (p := popularity_of(i, len(articles))) is not None}
    qids = {a.id: q for i, a in enumerate(articles) if (q := qid_of(i)) is not None}
    return DumpFixture(Path(path), articles, popularity, qids)
