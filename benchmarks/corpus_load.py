"""Corpus: build and load times of the vital corpus (target: loading 10k articles < 1 s).

Ours = our Parquet store with labels and links; peer = json.loads of the package's source file
(texts only). Run alone: python -m benchmarks corpus_load
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from benchmarks.common import Row, timed
from explore.corpus.aspect_quality import labelled_corpus, vital_records
from explore.corpus.store import load_corpus, save_corpus
from explore.corpus.vital import build_vital_corpus, vital_data_path


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
        Row("corpus", f"load {len(corpus):,} articles (target < 1 s)", ours.median, peer.median, "s",
            "json.loads of the source", spread=ours.spread, notes="ours also restores labels and links"),
        Row("corpus", f"aspect labelling of {len(records):,} descriptions (target < 2 s)", labelling.median, 2.0, "s",
            "target", spread=labelling.spread,
            notes=f"whole vital build (labels + mention links + checks) {build.median:.2f} s, spread {build.spread}"),
    ]
