"""Serving a million vectors from a compressed index, beside hnswlib, and the projection to English Wikipedia's 6.8M.

The vectors (384-d, stored fp16 and memory-mapped as a large space keeps them) are made as benchmarks/million_corpus.py
makes its generic space: vital's 10,033 real MiniLM vectors (assets/spaces/vital/generic), then each further row the
normalised 2:1 mean of two of them plus seeded noise (σ 0.02 a coordinate), so the space answers in MiniLM's geometry.
For each index this prints: build time (this process, both cores), size on disk, then in a fresh process: open time,
RSS after serving (VmRSS, with its anonymous and file-backed parts: a memory-mapped index's pages are the kernel's to
drop), p50/p95 latency of 1,000 seed queries at k=10 and at k=201 (a labelled column's relevant-first pool, explore/
relevant_first.py), and recall@10 against exact search over the same stored vectors (computed in blocks).

- hnswlib (the peer): the engine's hnswlib plan for the size (at 1M: M=32, ef_construction=200, ef=128);
- quantized (explore/spaces/quantized_index.py, `spaces build --index quantized`): usearch HNSW over per-row-scaled
  int8, memory-mapped, the k rows it returns rescored from the stored vectors (Space.nearest);
- faiss IVF-PQ (explore/spaces/ivfpq_index.py, `--index ivfpq`, `auto` from 1M): the engine's plan for the size (at 1M
  1,024 lists), 48 bytes a row (PQ48), nprobe 32, the top 100 (or k) rescored from the stored vectors; the index read
  with IO_FLAG_MMAP. (The README's and RESULTS.md's figures were measured with this benchmark's own faiss build of the
  same configuration, before the engine had the index kind.)

Run alone: python -m benchmarks compressed_index  (1M rows: about an hour on 2 shared cores, most of it the two HNSW
builds; --quick: 60,000 rows). `python -m benchmarks.compressed_index --rows N --out FILE` runs one size and writes JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.common import Row, cpu_description

ROWS, QUICK_ROWS = 1_000_000, 60_000
SEEDS = 1_000
POOL_K = 201  # the largest relevant-first pool (200) plus the seed: what a labelled column asks the generic space
WIKIPEDIA_ARTICLES = 6_800_000
DIM = 384
# The rest of a serving process at 1M, measured by `python -m benchmarks serving` (RESULTS.md group "serving", 2026-11-26):
# 1.862 GiB RSS after opening the corpus and its engine, 1.7 GB of it hnswlib's index (read into memory): Python, the
# corpus's id and title lookups, the space. Serving then touched file pages of the mapped corpus, title index and vectors
# (3.06 GiB peak after 100 seeds and 2,715 keystrokes): page cache, given back under pressure, so not counted here.
SERVING_REST_AT_1M_GIB = 1.862 - 1.7e9 / 2**30
REPO = Path(__file__).resolve().parent.parent


def stored_vectors(rows: int, directory: Path) -> np.ndarray:
    """The benchmark's vectors as a large space stores them: fp16, memory-mapped (see the module docstring)."""
    from benchmarks.million_corpus import recipe, synthetic_vectors
    from explore.corpus.registry import open_corpus
    from explore.spaces.registry import spaces_for

    vital = open_corpus("vital")
    real = np.asarray(spaces_for(vital, progress=False).open("generic").embeddings_, dtype=np.float32)
    first, second = recipe(vital, rows)
    path = directory / "vectors.npy"
    np.save(path, synthetic_vectors(real, first, second)[:rows].astype(np.float16), allow_pickle=False)
    return np.load(path, mmap_mode="r")


def exact_top10(vectors: np.ndarray, seeds: np.ndarray, block: int = 65_536) -> np.ndarray:
    """The exact top 10 of each seed's vector, over blocks of rows cast to float32 (never the whole matrix)."""
    queries = np.asarray(vectors[seeds], dtype=np.float32)
    best_rows = np.zeros((len(seeds), 0), dtype=np.int64)
    best_scores = np.zeros((len(seeds), 0), dtype=np.float32)
    for start in range(0, len(vectors), block):
        scores = queries @ np.asarray(vectors[start:start + block], dtype=np.float32).T
        rows = np.broadcast_to(np.arange(start, start + scores.shape[1]), scores.shape)
        best_rows = np.concatenate([best_rows, rows], axis=1)
        best_scores = np.concatenate([best_scores, scores], axis=1)
        keep = np.argsort(-best_scores, axis=1, kind="stable")[:, :10]
        best_rows, best_scores = np.take_along_axis(best_rows, keep, 1), np.take_along_axis(best_scores, keep, 1)
    return best_rows


def _build_engine_index(kind: str) -> Callable[[np.ndarray, Path], None]:
    def build(vectors: np.ndarray, path: Path) -> None:
        from explore.spaces.space import index_class
        from explore.spaces.vector_index import SearchPlan

        plan = SearchPlan.for_rows(len(vectors), kind)
        index_class(plan).planned(plan).fit(vectors).save(path)
    return build


