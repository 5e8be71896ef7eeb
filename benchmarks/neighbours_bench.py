"""Neighbour speed on the vital corpus: query p50/p95 per kind beside exact numpy search, hnswlib
recall@10 against exact search (with the ef/M used and an ef sweep), index load time, CLI cold
start, and encode throughput of our encoder against plain SentenceTransformer.encode (same texts).

Every shipped space is measured (generic, the aspect heads, union, intersection) plus a blend of
country, occupation and generic. Run alone: python -m benchmarks neighbours_bench
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import numpy as np

from benchmarks.common import Row, percentiles_ms
from explore.corpus import open_corpus
from explore.encoders import load_encoder
from explore.neighbours import Neighbourhood
from explore.query import Blend, Query
from explore.spaces import Space, article_text, spaces_for
from explore.spaces.vector_index import EF_CONSTRUCTION, EF_SEARCH, HNSW_M, VectorIndex, exact_query

GROUP = "neighbours"


def bench_index(generic: Space, seeds: np.ndarray) -> tuple[list[Row], float]:
    """Rows for the index, and the exact search's p95 (ms): the peer of every kind's row."""
    emb = generic.embeddings_
    start = time.perf_counter()
    built = VectorIndex().fit(emb)
    build_s = time.perf_counter() - start
    loads = []
    for _ in range(5):
        start = time.perf_counter()
        VectorIndex.load(generic.index_path_, generic.dim, len(generic))
        loads.append(time.perf_counter() - start)
    exact_times, truths = [], []
    for row in seeds:
        start = time.perf_counter()
        truths.append(set(exact_query(emb, emb[row], 11)[0]) - {row})
        exact_times.append(time.perf_counter() - start)
    exact_p50, exact_p95 = percentiles_ms(exact_times)
    sweep, used = [], None
    for ef in (16, 32, EF_SEARCH, 128):
        hits, times = 0.0, []
        for row, truth in zip(seeds, truths):
            start = time.perf_counter()
            rows, _ = built.query(emb[row], 11, ef=ef)
            times.append(time.perf_counter() - start)
            hits += len((set(rows) - {row}) & truth) / len(truth)
        p50, p95 = percentiles_ms(times)
        sweep.append(f"ef={ef}: recall {hits / len(seeds):.4f}, p50 {p50:.2f} ms")
        if ef == EF_SEARCH:
            used = (hits / len(seeds), p50, p95)
    params = f"M={HNSW_M}, ef_construction={EF_CONSTRUCTION}, ef_search={EF_SEARCH}"
    rows = [
        Row(GROUP, f"hnswlib recall@10 vs exact ({params})", used[0], 1.0, "", "exact numpy search",
            lower_is_better=False, notes=f"{len(seeds)} seeds; " + "; ".join(sweep)),
        Row(GROUP, "top-10 query time, generic 10k x 384", used[1], exact_p50, "ms", "exact numpy search",
            spread=f"p95 ours {used[2]:.2f}, exact {exact_p95:.2f}"),
        Row(GROUP, "index load (sha256 check + hnswlib load)", statistics.median(loads) * 1000, build_s * 1000, "ms",
            "building the index", spread=f"{min(loads) * 1000:.0f}..{max(loads) * 1000:.0f}"),
    ]
    return rows, exact_p95


def bench_kinds(engine: Neighbourhood, seeds: np.ndarray, exact_p95: float) -> list[Row]:
    corpus, rows = engine.corpus, []
    blend = Blend.parse("country:0.4,occupation:0.4,generic:0.2")
    for kind in [*engine.available_queries(), Query.blended(blend), "all"]:
        times = []
        for row in seeds:
            seed = corpus.articles[row]
            start = time.perf_counter()
            if kind == "all":
                engine.all_neighbours(seed, 10, blend)
            else:
                engine.neighbours(seed, kind, 10)
            times.append(time.perf_counter() - start)
        p50, p95 = percentiles_ms(times)
        rows.append(Row(GROUP, f"neighbours p95, kind={kind}", p95, exact_p95, "ms", "one exact numpy top-k",
                        spread=f"p50 {p50:.2f}", notes="every kind together" if kind == "all" else ""))
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


def bench_encode(corpus, n: int, rounds: int) -> list[Row]:
    rng = np.random.default_rng(0)
    texts = [article_text(corpus.articles[i]) for i in rng.choice(len(corpus), n, replace=False)]
    ours = load_encoder("minilm")
    model = ours.model
    model.encode(texts[:8])  # warm-up
    runs = {"ours": lambda: ours.encode(texts, progress=False),
            "plain": lambda: model.encode(texts, batch_size=32, normalize_embeddings=True)}
    wall, cpu, outputs = {"ours": [], "plain": []}, {"ours": [], "plain": []}, {}
    for round_ in range(rounds):  # interleaved, alternating who goes first: the machine is shared
        for name in (["ours", "plain"] if round_ % 2 == 0 else ["plain", "ours"]):
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            outputs[name] = runs[name]()
            wall[name].append(time.perf_counter() - start_wall)
            cpu[name].append(time.process_time() - start_cpu)
    cosine = float((outputs["ours"] * outputs["plain"]).sum(axis=1).min())
    ours_best, plain_best = min(wall["ours"]), min(wall["plain"])
    cpu_ratio = statistics.median(cpu["plain"]) / statistics.median(cpu["ours"])
    return [Row(GROUP, f"encode {n} vital texts, texts/s (best wall)", n / ours_best, n / plain_best, "texts/s",
                "SentenceTransformer.encode", lower_is_better=False,
                spread=f"wall s ours {[round(t, 1) for t in wall['ours']]}, plain {[round(t, 1) for t in wall['plain']]}",
                notes=f"precision {ours.autocast_dtype or 'fp32'}, {os.cpu_count()} cores, {rounds} interleaved rounds; "
                      f"CPU-time ratio {cpu_ratio:.2f}; min cosine {cosine:.6f}")]


def bench_cpu_bf16(corpus, n: int) -> list[Row]:
    """Is bf16 autocast worth it on this CPU? (auto picks it only with native bf16 support.)"""
    from explore.encoders.encoder import TransformerEncoder, cpu_supports_bf16

    fp32 = load_encoder("minilm")
    bf16 = TransformerEncoder(fp32.spec, fp32.model_dir, precision="bf16")
    bf16.__dict__["model"] = fp32.model
    texts = [article_text(a) for a in corpus.articles[:n]]
    times, out = {}, {}
    for name, encoder in (("fp32", fp32), ("bf16", bf16), ("fp32 again", fp32)):
        start = time.perf_counter()
        out[name] = encoder.encode(texts, progress=False)
        times[name] = time.perf_counter() - start
    cosine = float((out["bf16"] * out["fp32"]).sum(axis=1).min())
    fp32_s = min(times["fp32"], times["fp32 again"])
    return [Row(GROUP, f"CPU bf16 autocast, {n} texts, texts/s", n / times["bf16"], n / fp32_s, "texts/s", "fp32",
                lower_is_better=False, notes=f"min cosine {cosine:.5f}; native bf16 on this CPU: {cpu_supports_bf16()} "
                                             f"(auto = {'bf16' if cpu_supports_bf16() else 'fp32'})")]


def run(quick: bool = False) -> list[Row]:
    corpus = open_corpus("vital")
    registry = spaces_for(corpus)
    generic = registry.open("generic")
    generic.index  # noqa: B018 - load, or build and cache
    seeds = np.random.default_rng(1).choice(len(corpus), 30 if quick else 300, replace=False)
    rows, exact_p95 = bench_index(generic, seeds)
    rows += bench_kinds(Neighbourhood(corpus, dict(registry.open_all())), seeds, exact_p95)
    rows += bench_cold_start(1 if quick else 3)
    rows += bench_encode(corpus, 16 if quick else 300, 1 if quick else 3)
    rows += bench_cpu_bf16(corpus, 8 if quick else 48)
    return rows

