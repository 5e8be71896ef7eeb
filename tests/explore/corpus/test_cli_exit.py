"""Issue #38, item 12: `corpus stats` once aborted at exit ("terminate called without an active exception"):
Arrow's thread pool, started by a threaded Parquet read, was torn down while a worker lived. Reading a stored
corpus starts no native thread, so nothing can outlive the command; the command exits 0, run after run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from explore.corpus.registry import store_corpus
from tests.fixture_corpora import fixture_corpus

ROOT = Path(__file__).resolve().parents[3]
COUNT_THREADS = """
import os, pyarrow
from explore.corpus.registry import open_corpus
before = len(os.listdir("/proc/self/task"))
corpus = open_corpus("fixture")
corpus.stats()
print(before, len(os.listdir("/proc/self/task")))
"""


def run(args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through /proc")
def test_opening_a_stored_corpus_starts_no_native_thread():
    store_corpus(fixture_corpus())
    done = run(["-c", COUNT_THREADS])
    before, after = map(int, done.stdout.split())
    assert after == before, f"{after - before} native thread(s) started by opening a corpus"


@pytest.mark.slow
def test_corpus_stats_exits_cleanly_run_after_run():
    store_corpus(fixture_corpus())
    for _ in range(5):
        done = run(["-m", "explore", "corpus", "stats", "fixture"])
        assert done.returncode == 0 and "terminate called" not in done.stderr, done.stderr
        assert "fixture: 120 articles" in done.stdout
