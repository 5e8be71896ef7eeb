"""Corpus: build and load times of the vital corpus (target: loading 10k articles < 1 s).

Ours = our Parquet store with labels and links; peer = json.loads of the package's source file
(texts only). Run alone: python -m benchmarks corpus_load
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from benchmarks.common import Row, environment, timed
from explore.corpus.aspect_quality import labelled_corpus, vital_records
from explore.corpus.store import load_corpus, save_corpus
from explore.corpus.vital import build_vital_corpus, vital_data_path


def first_open(repeats: int) -> Row:
    """`open_corpus("vital")` on an empty data home: the shipped build copied in, against building it."""
    from explore.corpus.registry import open_corpus

    homes, hashes = [], set()
    with tempfile.TemporaryDirectory() as scratch:
        def fresh_open():
            with environment(ASPECTNAV_HOME=str(Path(scratch) / f"home-{len(homes)}")):
                homes.append(1)
                hashes.add(open_corpus("vital").content_hash)

        shipped = timed(fresh_open, repeats=repeats, warmup=0)
    built = build_vital_corpus()
    build = timed(build_vital_corpus, repeats=max(1, repeats // 2), warmup=0)
    same = hashes == {built.content_hash}
    return Row("corpus", "first open of vital on a fresh data home (shipped build)", shipped.median, build.median, "s",
               "building it from its package", spread=f"{shipped.spread}; build {build.spread}",
               notes=f"quality: the shipped build is the built corpus (content hash equal: {'yes' if same else 'NO'})")


def run(quick: bool = False) -> list[Row]:
    repeats = 2 if quick else 7
    build = timed(build_vital_corpus, repeats=1 if quick else 3, warmup=0)
    corpus = build_vital_corpus()
    records = vital_records()
    labelling = timed(lambda: labelled_corpus(records), repeats=1 if quick else 3)
    with tempfile.TemporaryDirectory() as tmp:
        path = save_corpus(corpus, Path(tmp) / "vital")
        ours = timed(lambda: load_corpus(path), repeats=repeats)
    peer = timed(lambda: json.loads(vital_data_path().read_text(encoding="utf-8")), repeats=repeats)
    return [
        first_open(2 if quick else 5),
        Row("corpus", f"load {len(corpus):,} articles (target < 1 s)", ours.median, peer.median, "s",
            "json.loads of the source", spread=ours.spread, notes="ours also restores labels and links"),
        Row("corpus", f"aspect labelling of {len(records):,} descriptions (target < 2 s)", labelling.median, 2.0, "s",
            "target", spread=labelling.spread,
            notes=f"whole vital build (labels + mention links + checks) {build.median:.2f} s, spread {build.spread}"),
    ]
