"""A million articles served by one machine: the columnar corpus (explore/corpus/columnar_store.py) with its
memory-mapped generic space and the saved index its manifest names (faiss IVF-PQ, what `auto` serves a million rows
with; `--index hnsw` or `quantized` for the others), each figure beside a peer measured in the same run.

- open + peak RSS: a fresh process opens the 1M corpus and its engine (ours) / reads the same Arrow file's
  ids, titles and texts whole into Python with plain pyarrow (the least an in-memory corpus would hold);
- seed change p95 (server time: the links and generic columns' top 10 and their cards' articles read): ours at 1M / the
  in-memory path on vital (10,033 articles, exact search), same code, same work per seed;
- recall@10 of the generic column against exact search over the same memory-mapped vectors (the peer, 1.0), with
  both one's times;
- title search p95 per keystroke (every prefix of 100 titles typed): ours at 1M / the in-memory TitleSearch
  on vital; quality: how often ours gives the in-memory search's first answer on vital, the same keystrokes;
- the projection to English Wikipedia's 6.8M leads, its arithmetic in the row's notes.

The index kind is set as `spaces build --index` sets it (recorded in the space's manifest, the index built and cached
then); the serving process reads it from the manifest, as the app does. Needs the corpus built first (python -m
benchmarks.million_corpus; --quick makes and serves 60,000 rows).
Run alone: python -m benchmarks serving   (or python -m benchmarks.serving --index hnsw --out FILE for another index)
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from benchmarks.common import Row, cpu_description, load_average
from explore.spaces.vector_index import IndexKind

NAME, QUICK_NAME = "million", "m60k"
SEEDS, KEYSTROKE_TITLES = 100, 100
WIKIPEDIA_ARTICLES = 6_800_000
GPU_TEXTS_PER_S = 2_480  # MiniLM on one H200 (RESULTS.md, "On a GPU")
CPU_TEXTS_PER_S = 52.3  # MiniLM on the 2 cores of RESULTS.md (group "encode": openvino fp32, what auto picks there)
CPU_CORES = 2
INDEX = IndexKind.IVFPQ  # what `auto` serves a million rows with (explore/spaces/vector_index.py)
REPO = Path(__file__).resolve().parent.parent

_SERVE = r"""
import json, sys, time
import numpy as np
from benchmarks.common import ProcessMemory
from explore.corpus.registry import open_corpus
from explore.neighbours import Neighbourhood
from explore.spaces.vector_index import top_k
from explore.spaces.store import EMBEDDINGS_FILE
import faiss, hnswlib, pyarrow  # the libraries an engine may load: counted in the base, not in what grows with rows
base = ProcessMemory.now()
start = time.perf_counter()
corpus = open_corpus(sys.argv[1])
opened_corpus = time.perf_counter() - start
engine = Neighbourhood.open(corpus, progress=False, encode=False)
generic = engine.spaces["generic"]
if not generic.search_.exact:
    generic.index
opened = time.perf_counter() - start
at_open = ProcessMemory.now()
rng = np.random.default_rng(5)
seeds = rng.choice(len(corpus), int(sys.argv[2]), replace=False)
times, parts, served = [], {"links": [], "generic": [], "cards": []}, {}
for row in seeds.tolist():
    seed = corpus.articles[row]
    t0 = time.perf_counter()
    links = engine.neighbours(seed, "links", 10)
    t1 = time.perf_counter()
    nearest = engine.neighbours(seed, "generic", 10)
    t2 = time.perf_counter()
    cards = [corpus[n.id] for n in links + nearest]
    t3 = time.perf_counter()
    times.append(t3 - t0)
    for part, seconds in zip(parts, (t1 - t0, t2 - t1, t3 - t2)):
        parts[part].append(seconds)
    served[row] = {corpus.position[n.id] for n in nearest}
titles = [corpus.articles[int(r)].title for r in rng.choice(len(corpus), int(sys.argv[3]), replace=False)]
typed = [t[:n] for t in titles for n in range(1, len(t) + 1)]
searches = []
for query in typed:
    t0 = time.perf_counter()
    corpus.title_search.search(query, 8)
    searches.append(time.perf_counter() - t0)
after = ProcessMemory.now()
hits, exact = 0, []
for row, found in served.items():  # after the memory readings: exact search pages every vector in
    t0 = time.perf_counter()
    truth = set(top_k(generic.similarities_to_all(generic.vector(row)), 11)[0].tolist()) - {row}
    exact.append(time.perf_counter() - t0)
    hits += len(truth & found)
