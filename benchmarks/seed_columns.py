"""Engine time per seed with this round's columns (kind, century, field) beside the engine without them, on the vital
corpus with the shipped spaces (target: p95 within 1.2x).

    python -m benchmarks seed_columns

Both sides compute every column Explore draws for the same seeds (links, generic, the seed's default mix, each
aspect space the seed has, union, intersection), interleaved seed by seed, each engine with a cold seed cache. The
quality figure beside the times: how many columns a seed gets on each side, and the share of seeds that get at
least one of the new columns.
"""
from __future__ import annotations

import random
import tempfile
import time

from benchmarks.common import Row, environment, percentiles_ms

NEW_SPACES = ("kind", "century", "field")


def _columns_of(engine, seed) -> int:
    from app_views.columns import draw_columns
    from explore.seed_view import ViewSettings, seed_view
    from explore.mix import default_mix

    return len(draw_columns(engine, seed_view(engine, seed, None, ViewSettings(5, default_mix(engine, seed)))))


def measure(count: int) -> dict:
    from explore.corpus import open_corpus
    from explore.neighbours import Neighbourhood

    corpus = open_corpus("vital")
    with_new = Neighbourhood.open(corpus, progress=False)
    without = Neighbourhood(corpus, {n: s for n, s in with_new.spaces.items() if n not in NEW_SPACES})
    seeds = random.Random(48).sample(corpus.articles, count)
    times = {"with": [], "without": []}
    columns = {"with": [], "without": []}
    for seed in seeds:
        for side, engine in (("without", without), ("with", with_new)):
            began = time.perf_counter()
            columns[side].append(_columns_of(engine, seed))
            times[side].append(time.perf_counter() - began)
    new_drawn = sum(1 for seed in seeds
                    if set(NEW_SPACES) & {q.name for q in with_new.query_kinds(seed=seed) if q.name})
    return {"times": times, "columns": columns, "new_drawn": new_drawn / len(seeds)}


def run(quick: bool = False) -> list[Row]:
    count = 20 if quick else 200
    with tempfile.TemporaryDirectory() as home, environment(ASPECTNAV_HOME=home):
        found = measure(count)
    ours50, ours95 = percentiles_ms(found["times"]["with"])
    peer50, peer95 = percentiles_ms(found["times"]["without"])
    mean_with = sum(found["columns"]["with"]) / count
    mean_without = sum(found["columns"]["without"]) / count
    return [Row("explore", f"engine time per seed, every column, p95 of {count} seeds (target <= 1.2x)", ours95, peer95,
                "ms", "the same engine without the kind, century and field spaces",
                spread=f"p50 {ours50:.0f} vs {peer50:.0f} ms",
                notes=f"columns per seed {mean_with:.2f} vs {mean_without:.2f}; {found['new_drawn']:.0%} of the seeds "
                      "get a kind, century or field column")]
