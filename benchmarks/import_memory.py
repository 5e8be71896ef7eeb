"""The dump import's peak memory and speed at real record sizes (about 20 KB of text and source text and 80 outgoing
links a page, tests/cirrus_dump_fixture.py `real_size`), at growing numbers of pages, beside a plain loop that reads the
same records and keeps the same fields, storing nothing (the floor of reading the dump); each run in a fresh process,
so its peak RSS is its own. The growth per page between sizes is what decides whether all of Wikipedia fits (issue #40
asks for at most 1 KB a page). On the smallest size the stored links and incoming-link counts are checked against a
reference resolved with Python dicts. Speed is given in wall time and in CPU seconds an article (the steadier figure on
a shared machine), beside the load average.

Run alone: python -m benchmarks import_memory
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import Row, cpu_description, load_average

SIZES, QUICK_SIZES = (10_000, 30_000, 100_000), (1_000, 3_000)
REPO_ROOT = Path(__file__).resolve().parent.parent

_OURS = """
import json, sys, time
from benchmarks.import_memory import cpu_seconds, peak_mb
from explore.corpus.dump_import import import_dump
started = time.perf_counter()
corpus, report = import_dump(sys.argv[1], "memory", progress=False, columnar=True)
seconds = time.perf_counter() - started
print(json.dumps({"articles": len(corpus), "seconds": seconds, "cpu_seconds": cpu_seconds(),
                  "peak_mb": peak_mb(), "stored": str(report.stored), "links_kept": report.links_kept}))
"""
_PEER = """
import json, sys, time
from benchmarks.import_memory import cpu_seconds, peak_mb, plain_read
started = time.perf_counter()
kept = plain_read(sys.argv[1])
print(json.dumps({"articles": kept, "seconds": time.perf_counter() - started, "cpu_seconds": cpu_seconds(),
                  "peak_mb": peak_mb()}))
"""


def _pages(path: Path):
    """(page id, document) of each article-namespace page with a lead, as the plain loop and the reference read them."""
    page_id = None
    with gzip.open(path, "rb") as lines:
        for raw in lines:
            doc = json.loads(raw)
            if "index" in doc:
                page_id = doc["index"].get("_id")
                continue
            if doc.get("namespace") == 0 and (doc.get("opening_text") or "").strip():
                yield page_id, doc


def plain_read(path: Path) -> int:
    """The peer: gzip + json.loads per line, the same filters, the fields the import keeps (id, title, lead, url's
    wiki, links, redirects, popularity) taken out of each record and dropped: no store, no checks, no resolution."""
    kept = 0
    for page_id, doc in _pages(path):
        fields = (doc.get("wikibase_item") or page_id, doc.get("title"), doc["opening_text"], doc.get("wiki"),
                  list(doc.get("outgoing_link") or ()), doc.get("popularity_score"),
                  [r["title"] for r in doc.get("redirect") or () if r.get("namespace") == 0])
        kept += bool(fields)
    return kept


def reference_links(path: Path) -> tuple[dict[str, tuple[str, ...]], dict[str, int]]:
    """Each article's links resolved with dicts in memory (titles first, then redirects, normalised; first mention;
    no self-links) and the links into each: what the import's on-disk join must give."""
    from explore.corpus.cirrus_dump import normalize_title

    pages = [(doc.get("wikibase_item") or f"page-{page_id}", doc["title"], doc.get("outgoing_link") or [],
              [r["title"] for r in doc.get("redirect") or () if r.get("namespace") == 0])
             for page_id, doc in _pages(path)]
    target: dict[str, str] = {}
    for article_id, title, _, _ in pages:
        target.setdefault(normalize_title(title), article_id)
    for article_id, title, _, redirects in pages:
        for alias in redirects:
            if alias != title:
                target.setdefault(normalize_title(alias), article_id)
    links, incoming = {}, dict.fromkeys((page[0] for page in pages), 0)
    for article_id, _, outgoing, _ in pages:
        resolved = dict.fromkeys(target.get(normalize_title(link)) for link in outgoing)
        links[article_id] = tuple(to for to in resolved if to is not None and to != article_id)
        for to in links[article_id]:
            incoming[to] += 1
    return links, incoming


