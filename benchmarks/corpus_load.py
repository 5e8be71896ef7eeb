"""Corpus load time: our Parquet store vs parsing the source JSON (target: 10k articles < 1 s).

Run: python -m benchmarks.corpus_load
"""
from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from explore.corpus.aspect_quality import labelled_corpus, vital_records
from explore.corpus.store import load_corpus, save_corpus
from explore.corpus.vital import build_vital_corpus, vital_data_path


def _timed(fn, repeats: int = 7) -> list[float]:
    fn()  # warm-up, excluded
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> dict:
    start = time.perf_counter()
    corpus = build_vital_corpus()
    build_s = time.perf_counter() - start
    records = vital_records()
    labelling = _timed(lambda: labelled_corpus(records), repeats=3)
    with tempfile.TemporaryDirectory() as tmp:
        path = save_corpus(corpus, Path(tmp) / "vital")
        ours = _timed(lambda: load_corpus(path))
    peer = _timed(lambda: json.loads(vital_data_path().read_text(encoding="utf-8")))
    result = {
        "articles": len(corpus),
        "build_s": round(build_s, 3),
        "label_aspects_median_s": round(statistics.median(labelling), 3),
        "load_median_s": round(statistics.median(ours), 4),
        "load_spread_s": [round(min(ours), 4), round(max(ours), 4)],
        "peer_json_parse_median_s": round(statistics.median(peer), 4),
        "ratio_ours_over_peer": round(statistics.median(ours) / statistics.median(peer), 2),
    }
    print(f"build vital (labels + mention links): {result['build_s']} s; "
          f"aspect labelling alone: median {result['label_aspects_median_s']} s (target < 2 s)")
    print(f"load {len(corpus)} articles: median {result['load_median_s']} s "
          f"(min..max {result['load_spread_s'][0]}..{result['load_spread_s'][1]}); "
          f"peer json.loads of the source (text only, no labels/links): {result['peer_json_parse_median_s']} s; "
          f"ratio {result['ratio_ours_over_peer']}")
    return result


if __name__ == "__main__":
    main()
