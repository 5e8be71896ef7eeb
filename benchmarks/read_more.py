"""Wikipedia's Read more (explore/morelike.py): its index's build time and size, its query p95 beside the generic
column's, on vital and on the million-article columnar corpus (benchmarks/million_corpus.py); and Explore's engine
time per seed with the Read more column on beside off.

    python -m benchmarks read_more            # vital and 1,000,000 rows (the corpus is made first if missing, ~3 min)
    python -m benchmarks read_more --quick    # vital and 60,000 rows

Equal work on both sides of each query row: the same seeds, five cards, each side's first answer for a seed (cold
caches; the generic column through the engine's served path, the index its corpus opens). The quality figures
beside the times: the share of seeds that get five Read more cards, and how many of them generic's top 5 also shows
(Read more is a text search, generic an embedding: they should not be the same list).
"""
from __future__ import annotations

import random
import time

import numpy as np

from benchmarks.common import Row, cpu_description, fresh_data_home, percentiles_ms

SEEDS = 200
K = 5


def _query_times(corpus, seeds: int) -> dict:
    from explore.morelike import MoreLikeIndex, build_index, directory_bytes, index_directory
    from explore.neighbours import Neighbourhood

    directory = index_directory(corpus)
    began = time.perf_counter()
    characters = sum(len(article.title) + len(article.text) for article in corpus.articles)
    read_s = time.perf_counter() - began
    build_s = build_index(corpus, directory)
    index = MoreLikeIndex(corpus, directory)
    engine = Neighbourhood.open(corpus, progress=False)
    rows = random.Random(50).sample(range(len(corpus)), seeds)
    ours, peer, full, overlap = [], [], 0, []
    for row in rows:
        seed = corpus.articles[row]
        began = time.perf_counter()
        shown = index.read_more(seed, K)
        ours.append(time.perf_counter() - began)
        began = time.perf_counter()
        generic = engine.neighbours(seed, "generic", K)
        peer.append(time.perf_counter() - began)
        full += len(shown.cards) == K
        overlap.append(len({card.row for card in shown.cards} & {corpus.position[n.id] for n in generic}))
    return {"build_s": build_s, "read_s": read_s, "characters": characters, "bytes": directory_bytes(directory),
            "ours": ours, "peer": peer,
            "full": full / seeds, "overlap": float(np.mean(overlap)), "rows": len(corpus)}


def _column_times(seeds: int) -> dict:
    from app_views.columns import draw_columns
    from explore.seed_view import ViewSettings, seed_view
    from explore.corpus import open_corpus
    from explore.mix import default_mix
    from explore.neighbours import Neighbourhood

    corpus = open_corpus("vital")
    sides = {"on": Neighbourhood.open(corpus, progress=False), "off": Neighbourhood.open(corpus, progress=False)}
    sides["on"].read_more(corpus.articles[0], 1)  # the index built once, before the clock (as a served app has it)
    times = {"on": [], "off": []}
    for seed in random.Random(51).sample(corpus.articles, seeds):
        for side, engine in (("off", sides["off"]), ("on", sides["on"])):
            began = time.perf_counter()
            draw_columns(engine, seed_view(engine, seed, None, ViewSettings(K, default_mix(engine, seed), side == "on")))
            times[side].append(time.perf_counter() - began)
    return times


def _query_rows(name: str, found: dict) -> list[Row]:
    ours50, ours95 = percentiles_ms(found["ours"])
    peer50, peer95 = percentiles_ms(found["peer"])
    seeds = len(found["ours"])
    return [
        Row("read more", f"index build, {found['rows']:,} articles ({name})", found["build_s"], found["read_s"], "s",
            "reading the same titles and texts once (the floor of any index build)",
            notes=f"index {found['bytes'] / 2**20:.1f} MiB on disk for {found['characters'] / 2**20:.0f} MiB of text "
                  "(title and text with term frequencies, the row and its incoming links as fast fields); one writer "
                  "thread"),
        Row("read more", f"query p95, {K} cards, {found['rows']:,} articles ({name})", ours95, peer95, "ms",
            "the generic column's top 5 through the engine, same seeds", spread=f"p50 {ours50:.2f} vs {peer50:.2f} ms",
            notes=f"{seeds} random seeds; {found['full']:.0%} get {K} cards; {found['overlap']:.2f} of its {K} also in "
                  f"generic's top {K}"),
    ]


def run(quick: bool = False) -> list[Row]:
    from explore.corpus import open_corpus
    from explore.corpus.registry import corpus_path

    print(f"CPU: {cpu_description()}")
    seeds = 20 if quick else SEEDS
    with fresh_data_home():
        rows = _query_rows("vital", _query_times(open_corpus("vital"), seeds))
        times = _column_times(seeds)
    on50, on95 = percentiles_ms(times["on"])
    off50, off95 = percentiles_ms(times["off"])
    rows.append(Row("read more", f"Explore's engine time per seed, every column, Read more on, p95 of {seeds} seeds "
                    "(target <= 1.2x)", on95, off95, "ms", "the same columns with Read more off",
                    spread=f"p50 {on50:.0f} vs {off50:.0f} ms", notes="interleaved seed by seed, vital, shipped spaces"))
    from benchmarks.serving import NAME, QUICK_NAME

    name = QUICK_NAME if quick else NAME
    if not (corpus_path(name) / "articles.arrow").exists():
        from benchmarks.million_corpus import make_million_corpus

        make_million_corpus(60_000 if quick else 1_000_000, name)
    return rows + _query_rows(f"columnar {name}", _query_times(open_corpus(name), seeds))
