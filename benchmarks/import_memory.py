"""The dump import's peak memory and speed at real record sizes (about 20 KB of text and source text and 80 outgoing
links a page, tests/cirrus_dump_fixture.py `real_size`), at growing numbers of pages, beside a plain loop doing the
same reading on the same file; each run in a fresh process, so its peak RSS is its own. The growth per page between
sizes is what decides whether all of Wikipedia fits (issue #40 asks for at most 1 KB a page).

Run alone: python -m benchmarks import_memory
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import Row, cpu_description

SIZES, QUICK_SIZES = (10_000, 30_000, 100_000), (1_000, 3_000)
REPO_ROOT = Path(__file__).resolve().parent.parent

_OURS = """
import json, sys, time
from benchmarks.import_memory import peak_mb
from explore.corpus.dump_import import finish_import, import_dump
started = time.perf_counter()
corpus, report = import_dump(sys.argv[1], "memory", progress=False, columnar=True)
seconds = time.perf_counter() - started
print(json.dumps({"articles": len(corpus), "seconds": seconds,
                  "peak_mb": peak_mb()}))
"""
_PEER = """
import json, sys, time
from benchmarks.import_memory import peak_mb
from benchmarks.dump_import import plain_loop
started = time.perf_counter()
kept = plain_loop(sys.argv[1], sys.argv[2])
print(json.dumps({"articles": kept, "seconds": time.perf_counter() - started,
                  "peak_mb": peak_mb()}))
"""


def peak_mb() -> float:
    """This process's peak RSS: VmHWM, not ru_maxrss (which keeps the forking parent's peak across exec on Linux)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024


def _run(code: str, *args: str, home: str) -> dict:
    env = {**os.environ, "ASPECTNAV_HOME": home, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True,
                          cwd=REPO_ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(pages: int, scratch: Path) -> tuple[dict, dict, float]:
    """(ours, peer, MB decompressed) for a real-size dump of `pages` pages."""
    from benchmarks.dump_import import scaled_articles
    from explore.corpus.vital import build_vital_corpus
    from tests.cirrus_dump_fixture import write_dump

    path = scratch / f"enwiki-{pages}-cirrussearch-content.json.gz"
    write_dump(path, scaled_articles(build_vital_corpus().articles, pages), odd=False, compresslevel=1,
               real_size=True)
    import gzip

    with gzip.open(path, "rb") as lines:
        decompressed = sum(len(line) for line in lines) / 1e6
    home = tempfile.mkdtemp(prefix="aspectnav-memory-", dir=scratch)
    ours = _run(_OURS, str(path), home=home)
    peer = _run(_PEER, str(path), str(scratch / "plain.parquet"), home=home)
    path.unlink()
    return ours, peer, decompressed


def run(quick: bool = False) -> list[Row]:
    print(f"CPU: {cpu_description()}")
    rows, measured = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for pages in QUICK_SIZES if quick else SIZES:
            ours, peer, decompressed = measure(pages, Path(scratch))
            measured.append((pages, ours, peer))
            growth = ""
            if len(measured) > 1:
                (before, was, peer_was), now = measured[-2], (pages, ours, peer)
                per_page = (ours["peak_mb"] - was["peak_mb"]) * 1e6 / (pages - before)
                peer_per_page = (peer["peak_mb"] - peer_was["peak_mb"]) * 1e6 / (pages - before)
                growth = (f"; growth from {before:,} pages: {per_page:,.0f} bytes a page (peer "
                          f"{peer_per_page:,.0f}), target at most 1,000")
            rows.append(Row("import memory", f"dump import --columnar, {pages:,} real-size pages "
                                             f"({decompressed:,.0f} MB decompressed): peak RSS",
                            ours["peak_mb"], peer["peak_mb"], "MB", "plain gzip+json+pyarrow loop",
                            notes=f"ours {ours['articles'] / ours['seconds']:,.0f} articles/s, peer "
                                  f"{peer['articles'] / peer['seconds']:,.0f} (target at least 1,500){growth}"))
            print(rows[-1].metric, rows[-1].ours, rows[-1].peer, rows[-1].notes, flush=True)
    return rows
