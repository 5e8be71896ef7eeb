"""All of Wikipedia, measured small: the CirrusSearch dump import against a plain json + pyarrow loop doing the same
work on the same file, and the Ray encode (1 and 2 actors on a local Ray of this machine's cores) against the local
encode of the same texts, with the minimum cosine beside each; records over 1 MiB; labels from a Wikidata JSON dump.

The dump is synthetic in the real format (tests/cirrus_dump_fixture.py): the vital leads repeated under new titles
up to 50k pages, odd records among them. Run alone: python -m benchmarks dump_import
"""
from __future__ import annotations

import dataclasses
import gzip
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.common import Row, cpu_description, fresh_data_home

DUMP_PAGES, QUICK_DUMP_PAGES = 50_000, 2_000
ENCODE_TEXTS, QUICK_ENCODE_TEXTS = 500, 100
REPO_ROOT = Path(__file__).resolve().parent.parent


def scaled_articles(articles, pages: int):
    """`pages` articles: the given ones, then copies titled "Title (2)", "Title (3)", ... linking among their copy."""
    out = []
    copy = 1
    while len(out) < pages:
        suffix = "" if copy == 1 else f" ({copy})"
        for article in articles:
            if len(out) == pages:
                break
            out.append(dataclasses.replace(article, id=f"{article.id}{suffix}", title=article.title + suffix,
                                           links=tuple(f"{link}{suffix}" for link in article.links),
                                           aliases=tuple(a + suffix for a in article.aliases)))
        copy += 1
    return out


def plain_loop(path: Path, out: Path) -> int:
    """The peer: gzip + json.loads per line, the same filters (namespace 0, a lead), title/lead/links/aliases into
    one pyarrow table written as Parquet. No validation, no resumability, no link resolution, no progress."""
    rows = {"title": [], "text": [], "links": [], "aliases": []}
    with gzip.open(path, "rb") as lines:
        for raw in lines:
            try:
                doc = json.loads(raw)
            except ValueError:
                continue
            if "index" in doc or doc.get("namespace") != 0 or not doc.get("opening_text"):
                continue
            rows["title"].append(doc.get("title"))
            rows["text"].append(doc["opening_text"])
            rows["links"].append(doc.get("outgoing_link") or [])
            rows["aliases"].append([r["title"] for r in doc.get("redirect") or [] if r.get("namespace") == 0])
    try:
        pq.write_table(pa.table(rows), out)
    except (pa.ArrowException, TypeError):  # a title of the wrong type: the plain loop has no answer to it
        rows["title"] = [str(t) for t in rows["title"]]
        pq.write_table(pa.table(rows), out)
    return len(rows["title"])


