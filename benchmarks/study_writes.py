"""Study: answers/s written by concurrent participants to one SQLite file, against raw sqlite3.

Ours goes through the whole participant flow (validation, the shown list, one transaction per
answer); the peer inserts the same JSON payload per answer with plain sqlite3 in WAL mode.
Run alone: python -m benchmarks study_writes
"""
from __future__ import annotations

import json
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.common import Row
from study.sessions import open_flow
from study.store import StoreConfig, open_store
from study.synthetic import SyntheticProvider, tiny_corpus, tiny_study


def _run_threads(count: int, target) -> float:
    barrier = threading.Barrier(count + 1)
    threads = [threading.Thread(target=target, args=(i, barrier)) for i in range(count)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def ours(participants: int, directory: Path) -> tuple[int, float]:
    corpus = tiny_corpus()
    study = tiny_study(directory)
    url = f"sqlite:///{directory / 'ours.sqlite'}"
    open_store(study.name, StoreConfig(url=url))
    flows, codes = [], []
    for _ in range(participants):
        flow = open_flow(study, open_store(study.name, StoreConfig(url=url)), SyntheticProvider(corpus), corpus)
        flows.append(flow)
        codes.append(flow.start())

    def participant(i, barrier):
        barrier.wait()
        while (screen := flows[i].next_task(codes[i])) is not None:
            flows[i].submit(codes[i], screen.task_id, [c.id for c in screen.candidates[: screen.rank_depth]])

    seconds = _run_threads(participants, participant)
    return participants * len(study.tasks), seconds


def peer(participants: int, tasks: int, directory: Path) -> tuple[int, float]:
    path = directory / "peer.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE answers (participant INTEGER, task TEXT, ranking TEXT, shown TEXT, at REAL, "
                   "UNIQUE (participant, task))")
    payload = json.dumps([f"a{i:02d}" for i in range(12)])

    def participant(i, barrier):
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        barrier.wait()
        for t in range(tasks):
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO answers VALUES (?, ?, ?, ?, ?)", (i, f"t{t}", payload[:40], payload, time.time()))
            db.execute("COMMIT")
        db.close()

    seconds = _run_threads(participants, participant)
    return participants * tasks, seconds


def run(quick: bool = False) -> list[Row]:
    participants = 10 if quick else 30
    results = []
    for _ in range(1 if quick else 3):
        with tempfile.TemporaryDirectory() as tmp:
            n_ours, s_ours = ours(participants, Path(tmp))
            n_peer, s_peer = peer(participants, n_ours // participants, Path(tmp))
            results.append((n_ours / s_ours, n_peer / s_peer))
    results.sort()
    mid = results[len(results) // 2]
    return [Row("study", f"answers/s, {participants} concurrent participants (SQLite WAL)", mid[0], mid[1],
                "answers/s", "raw sqlite3 inserts", lower_is_better=False,
                spread=f"ours {min(r[0] for r in results):.0f}..{max(r[0] for r in results):.0f}",
                notes="ours = full flow: next task, validation, shown list, one transaction per answer")]
