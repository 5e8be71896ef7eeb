"""The server time of a seed change on the vital corpus with the shipped spaces (target p95 < 100 ms).

    python -m benchmarks app_seed_change

In one AppTest session, a new seed via the URL and a full rerun of the Explore page (links, generic, the
reader's mix, the aspect spaces of the seed's aspects, union, intersection); the peer is the same columns by
direct calls. First start has its own benchmark (benchmarks/first_start.py).
"""
from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from benchmarks.common import Row, environment, percentiles_ms

REPO = Path(__file__).resolve().parent.parent


def seed_changes(count: int) -> tuple[list[float], list[float]]:
    from streamlit.testing.v1 import AppTest

    from app_views.columns import draw_columns
    from explore.seed_view import ViewSettings, seed_view
    from explore.mix import default_mix
    from explore.neighbours import Neighbourhood
    from explore.corpus import open_corpus

    corpus = open_corpus("vital")
    engine = Neighbourhood.open(corpus, progress=False)
    seeds = random.Random(0).sample(corpus.articles, count)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    at.query_params["seed"] = "Marie Curie"
    at.run()
    page = []
    for article in seeds:
        at.query_params["seed"] = article.id
        began = time.perf_counter()
        at.run()
        page.append(time.perf_counter() - began)
        assert not at.exception, at.exception
    columns = []
    for article in seeds:
        began = time.perf_counter()
        draw_columns(engine, seed_view(engine, article, None, ViewSettings(5, default_mix(engine, article))))
        columns.append(time.perf_counter() - began)
    return page, columns


def run(quick: bool = False) -> list[Row]:
    seeds = 5 if quick else 30
    with tempfile.TemporaryDirectory() as home, environment(ASPECTNAV_HOME=home):
        page, columns = seed_changes(seeds)
    page_p50, page_p95 = percentiles_ms(page)

    return [
        Row("app", f"seed change, whole Explore page, p95 of {seeds} seeds (target < 100 ms)", page_p95,
            percentiles_ms(columns)[1], "ms", "the same columns by direct calls", spread=f"p50 page {page_p50:.0f} ms",
            notes="links, generic, your mix (the seed's default), the seed's aspect spaces, union, intersection"),
    ]