def import_rows(vital, quick: bool) -> list[Row]:
    from explore.corpus.dump_import import finish_import, import_dump
    from tests.cirrus_dump_fixture import write_dump

    pages = QUICK_DUMP_PAGES if quick else DUMP_PAGES
    with tempfile.TemporaryDirectory() as scratch, fresh_data_home():
        dump = write_dump(Path(scratch) / "enwiki-bench-cirrussearch-content.json.gz",
                          scaled_articles(vital.articles, pages), compresslevel=1)
        size = dump.path.stat().st_size
        ours, peer, kept = [], [], 0
        for run in range(1 if quick else 2):
            started = time.perf_counter()
            corpus, report = import_dump(dump.path, f"bench{run}", progress=False)
            ours.append(time.perf_counter() - started)
            kept = len(corpus)
            finish_import(f"bench{run}")
            started = time.perf_counter()
            peer_kept = plain_loop(dump.path, Path(scratch) / "plain.parquet")
            peer.append(time.perf_counter() - started)
        top_started = time.perf_counter()
        top, _ = import_dump(dump.path, "benchtop", top=pages // 10, progress=False)
        top_seconds = time.perf_counter() - top_started
    ours_rate, peer_rate = kept / min(ours), peer_kept / min(peer)
    return [
        Row("dump import", f"CirrusSearch dump, {pages:,} pages ({size / 1e6:.0f} MB gzip) -> corpus, articles/s",
            ours_rate, peer_rate, "articles/s", "plain gzip+json+pyarrow loop", lower_is_better=False,
            spread=f"{kept / max(ours):.0f}..{ours_rate:.0f}",
            notes=f"ours validates every field (the JSONL import's schema), resolves {report.links_kept:,} links "
                  f"through titles and redirects, checkpoints every 10k rows, skips and counts "
                  f"{sum(report.skipped.values())} odd records; the peer keeps {peer_kept:,} rows (it lets the "
                  f"duplicates and the bad title through); --top {pages // 10:,} (two passes) took "
                  f"{top_seconds:.1f} s for {len(top):,} articles"),
    ]


LONG_PAGES, LONG_EVERY = 2_000, 20  # every 20th page a 1.2 MB record (a popular article): 100 of them
WIKIDATA_ENTITIES, QUICK_WIKIDATA_ENTITIES = 20_000, 2_000


def long_record_rows(vital, quick: bool) -> list[Row]:
    """Records over 1 MiB: ours keeps them, reading only the kept fields; the peer, json.loads of every whole line."""
    from explore.corpus.dump_import import finish_import, import_dump
    from tests.cirrus_dump_fixture import write_dump

    pages = LONG_PAGES // (10 if quick else 1)
    long_records = range(0, pages, LONG_EVERY)
    with tempfile.TemporaryDirectory() as scratch, fresh_data_home():
        dump = write_dump(Path(scratch) / "enwiki-long-cirrussearch-content.json.gz", vital.articles[:pages],
                          odd=False, compresslevel=1, long_records=long_records)
        with gzip.open(dump.path, "rb") as lines:
            decompressed = sum(len(line) for line in lines)
        started = time.perf_counter()
        corpus, report = import_dump(dump.path, "long", progress=False)
        ours = time.perf_counter() - started
        finish_import("long")
        started = time.perf_counter()
        peer_kept = plain_loop(dump.path, Path(scratch) / "plain.parquet")
        peer = time.perf_counter() - started
    return [Row("dump import", f"{pages:,} pages, {len(long_records)} of them 1.2 MB records "
                               f"({decompressed / 1e6:.0f} MB decompressed) -> corpus, articles/s",
                len(corpus) / ours, peer_kept / peer, "articles/s", "plain gzip+json+pyarrow loop",
                lower_is_better=False,
                notes=f"ours keeps all {len(corpus):,} (each record over 1 MiB read for its kept fields only, the "
                      f"rest skipped unheld; before #40 they were skipped as bad lines); skipped "
                      f"{sum(report.skipped.values())}; the peer parses every whole line")]


def wikidata_dump_rows(quick: bool) -> list[Row]:
    """Labels from a Wikidata JSON dump (real format, entities of ~13 KB, a corpus of every 20th item, the values'
    entities half before and half after the items): ours (both passes) against gzip + json.loads of every line."""
    from explore.corpus.model import Article, Corpus, Provenance
    from explore.corpus.wikidata.dump_labels import finish_dump_labels, label_corpus_from_dump
    from explore.corpus.wikidata.recipes import load_recipe
    from tests.wikidata_dump_fixture import Entity, Statement, write_wikidata_dump

    count = QUICK_WIKIDATA_ENTITIES if quick else WIKIDATA_ENTITIES
    values = [Entity(f"Q{500000 + i}", {"en": f"Value {i}"}) for i in range(200)]
    items = [Entity(f"Q{1000 + i}", {"en": f"Item {i}", "de": f"Ding {i}", "fr": f"Chose {i}"},
                    {"P31": (Statement(f"Q{500000 + i % 50}"),), "P17": (Statement(f"Q{500050 + i % 150}"),),
                     "P106": tuple(Statement(f"Q{500100 + (i + k) % 100}") for k in range(3))},
                    enwiki=f"Item {i}", padding=9000) for i in range(count)]
    corpus = Corpus("wd", [Article(id=f"Q{1000 + i}", title=f"Item {i}", text="A lead.") for i in range(0, count, 20)],
                    Provenance(source="benchmark", date="2026-11-27"))
    with tempfile.TemporaryDirectory() as scratch, fresh_data_home():
        path = write_wikidata_dump(Path(scratch) / "latest-all.json.gz", values[:100] + items + values[100:])
        with gzip.open(path, "rb") as lines:
            decompressed = sum(len(line) for line in lines)
        started = time.perf_counter()
        _, summary = label_corpus_from_dump(corpus, load_recipe("wikipedia"), path, progress=False)
        ours = time.perf_counter() - started
        finish_dump_labels("wd")
        started = time.perf_counter()
        with gzip.open(path, "rb") as lines:
            for line in lines:
                line = line.rstrip(b",\n")
                if line.startswith(b"{"):
                    json.loads(line)
        peer = time.perf_counter() - started
    entities = len(values) + len(items)
    return [Row("wikidata dump labels", f"Wikidata JSON dump, {entities:,} entities ({decompressed / 1e6:.0f} MB "
                                        f"decompressed) -> labels of {len(corpus):,} items, entities/s",
                entities / ours, entities / peer, "entities/s", "gzip + json.loads of every line, one pass",
                lower_is_better=False,
                notes=f"ours: one pass, parsing only the {len(corpus):,} items' and their values' lines, then a "
                      f"second that stops once it has the values written before the items needing them; "
                      f"{summary.labelled:,} labelled; "
                      f"{decompressed / 1e6 / ours:.0f} MB/s of decompressed JSON")]


def _ray(num_cpus: int):
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        paths = [str(REPO_ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                 object_store_memory=256 * 1024 ** 2,
                 runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(paths), "HF_HUB_OFFLINE": "1"}})
    return ray, started_here


