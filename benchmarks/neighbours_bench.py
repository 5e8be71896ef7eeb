"""Neighbour speed on the vital corpus, each kind against a plain numpy peer doing the same searches.

- Search: the plan the product picks at this size (exact top-k below 50,000 rows) against the hnswlib graph it
  would otherwise build (query p50/p95, recall@10 of each, and what the graph costs to build and hold).
- Per kind: `neighbours(seed, kind, 10)` against the numpy searches that kind needs: one exact top-k in its space;
  a blend scores every article in each of its spaces and takes the top-k of the weighted sum; links score every
  article in the generic space and order the seed's links by it; `all` is the sum of its kinds' peers.
- CLI cold start: a new process answering `neighbours "Marie Curie" --kind all`.

(Encode throughput is benchmarks/encode.py.) Run alone: python -m benchmarks neighbours_bench
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time

import numpy as np

from benchmarks.common import Row, percentiles_ms
from explore.corpus import open_corpus
from explore.neighbours import Neighbourhood
from explore.query import Blend, Kind, Query
from explore.ranking import LINKS_COMPONENT
from explore.spaces import Space, spaces_for
from explore.spaces.vector_index import SearchPlan, VectorIndex, exact_query

GROUP = "neighbours"
K = 10


def bench_search(generic: Space, seeds: np.ndarray) -> list[Row]:
    """The planned search of the generic space against the hnswlib graph of the size above the threshold."""
    emb, plan = generic.embeddings_, generic.search_
    graph_plan = SearchPlan.for_rows(10**6 // 10)  # the smallest graph the schedule builds
    start = time.perf_counter()
    graph = VectorIndex.planned(graph_plan).fit(emb)
    build_s = time.perf_counter() - start
    graph_bytes = len(emb) * (emb.shape[1] * 4 + graph_plan.m * 2 * 4 + 16)
    ours_times, graph_times, ours_hits, graph_hits = [], [], 0, 0
    for row in seeds:
        truth = set(exact_query(emb, emb[row], K + 1)[0].tolist()) - {row}
        start = time.perf_counter()
        rows, _ = generic.nearest(emb[row], K + 1)
        ours_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        graph_rows, _ = graph.query(emb[row], K + 1)
        graph_times.append(time.perf_counter() - start)
        ours_hits += len((set(rows.tolist()) - {row}) & truth)
        graph_hits += len((set(graph_rows.tolist()) - {row}) & truth)
    ours_p50, ours_p95 = percentiles_ms(ours_times)
    graph_p50, graph_p95 = percentiles_ms(graph_times)
    recall, graph_recall = ours_hits / (K * len(seeds)), graph_hits / (K * len(seeds))
    return [Row(GROUP, f"top-10 search p95, generic {len(emb):,} x {emb.shape[1]} (planned: {plan.method})", ours_p95,
                graph_p95, "ms", f"hnswlib graph M={graph_plan.m}, ef_construction={graph_plan.ef_construction}, "
                                 f"ef={graph_plan.ef_search}",
                spread=f"p50 ours {ours_p50:.2f}, graph {graph_p50:.2f}",
                notes=f"{len(seeds)} seeds; recall@10 ours {recall:.4f}, graph {graph_recall:.4f}; the graph costs "
                      f"{build_s:.2f} s to build and ≈{graph_bytes / 2**20:.0f} MiB per space, exact search nothing")]


def _peer(engine: Neighbourhood, query: Query, row: int, blend: Blend | None) -> None:
    """The numpy searches `query` needs for the seed at `row`, with nothing else around them."""
    spaces = engine.spaces
    if query.kind is Kind.LINKS:
        generic = spaces["generic"].embeddings_
        scores = generic @ generic[row]
        linked = [engine.corpus.position[i] for i in engine.corpus.articles[row].links if i in engine.corpus.position]
        sorted(linked, key=lambda r: -scores[r])
        return
    mix = {name: weight for name, weight in engine.resolve(query).items() if name != LINKS_COMPONENT}
    if len(mix) == 1:
        (name,) = mix
        exact_query(spaces[name].embeddings_, spaces[name].embeddings_[row], K + 1)
        return
    total = sum(weight * (spaces[name].embeddings_ @ spaces[name].embeddings_[row]) for name, weight in mix.items())
    top = np.argpartition(-total, K)[:K + 1]
    top[np.argsort(-total[top])]


def bench_kinds(engine: Neighbourhood, seeds: np.ndarray) -> list[Row]:
    corpus, rows = engine.corpus, []
    blend = Blend.parse("country:0.4,occupation:0.4,generic:0.2")
    every = engine.query_kinds(blend)
    for kind in [*engine.available_queries(), Query.blended(blend), "all"]:
        queries = every if kind == "all" else [kind]
        ours, peer = [], []
        for row in seeds:
            seed = corpus.articles[row]
            start = time.perf_counter()
            if kind == "all":
                engine.all_neighbours(seed, K, blend)
            else:
                engine.neighbours(seed, kind, K)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            for query in queries:
                _peer(engine, query, row, blend)
            peer.append(time.perf_counter() - start)
        p50, p95 = percentiles_ms(ours)
        peer_p50, peer_p95 = percentiles_ms(peer)
        what = (f"{len(queries)} kinds' searches in numpy" if kind == "all" else
                "generic scores + the links sorted by them" if kind.kind is Kind.LINKS else
                "weighted sum of its spaces' exact scores, top-k" if kind.kind is Kind.BLEND else
                "one exact numpy top-k")
        rows.append(Row(GROUP, f"neighbours p95, kind={kind}", p95, peer_p95, "ms", what,
                        spread=f"p50 ours {p50:.2f}, peer {peer_p50:.2f}",
                        notes="ours adds the shared-label explanation of each result"
                              + ("; every kind of one seed, as the Explore page asks" if kind == "all" else "")))
    return rows


def bench_cold_start(runs: int) -> list[Row]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "explore", "neighbours", "Marie Curie", "--kind", "all"],
                             capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if out.returncode != 0:
            raise RuntimeError(out.stderr)
    return [Row(GROUP, "CLI cold start: neighbours \"Marie Curie\" --kind all", statistics.median(times), 2.0, "s",
                "target", spread=f"{min(times):.2f}..{max(times):.2f}", notes="new process, corpus stored")]


def run(quick: bool = False) -> list[Row]:
    corpus = open_corpus("vital")
    registry = spaces_for(corpus)
    generic = registry.open("generic")
    seeds = np.random.default_rng(1).choice(len(corpus), 30 if quick else 300, replace=False)
    rows = bench_search(generic, seeds)
    rows += bench_kinds(Neighbourhood(corpus, dict(registry.open_all())), seeds)
    rows += bench_cold_start(1 if quick else 3)
    return rows