@dataclass(frozen=True)
class Candidate:
    name: str  # the key of its results (JSON of earlier runs included)
    engine_kind: str  # the IndexKind that builds and serves it
    label: str
    file: str
    build: Callable[[np.ndarray, Path], None]


CANDIDATES = (
    Candidate("quantized", "quantized", "quantized: usearch int8 HNSW", "index.usearch",
              _build_engine_index("quantized")),
    Candidate("faiss", "ivfpq", "faiss IVF-PQ (PQ48) + rescoring", "index.faiss", _build_engine_index("ivfpq")),
    Candidate("hnsw", "hnsw", "hnswlib (before)", "index.hnsw", _build_engine_index("hnsw")),
)

# A fresh serving process: opens the index over the memory-mapped vectors, answers the seeds, reports its memory.
_SERVE = r"""
import json, sys, time
import numpy as np
kind, vectors_path, index_path, seeds_path, pool_k = sys.argv[1:6]
start = time.perf_counter()
vectors = np.load(vectors_path, mmap_mode="r")
from explore.spaces.space import Space
from explore.spaces.vector_index import IndexKind
space = Space("generic")._set_state(embeddings=vectors, corpus_name="bench", corpus_hash="-",
                                    encoder_fingerprint="-", precision="fp32", created="", encode_seconds=0.0,
                                    text_recipe="-", index_kind=IndexKind.parse(kind))
space.index_path_ = __import__("pathlib").Path(index_path)
space.index
nearest = lambda vector, k: space.nearest(vector, k)[0]
opened = time.perf_counter() - start
seeds = np.load(seeds_path)
found, small, pool = [], [], []
for row in seeds.tolist():
    vector = np.asarray(vectors[row], dtype=np.float32)
    t0 = time.perf_counter(); rows = nearest(vector, 10); small.append(time.perf_counter() - t0)
    t0 = time.perf_counter(); nearest(vector, int(pool_k)); pool.append(time.perf_counter() - t0)
    found.append([int(r) for r in rows])
from benchmarks.common import ProcessMemory
memory = ProcessMemory.now()
print(json.dumps({"open_s": opened, "k10_ms": [t * 1000 for t in small], "pool_ms": [t * 1000 for t in pool],
                  "found": found, "rss_gib": memory.rss, "anon_gib": memory.anon, "file_gib": memory.file,
                  "hwm_gib": memory.peak}))
"""


def measure(rows: int, out: Path | None = None, directory: Path | None = None,
            only: tuple[str, ...] = tuple(c.name for c in CANDIDATES)) -> dict:
    """The candidates named in `only` at `rows` vectors; the results (written to `out` after each, for a long run)."""
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        tmp = Path(tmp)
        start = time.perf_counter()
        vectors = stored_vectors(rows, tmp)
        seeds = np.random.default_rng(40).choice(rows, SEEDS, replace=False)
        np.save(tmp / "seeds.npy", seeds)
        made = time.perf_counter() - start
        start = time.perf_counter()
        truth = exact_top10(vectors, seeds)
        result = {"rows": rows, "seeds": SEEDS, "cpu": cpu_description(), "vectors_s": made,
                  "exact_s": time.perf_counter() - start, "candidates": {}}
        for candidate in (c for c in CANDIDATES if c.name in only):
            path = tmp / candidate.file
            load = os.getloadavg()[0]
            start = time.perf_counter()
            candidate.build(vectors, path)
            built = time.perf_counter() - start
            served = _serve(candidate.engine_kind, tmp / "vectors.npy", path, tmp / "seeds.npy")
            found = served.pop("found")
            recall = float(np.mean([len(set(f) & set(t.tolist())) / 10 for f, t in zip(found, truth)]))
            result["candidates"][candidate.name] = {
                "label": candidate.label, "build_s": built, "load_at_build": load, "bytes": path.stat().st_size,
                "recall": recall, **served}
            if out is not None:
                out.write_text(json.dumps(result, indent=1))
            print(f"{candidate.name}: built in {built:.0f} s, recall@10 {recall:.3f}", file=sys.stderr, flush=True)
    return result