def encode_rows(vital, quick: bool) -> list[Row]:
    from explore.encoders import load_encoder
    from explore.encoders.encode_engine import RayEngineConfig
    from explore.encoders.ray_encoder import RayEncoder
    from explore.spaces.article_text import article_text

    texts = [article_text(a) for a in vital.articles[:QUICK_ENCODE_TEXTS if quick else ENCODE_TEXTS]]
    encoder = load_encoder("minilm", backend="torch")  # what each Ray actor runs on its batches
    encoder.encode(texts[:64], progress=False)  # the model loaded: timing the encode, not the load
    started = time.perf_counter()
    local = encoder.encode(texts, progress=False)
    local_rate = len(texts) / (time.perf_counter() - started)
    cores = os.cpu_count() or 2
    ray, started_here = _ray(cores)
    rows, rates = [], {}
    try:
        for workers in (1, 2):
            ray_encoder = RayEncoder(encoder, RayEngineConfig(actors=workers))
            started = time.perf_counter()
            ray_encoder.encode(texts[:32 * workers], progress=False)  # a batch per actor: the fixed cost of an encode
            startup = time.perf_counter() - started
            started = time.perf_counter()
            vectors = ray_encoder.encode(texts, progress=False)
            rates[workers] = len(texts) / (time.perf_counter() - started)
            cosine = float((vectors * local).sum(axis=1).min())
            pool = ray_encoder.pool_
            efficiency = "" if workers == 1 else \
                f"; scaling efficiency {rates[2] / (2 * rates[1]):.2f} (texts/s with 2 actors / twice with 1)"
            rows.append(Row("ray encode", f"MiniLM on Ray Data, {workers} actor{'s' if workers > 1 else ''} "
                                          f"x {pool['num_cpus']} CPU, {len(texts):,} texts, texts/s",
                            rates[workers], local_rate, "texts/s", "local encode, same encoder (torch)",
                            lower_is_better=False,
                            notes=f"min cosine vs local {cosine:.6f}; {encoder.last_run[0]} {encoder.last_run[1]}; "
                                  f"each encode starts its actors and loads the model in each: {startup:.1f} s "
                                  f"of fixed cost, included{efficiency}; local Ray on {cores} cores"))
    finally:
        if started_here:
            ray.shutdown()
    return rows


def run(quick: bool = False) -> list[Row]:
    from explore.corpus.vital import build_vital_corpus

    vital = build_vital_corpus()
    print(f"CPU: {cpu_description()}")
    return import_rows(vital, quick) + long_record_rows(vital, quick) + wikidata_dump_rows(quick) + \
        encode_rows(vital, quick)