index_path = generic.index_path_ if not generic.search_.exact else None
print(json.dumps({"rows": len(corpus), "search": generic.search_.method, "open_corpus_s": opened_corpus,
                  "open_s": opened, "base": base.__dict__, "at_open": at_open.__dict__, "after": after.__dict__,
                  "seed_ms": [t * 1000 for t in times],
                  "parts_ms": {part: [t * 1000 for t in seconds] for part, seconds in parts.items()},
                  "exact_ms": [t * 1000 for t in exact], "search_ms": [t * 1000 for t in searches],
                  "recall": hits / (10 * len(seeds)), "keystrokes": len(typed),
                  "index_bytes": index_path.stat().st_size if index_path else 0,
                  "vector_bytes": (generic.directory_ / EMBEDDINGS_FILE).stat().st_size, "dim": generic.dim}))
"""

_PLAIN = r"""
import json, sys, time
import pyarrow as pa
from benchmarks.common import ProcessMemory
start = time.perf_counter()
table = pa.ipc.open_file(pa.memory_map(sys.argv[1], "r")).read_all()
columns = {name: table.column(name).to_pylist() for name in ("id", "title", "text")}
print(json.dumps({"open_s": time.perf_counter() - start, "rss_gib": ProcessMemory.now().peak}))
"""


def _run(code: str, *args) -> dict:
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=REPO, capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def agreement_on_vital(titles: int = KEYSTROKE_TITLES) -> tuple[float, int]:
    """Share of keystrokes (every prefix of `titles` vital titles) where the columnar search's first answer is
    the in-memory search's, on vital written columnar."""
    import tempfile

    from explore.corpus.columnar_store import save_columnar
    from explore.corpus.registry import open_corpus
    from explore.corpus.store import load_corpus

    vital = open_corpus("vital")
    with tempfile.TemporaryDirectory() as tmp:
        save_columnar(vital.name, vital.provenance, [vital.articles], Path(tmp) / "vital")
        columnar = load_corpus(Path(tmp) / "vital")
        rng = np.random.default_rng(5)
        picked = [vital.articles[int(r)].title for r in rng.choice(len(vital), titles, replace=False)]
        typed = [t[:n] for t in picked for n in range(1, len(t) + 1)]
        same = sum([m.ids for m in columnar.title_search.search(q, 1)] == [m.ids for m in vital.title_search.search(q, 1)]
                   for q in typed)
    return same / len(typed), len(typed)


def serve_with(name: str, kind: IndexKind) -> None:
    """Make corpus `name`'s generic space serve with `kind` as `spaces build --index` does: recorded in its manifest,
    the index built and cached now, so the serving process only opens it."""
    from explore.corpus.registry import open_corpus
    from explore.spaces.registry import spaces_for

    spaces_for(open_corpus(name), progress=False).use_index("generic", kind)


def projection(ours: dict, corpus_gib: float, rows: int) -> tuple[float, str]:
    """English Wikipedia's serving RAM from this run, and the arithmetic with its disk and encoding hours: the
    libraries' base as measured, everything above it (after serving) times 6.8M / rows."""
    scale = WIKIPEDIA_ARTICLES / rows
    base, after = ours["base"], ours["after"]
    ram = base["rss"] + max(after["peak"] - base["rss"], 0.0) * scale
    held = base["anon"] + max(after["anon"] - base["anon"], 0.0) * scale
    index_gib, vectors_gib = ours["index_bytes"] * scale / 2**30, ours["vector_bytes"] * scale / 2**30
    per_core = CPU_TEXTS_PER_S / CPU_CORES
    notes = (f"RAM: {base['rss']:.2f} GiB (interpreter and libraries, before opening) + ({after['peak']:.2f} peak "
             f"after serving − {base['rss']:.2f}) × {scale:.1f} = {ram:.2f} GiB, linear in rows, not a 6.8M run "
             f"(target ≤ 8 GiB); of it anonymous, what the process itself holds: {base['anon']:.2f} + "
             f"({after['anon']:.2f} − {base['anon']:.2f}) × {scale:.1f} = {held:.2f} GiB, the rest pages of mapped "
             f"files the kernel reclaims under pressure. Disk: corpus {corpus_gib:.2f} × {scale:.1f} = "
             f"{corpus_gib * scale:.1f} GiB + fp16 vectors {ours['vector_bytes'] / rows:.0f} B a row × 6.8M = "
             f"{vectors_gib:.1f} GiB + {ours['search']} index {ours['index_bytes'] / rows:.0f} B a row × 6.8M = "
             f"{index_gib:.2f} GiB. MiniLM encoding: {WIKIPEDIA_ARTICLES / GPU_TEXTS_PER_S / 3600:.2f} h on one H200 "
             f"at {GPU_TEXTS_PER_S:,} texts/s (GPU rows), {WIKIPEDIA_ARTICLES / per_core / 3600:.0f} h of one CPU core "
             f"at {per_core:.1f} texts/s a core (group encode)")
    return ram, notes


