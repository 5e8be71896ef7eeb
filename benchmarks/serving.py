"""A million articles served by one machine: the columnar corpus (explore/corpus/columnar_store.py) with its
memory-mapped generic space and saved index (hnswlib, or the quantized one its manifest names: spaces build --index),
each figure beside a peer measured in the same run.

- open + peak RSS: a fresh process opens the 1M corpus and its engine (ours) / reads the same Arrow file's
  ids, titles and texts whole into Python with plain pyarrow (the least an in-memory corpus would hold);
- seed change p95 (server time: the links and generic columns' top 10 and their cards' articles read): ours at 1M / the
  in-memory path on vital (10,033 articles, exact search), same code, same work per seed; quality: recall@10
  of the index against exact search over the same memory-mapped vectors;
- title search p95 per keystroke (every prefix of 100 titles typed): ours at 1M / the in-memory TitleSearch
  on vital; quality: how often ours gives the in-memory search's first answer on vital, the same keystrokes;
- the projection to English Wikipedia's 6.8M leads.

Needs the corpus built first (python -m benchmarks.million_corpus; --quick makes and serves 60,000 rows).
Run alone: python -m benchmarks serving
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.common import Row, cpu_description

NAME, QUICK_NAME = "million", "m60k"
SEEDS, KEYSTROKE_TITLES = 100, 100
WIKIPEDIA_ARTICLES = 6_800_000
GPU_TEXTS_PER_S = 2_480  # MiniLM on one H200 (RESULTS.md, "On a GPU")
REPO = Path(__file__).resolve().parent.parent

_SERVE = r"""
import json, resource, sys, time
import numpy as np
start = time.perf_counter()
from explore.corpus.registry import open_corpus
from explore.neighbours import Neighbourhood
corpus = open_corpus(sys.argv[1])
opened_corpus = time.perf_counter() - start
engine = Neighbourhood.open(corpus, progress=False, encode=False)
generic = engine.spaces["generic"]
if not generic.search_.exact:
    generic.index
opened = time.perf_counter() - start
rss_open = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
rng = np.random.default_rng(5)
seeds = rng.choice(len(corpus), int(sys.argv[2]), replace=False)
times, served = [], {}
for row in seeds.tolist():
    seed = corpus.articles[row]
    t0 = time.perf_counter()
    columns = {query: engine.neighbours(seed, query, 10) for query in ("links", "generic")}
    cards = [corpus[n.id] for found in columns.values() for n in found][:40]
    times.append(time.perf_counter() - t0)
    served[row] = {corpus.position[n.id] for n in columns["generic"]}
titles = [corpus.articles[int(r)].title for r in rng.choice(len(corpus), int(sys.argv[3]), replace=False)]
typed = [t[:n] for t in titles for n in range(1, len(t) + 1)]
searches = []
for query in typed:
    t0 = time.perf_counter()
    corpus.title_search.search(query, 8)
    searches.append(time.perf_counter() - t0)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
hits = 0
if not generic.search_.exact:  # after the RSS reading: exact search pages every vector in
    from explore.spaces.vector_index import top_k
    for row, found in served.items():
        hits += len((set(top_k(generic.similarities_to_all(generic.vector(row)), 11)[0].tolist()) - {row}) & found)
print(json.dumps({"rows": len(corpus), "search": generic.search_.method, "open_corpus_s": opened_corpus, "open_s": opened, "rss_open_gib": rss_open,
                  "rss_gib": rss,
                  "seed_ms": [t * 1000 for t in times], "search_ms": [t * 1000 for t in searches],
                  "recall": hits / (10 * len(seeds)) if not generic.search_.exact else 1.0,
                  "keystrokes": len(typed)}))