def quality(path: Path, stored: Path) -> str:
    """How many articles' stored links and incoming-link counts equal the in-memory reference's."""
    from explore.corpus.columnar_store import load_columnar

    links, incoming = reference_links(path)
    corpus = load_columnar(stored)
    counts = corpus.incoming_counts
    same_links = sum(links.get(article.id) == article.links for article in corpus.articles)
    same_incoming = sum(incoming.get(corpus.articles.value(row, "id")) == int(counts[row]) for row in range(len(corpus)))
    return (f"links equal to an in-memory reference for {same_links:,}/{len(links):,} articles, incoming-link counts "
            f"for {same_incoming:,}/{len(incoming):,} ({sum(map(len, links.values())):,} links)")


def cpu_seconds() -> float:
    """This process's user + system CPU time."""
    times = os.times()
    return times.user + times.system


def peak_mb() -> float:
    """This process's peak RSS: VmHWM, not ru_maxrss (which keeps the forking parent's peak across exec on Linux)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024


def _run(code: str, *args: str, home: str) -> dict:
    env = {**os.environ, "ASPECTNAV_HOME": home, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"}
    load = load_average()
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True,
                          cwd=REPO_ROOT)
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "load": load}


def measure(pages: int, scratch: Path, check: bool) -> tuple[dict, dict, float, str]:
    """(ours, peer, MB decompressed, quality) for a real-size dump of `pages` pages, written (streaming) to `scratch`
    and deleted after; the quality check (the reference holds every link in memory) only when `check`."""
    from benchmarks.dump_import import scaled_articles
    from explore.corpus.vital import build_vital_corpus
    from tests.cirrus_dump_fixture import write_dump

    path = scratch / f"enwiki-{pages}-cirrussearch-content.json.gz"
    write_dump(path, scaled_articles(build_vital_corpus().articles, pages), odd=False, compresslevel=1,
               real_size=True)
    try:
        with gzip.open(path, "rb") as lines:
            decompressed = sum(len(line) for line in lines) / 1e6
        home = tempfile.mkdtemp(prefix="aspectnav-memory-", dir=scratch)
        ours = _run(_OURS, str(path), home=home)
        peer = _run(_PEER, str(path), home=home)
        checked = quality(path, Path(ours["stored"])) if check else ""
    finally:
        path.unlink(missing_ok=True)
    return ours, peer, decompressed, checked


def _speed(run: dict) -> str:
    return (f"{run['articles'] / run['seconds']:,.0f} articles/s, {run['cpu_seconds'] * 1e6 / run['articles']:,.0f} "
            f"CPU µs an article (load {run['load']})")


def run(quick: bool = False) -> list[Row]:
    print(f"CPU: {cpu_description()}")
    rows, measured = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for index, pages in enumerate(QUICK_SIZES if quick else SIZES):
            ours, peer, decompressed, checked = measure(pages, Path(scratch), check=index == 0)
            measured.append((pages, ours, peer))
            growth = ""
            if len(measured) > 1:
                (before, was, peer_was), now = measured[-2], (pages, ours, peer)
                per_page = (ours["peak_mb"] - was["peak_mb"]) * 1e6 / (pages - before)
                peer_per_page = (peer["peak_mb"] - peer_was["peak_mb"]) * 1e6 / (pages - before)
                growth = (f"; growth from {before:,} pages: {per_page:,.0f} bytes a page (peer "
                          f"{peer_per_page:,.0f}), target at most 1,000")
            rows.append(Row("import memory", f"dump import --columnar, {pages:,} real-size pages "
                                             f"({decompressed:,.0f} MB decompressed): peak RSS",
                            ours["peak_mb"], peer["peak_mb"], "MB", "plain gzip+json loop keeping nothing",
                            notes=f"ours {_speed(ours)}; peer {_speed(peer)}; target at least 1,500 articles/s"
                                  f"{growth}{'; quality: ' + checked if checked else ''}"))
            print(rows[-1].metric, rows[-1].ours, rows[-1].peer, rows[-1].notes, flush=True)
    return rows