def run(quick: bool = False, index: IndexKind = INDEX) -> list[Row]:
    from explore.corpus.registry import corpus_path

    print(f"CPU: {cpu_description()}")
    name = QUICK_NAME if quick else NAME
    if not (corpus_path(name) / "articles.arrow").exists():
        from benchmarks.million_corpus import make_million_corpus

        make_million_corpus(60_000 if quick else 1_000_000, name, kind=index)
    serve_with(name, index)
    seeds, titles = (20, 20) if quick else (SEEDS, KEYSTROKE_TITLES)
    load = load_average()
    ours = _run(_SERVE, name, seeds, titles)
    if ours["search"] != index.value:
        raise RuntimeError(f"corpus {name!r} was served by {ours['search']}, not the {index} index its manifest names")
    peer = _run(_SERVE, "vital", seeds, titles)
    plain = _run(_PLAIN, corpus_path(name) / "articles.arrow")
    same, keystrokes = agreement_on_vital(titles)
    n, kind = ours["rows"], f"{index} index"
    p95 = lambda values: float(np.percentile(values, 95))  # noqa: E731
    spread = lambda values: f"p50 {np.percentile(values, 50):.2f}, max {max(values):.1f}"  # noqa: E731
    on_disk = sum(p.stat().st_size for p in corpus_path(name).iterdir()) / 2**30
    at_open, after = ours["at_open"], ours["after"]
    parts = ", ".join(f"{part} {p95(ms):.2f}" for part, ms in ours["parts_ms"].items())
    rows = [
        Row("serving", f"open a {n:,}-article corpus and its engine (fresh process), {kind}", ours["open_s"],
            plain["open_s"], "s", "plain pyarrow: ids, titles, texts read whole into Python",
            notes=f"corpus files mapped in {ours['open_corpus_s']:.2f} s, the rest the generic space (sha256 of its "
                  f"fp16 vectors, memory-mapped) and its saved {index} index ({ours['index_bytes'] / 2**20:.0f} MiB); "
                  f"corpus on disk {on_disk:.2f} GiB; load average {load} at the start"),
        Row("serving", f"peak RSS after opening, {n:,} articles, {kind}", at_open["peak"], plain["rss_gib"], "GiB",
            "plain pyarrow whole read",
            notes=f"{at_open['anon']:.2f} anonymous + {at_open['file']:.2f} file-backed; after {seeds} seed changes "
                  f"and {ours['keystrokes']:,} keystrokes: peak {after['peak']:.2f} GiB ({after['anon']:.2f} anonymous "
                  f"+ {after['file']:.2f} file-backed); before opening (interpreter, libraries) "
                  f"{ours['base']['rss']:.2f}"
                  + ("; the hnswlib index holds the vectors as float32" if index is IndexKind.HNSW else "")),
        Row("serving", f"seed change p95 (server time: links and generic top 10, their cards read), {n:,} articles, "
            f"{kind}", p95(ours["seed_ms"]), p95(peer["seed_ms"]), "ms", "in-memory path on vital, 10,033 articles",
            spread=spread(ours["seed_ms"]),
            notes=f"target < 150 ms; {seeds} random seeds; p95 of its parts: {parts} ms; recall@10 of the generic "
                  f"column against exact search over the same vectors {ours['recall']:.3f}"),
        Row("serving", f"recall@10 of the generic column against exact search, {n:,} articles, {kind}",
            ours["recall"], 1.0, "", "exact search over the same memory-mapped vectors", lower_is_better=False,
            notes=f"target ≥ 0.95; {seeds} random seeds; the generic column p95 "
                  f"{p95(ours['parts_ms']['generic']):.2f} ms with the index, {p95(ours['exact_ms']):.1f} ms by exact "
                  f"search (a pass over every vector)"),
        Row("serving", f"title search p95 per keystroke, {n:,} titles", p95(ours["search_ms"]),
            p95(peer["search_ms"]), "ms", "in-memory TitleSearch on vital's 10,033", spread=spread(ours["search_ms"]),
            notes=f"target < 50 ms; every prefix of {titles} random titles ({ours['keystrokes']:,} keystrokes); "
                  f"same first answer as the in-memory search on vital: {same:.1%} of {keystrokes:,} keystrokes"),
    ]
    ram, notes = projection(ours, on_disk, n)
    rows.append(Row("serving", f"English Wikipedia ≈6.8M on one machine, peak RSS (projection), {kind}", ram,
                    after["peak"], "GiB", f"measured after serving {n:,} articles, this run", notes=notes))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.serving", description=__doc__.split("\n")[0])
    parser.add_argument("--index", choices=[str(kind) for kind in IndexKind if kind is not IndexKind.AUTO],
                        default=str(INDEX), help=f"the index the generic space serves with (default {INDEX})")
    parser.add_argument("--quick", action="store_true", help="60,000 rows, 20 seeds")
    parser.add_argument("--out", type=Path, required=True, help="JSON file for the rows")
    args = parser.parse_args(argv)
    rows = run(args.quick, IndexKind.parse(args.index))
    args.out.write_text(json.dumps({"rows": [row.as_dict() for row in rows]}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