"""

_PLAIN = r"""
import json, resource, sys, time
import pyarrow as pa
start = time.perf_counter()
table = pa.ipc.open_file(pa.memory_map(sys.argv[1], "r")).read_all()
columns = {name: table.column(name).to_pylist() for name in ("id", "title", "text")}
print(json.dumps({"open_s": time.perf_counter() - start,
                  "rss_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}))
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


def run(quick: bool = False) -> list[Row]:
    from explore.corpus.registry import corpus_path

    print(f"CPU: {cpu_description()}")
    name = QUICK_NAME if quick else NAME
    if not (corpus_path(name) / "articles.arrow").exists():
        from benchmarks.million_corpus import make_million_corpus

        make_million_corpus(60_000 if quick else 1_000_000, name)
    seeds, titles = (20, 20) if quick else (SEEDS, KEYSTROKE_TITLES)
    ours = _run(_SERVE, name, seeds, titles)
    peer = _run(_SERVE, "vital", seeds, titles)
    plain = _run(_PLAIN, corpus_path(name) / "articles.arrow")
    same, keystrokes = agreement_on_vital(titles)
    n = ours["rows"]
    p95 = lambda values: float(np.percentile(values, 95))  # noqa: E731
    spread = lambda values: f"p50 {np.percentile(values, 50):.2f}, max {max(values):.1f}"  # noqa: E731
    on_disk = sum(p.stat().st_size for p in corpus_path(name).iterdir()) / 2**30
    rows = [
        Row("serving", f"open a {n:,}-article corpus and its engine (fresh process)", ours["open_s"], plain["open_s"],
            "s", "plain pyarrow: ids, titles, texts read whole into Python",
            notes=f"corpus files mapped in {ours['open_corpus_s']:.2f} s, the rest the generic space (sha256 of its "
                  f"fp16 vectors, memory-mapped) and its saved index ({ours['search']}); corpus on disk {on_disk:.2f} GiB"),
        Row("serving", f"peak RSS after opening, {n:,} articles", ours["rss_open_gib"], plain["rss_gib"], "GiB",
            "plain pyarrow whole read", notes=f"after {seeds} seed changes and {ours['keystrokes']:,} keystrokes: "
                                             f"{ours['rss_gib']:.2f} GiB; the index holds the vectors as float32"),
        Row("serving", f"seed change p95 (server time: links and generic top 10, their cards read), {n:,} articles",
            p95(ours["seed_ms"]), p95(peer["seed_ms"]), "ms", "in-memory path on vital, 10,033 articles",
            spread=spread(ours["seed_ms"]),
            notes=f"target < 150 ms; {seeds} random seeds; recall@10 of the generic column against exact search "
                  f"over the same vectors {ours['recall']:.3f}"),
        Row("serving", f"title search p95 per keystroke, {n:,} titles", p95(ours["search_ms"]),
            p95(peer["search_ms"]), "ms", "in-memory TitleSearch on vital's 10,033", spread=spread(ours["search_ms"]),
            notes=f"target < 50 ms; every prefix of {titles} random titles ({ours['keystrokes']:,} keystrokes); "
                  f"same first answer as the in-memory search on vital: {same:.1%} of {keystrokes:,} keystrokes"),
    ]
    scale = WIKIPEDIA_ARTICLES / n
    rows.append(Row(
        "serving", "English Wikipedia ≈6.8M on one machine, peak RSS (projection)", ours["rss_gib"] * scale,
        ours["rss_gib"], "GiB", f"measured after serving {n:,} articles, this run", notes=f"linear in rows from this run's peak after serving, not measured "
        f"(the hnswlib index ≈11.5 GiB of it, the rest mostly pages of the memory-mapped files), disk ≈{on_disk * scale:.0f} GiB corpus + 4.9 GiB fp16 vectors + "
        f"≈11.5 GiB index; MiniLM encoding {WIKIPEDIA_ARTICLES / GPU_TEXTS_PER_S / 3600:.2f} h on one H200 at "
        f"{GPU_TEXTS_PER_S:,} texts/s (GPU rows); title index build a sort of ≈35M word starts"))
    return rows