def _serve(kind: str, vectors: Path, index: Path, seeds: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", _SERVE, kind, str(vectors), str(index), str(seeds), str(POOL_K)],
                          cwd=REPO, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def projection(candidate: dict, rows: int) -> dict:
    """GiB at 6.8M rows: the index's bytes a row times 6.8M, plus the rest of a serving process scaled by rows."""
    index = candidate["bytes"] / rows * WIKIPEDIA_ARTICLES / 2**30
    rest = SERVING_REST_AT_1M_GIB * WIKIPEDIA_ARTICLES / 1_000_000
    return {"index_gib": index, "rest_gib": rest, "total_gib": index + rest,
            "vectors_gib": WIKIPEDIA_ARTICLES * DIM * 2 / 2**30}


def rows_of(result: dict) -> list[Row]:
    from explore.spaces.vector_index import SearchPlan

    n = result["rows"]
    peer = result["candidates"].get("hnsw")
    plan = SearchPlan.for_rows(n, "hnsw")
    peer_name = f"hnswlib M{plan.m} efc{plan.ef_construction}, ef {plan.ef_search}"
    p = lambda values, q: float(np.percentile(values, q))  # noqa: E731
    table = []
    labels = {c.name: c.label for c in CANDIDATES}
    for name, got in result["candidates"].items():
        if name == "hnsw":
            continue
        versus = (lambda key, default=None: peer[key] if peer else default)  # noqa: E731
        if peer is None:  # a long run of some indexes only (--only): say so instead of the peer's figures
            peer_name = "hnswlib not run at this size: the serving rows hold its 1M build (1,482 s, 1.7 GB, recall 0.961)"
        where = f"{n:,} x {DIM} fp16 vectors, {labels.get(name, got['label'])}"
        table += [
            Row("compressed index", f"build, {where}", got["build_s"], versus("build_s"), "s", peer_name,
                notes=f"load average {got['load_at_build']:.1f} at its start (hnswlib's: "
                      f"{versus('load_at_build', float('nan')):.1f}); recall@10 {got['recall']:.3f}"),
            Row("compressed index", f"size on disk, {where}", got["bytes"] / 2**20,
                peer["bytes"] / 2**20 if peer else None, "MiB", "hnswlib" if peer else peer_name, notes=f"{got['bytes'] / n:.0f} bytes a row (hnswlib {versus('bytes', 0) / n:.0f})"),
            Row("compressed index", f"open in a fresh process, {where}", got["open_s"], versus("open_s"), "s",
                "hnswlib" if peer else peer_name,
                notes="sha256 of the file, then load (mapped: usearch view=True, faiss IO_FLAG_MMAP)"),
            Row("compressed index", f"RSS of the serving process after {result['seeds']:,} seeds, {where}",
                got["rss_gib"], versus("rss_gib"), "GiB", "hnswlib" if peer else peer_name,
                notes=f"anonymous {got['anon_gib']:.2f} + file-backed {got['file_gib']:.2f} GiB (hnswlib "
                      f"{versus('anon_gib', 0):.2f} + {versus('file_gib', 0):.2f}); peak {got['hwm_gib']:.2f}"),
            Row("compressed index", f"seed query p95, k=10, {where}", p(got["k10_ms"], 95),
                p(peer["k10_ms"], 95) if peer else None, "ms", "hnswlib" if peer else peer_name, spread=f"p50 {p(got['k10_ms'], 50):.2f}",
                notes=f"recall@10 against exact search {got['recall']:.3f} (hnswlib {versus('recall', 0):.3f}); "
                      f"k={POOL_K} (a relevant-first pool): p95 {p(got['pool_ms'], 95):.2f} ms (hnswlib "
                      f"{p(peer['pool_ms'], 95) if peer else float('nan'):.2f})"),
        ]
        if n >= 1_000_000:
            ours, before = projection(got, n), projection(peer, n) if peer else None
            table.append(Row(
                "compressed index", f"English Wikipedia ≈6.8M served with {labels.get(name, got['label'])}, RSS (projection)",
                ours["total_gib"],
                before["total_gib"] if before else None, "GiB",
                "the same with hnswlib" if peer else "with hnswlib: 1,700 B x 6.8M + 1.90 = 12.7 GiB (serving rows)",
                notes=f"recall@10 at {n:,} {got['recall']:.3f}; index {got['bytes'] / n:.0f} B/row x 6.8M = {ours['index_gib']:.2f} GiB, all of it counted "
                      f"resident though mapped (hnswlib {before['index_gib'] if before else float('nan'):.2f}) + the "
                      f"rest of an opened 1M corpus and engine (RESULTS.md serving: 1.862 GiB after opening less the "
                      f"1.58 GiB hnswlib index = {SERVING_REST_AT_1M_GIB:.2f}) x 6.8 = {ours['rest_gib']:.2f} GiB; "
                      f"target <= 8, the difference left to the page cache of the mapped corpus files (≈6 GiB) and "
                      f"fp16 vectors ({ours['vectors_gib']:.1f} GiB), of which a seed change reads a few pages "
                      f"(its cards, the k rows rescored)"))
    if peer is None:  # drop the "(hnswlib ...)" asides that would show nothing
        for row in table:
            row.notes = re.sub(r" ?\(hnswlib[^()]*\)", "", row.notes)
    return table


def run(quick: bool = False) -> list[Row]:
    print(f"CPU: {cpu_description()}")
    return rows_of(measure(QUICK_ROWS if quick else ROWS))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compressed_index", description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--out", type=Path, required=True, help="JSON written after each index (a long run)")
    parser.add_argument("--dir", type=Path, default=None, help="where the vectors and indexes are written (temporary)")
    parser.add_argument("--only", nargs="+", choices=[c.name for c in CANDIDATES], default=[c.name for c in CANDIDATES],
                        help="some of the indexes (a long run on loaded cores)")
    args = parser.parse_args(argv)
    result = measure(args.rows, args.out, args.dir, tuple(args.only))
    from benchmarks.__main__ import table

    print(table(rows_of(result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
