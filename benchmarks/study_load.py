"""Study: many participants at once through a real `streamlit run` server, against the same participants
calling the study flow directly (no web server).

Ours: N participants open the study page over Streamlit's websocket (benchmarks.streamlit_participant),
consent, start, and for every task click their top picks one by one (a think time between clicks) and
press "Save and continue"; a submit's latency runs from the press to the next screen being drawn. The
peer: the same N participants, tasks, picks and think times through `ParticipantFlow` in threads, so the
ratio is what the web server and page add. Quality beside speed: answers stored in the database against
answers submitted (lost = submitted but not stored) and participants who finished.

Full run: the app (`app.py`, study-only mode) on the shipped vital study, N = 10, 20, 40, 80 participants at once,
each answering 4 tasks with 3 s ± 50% before each click (a hurried participant; reading 12 leads takes longer).
Quick run (CI): the tiny study's test page with fake candidates, N = 3.
Run alone: python -m benchmarks study_load
"""
from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common import Row, environment, percentiles_ms

REPO = Path(__file__).resolve().parent.parent
SUBMIT_P95_TARGET_MS = 1000.0


@dataclass
class Tally:
    """What one round of participants did, from their side."""

    submit_s: list[float] = field(default_factory=list)
    submitted: int = 0
    finished: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Setup:
    """The server entry and study a round runs on."""

    entry: str
    env: dict
    study_ref: str
    db_url: str
    use_engine: bool


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`streamlit run` on loopback for the duration of a `with` block."""

    def __init__(self, setup: Setup, log: Path):
        self.setup, self.log_path = setup, log

    def __enter__(self) -> str:
        port = _free_port()
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", self.setup.entry, "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=REPO, env={**os.environ, **self.setup.env, "PYTHONPATH": str(REPO)}, stdout=self.log,
            stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 120
        while True:
            try:
                if urllib.request.urlopen(f"{url}_stcore/health", timeout=2).status == 200:
                    return url
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not start; see {self.log_path}") from None
                time.sleep(0.3)

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


async def _web_participant(url: str, think_s: float, tasks: int, rng: random.Random, tally: Tally) -> None:
    from benchmarks.streamlit_participant import StreamlitParticipant

    async with StreamlitParticipant(url) as tab:
        await tab.open()
        await tab.check("study_consent")
        screen = await tab.click("study_start")
        for _ in range(tasks):
            if "All tasks are done" in screen.text():
                break
            picks = screen.keys("study_pick_")
            if not picks:
                tally.errors.append(f"no candidates on screen: {screen.text()[:200]!r}")
                return
            depth = sum(1 for text in screen.texts if text.startswith("Pick as #"))
            for key in rng.sample(picks, k=min(depth, 5)):
                await asyncio.sleep(think_s * rng.uniform(0.5, 1.5))
                screen = await tab.click(key)
            started = time.perf_counter()
            screen = await tab.click("study_save")
            tally.submit_s.append(time.perf_counter() - started)
            tally.submitted += 1
        tally.finished += 1


def web_round(url: str, participants: int, think_s: float, tasks: int, seed: int) -> tuple[Tally, float]:
    tally = Tally()

    async def everyone():
        results = await asyncio.gather(*(_web_participant(url, think_s, tasks, random.Random(seed * 1000 + i), tally)
                                         for i in range(participants)), return_exceptions=True)
        tally.errors += [repr(r) for r in results if isinstance(r, BaseException)]

    started = time.perf_counter()
    asyncio.run(everyone())
    return tally, time.perf_counter() - started


def direct_round(setup: Setup, participants: int, think_s: float, tasks: int, seed: int) -> Tally:
    """The peer: the same participants, tasks, picks and pauses through ParticipantFlow, one thread each,
    no web server."""
    from study.configured import open_study_flow

    if setup.use_engine:
        flow = open_study_flow(setup.study_ref, setup.db_url)
    else:
        from study.definition import check_study, load_study
        from study.sessions import open_flow
        from study.store import StoreConfig, open_store
        from study.synthetic import SyntheticProvider, tiny_corpus

        corpus = tiny_corpus()
        study = check_study(load_study(setup.study_ref), corpus)
        flow = open_flow(study, open_store(study.name, StoreConfig(url=setup.db_url)), SyntheticProvider(corpus),
                         corpus)
    tally, lock = Tally(), threading.Lock()

    def participant(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        code = flow.start()
        for _ in range(tasks):
            if (screen := flow.next_task(code)) is None:
                break
            ranking = rng.sample([c.id for c in screen.candidates], k=screen.rank_depth)
            for _ in ranking:  # the pauses before the clicks
                time.sleep(think_s * rng.uniform(0.5, 1.5))
            started = time.perf_counter()
            flow.submit(code, screen.task_id, ranking)
            flow.next_task(code)  # what the page draws next
            with lock:
                tally.submit_s.append(time.perf_counter() - started)
                tally.submitted += 1
        with lock:
            tally.finished += 1

    threads = [threading.Thread(target=participant, args=(i,)) for i in range(participants)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def stored_answers(setup: Setup) -> int:
    from sqlalchemy import func, select

    from study.store import AnswerRow, StoreConfig, open_store

    store = open_store("load", StoreConfig(url=setup.db_url, create=False))
    with store.reading() as session:
        return session.scalar(select(func.count()).select_from(AnswerRow)) or 0


def _setup(quick: bool, home: Path, db_name: str) -> Setup:
    db_url = f"sqlite:///{home / db_name}"
    if quick:
        from explore.corpus import store_corpus
        from study.synthetic import TINY_STUDY, tiny_corpus, write_tiny_study

        with environment(ASPECTNAV_HOME=str(home)):
            store_corpus(tiny_corpus())
            study = str(write_tiny_study(home, tasks=TINY_STUDY["tasks"][:2]))
        return Setup("tests/app_pages/study_page_entry.py",
                     {"ASPECTNAV_HOME": str(home), "ASPECTNAV_STUDY": study, "ASPECTNAV_STUDY_DB": db_url},
                     study, db_url, use_engine=False)
    env = {"ASPECTNAV_STUDY": "vital_default", "ASPECTNAV_STUDY_DB": db_url, "ASPECTNAV_STUDY_ONLY": "1",
           "HF_HUB_OFFLINE": "1"}
    return Setup("app.py", env, "vital_default", db_url, use_engine=True)


def run(quick: bool = False, ladder: list[int] | None = None, think_s: float | None = None,
        tasks: int | None = None) -> list[Row]:
    """`think_s`: mean pause before each click (a real participant reads 12 leads a task: about 10 s; 3 s is
    a hurried one); `tasks`: how many tasks each participant answers in a round."""
    ladder = ladder or ([3] if quick else [10, 20, 40, 80])
    think_s = think_s if think_s is not None else (0.05 if quick else 3.0)
    tasks = tasks or (2 if quick else 4)
    rows = []
    served = 0
    with tempfile.TemporaryDirectory(prefix="aspectnav-load-") as tmp:
        home = Path(tmp)
        web, direct = _setup(quick, home, "web.sqlite"), _setup(quick, home, "direct.sqlite")
        log = home / "streamlit.log"
        with Server(web, log) as url:
            for participants in ladder:
                before = _count(web)
                tally, seconds = web_round(url, participants, think_s, tasks, seed=participants)
                stored = _count(web) - before
                before_peer = _count(direct)
                peer = direct_round(direct, participants, think_s, tasks, seed=participants)
                peer_stored = _count(direct) - before_peer
                p50, p95 = percentiles_ms(tally.submit_s) if tally.submit_s else (float("nan"),) * 2
                peer_p50, peer_p95 = percentiles_ms(peer.submit_s)
                lost = tally.submitted - stored
                ok = p95 < SUBMIT_P95_TARGET_MS and lost == 0 and not tally.errors and tally.finished == participants
                served = participants if ok else served
                quality = (f"stored {stored}/{tally.submitted} submitted (lost {lost}), {tally.finished}/{participants} "
                           f"participants did their {tasks} tasks; peer stored {peer_stored}/{peer.submitted}")
                if tally.errors:
                    quality += f"; {len(tally.errors)} errors, first: {tally.errors[0][:160]}"
                rows.append(Row("study", f"submit p95, {participants} participants at once (web server)", p95,
                                peer_p95, "ms", "same participants, flow called directly", spread=f"p50 {p50:.0f} ms "
                                f"(peer {peer_p50:.0f} ms)", notes=quality,
                                extra={"participants": participants, "stored": stored, "submitted": tally.submitted,
                                       "finished": tally.finished, "seconds": round(seconds, 1),
                                       "think_s": think_s, "tasks": tasks}))
                print(f"  {participants:>3} participants: submit p50 {p50:.0f} ms, p95 {p95:.0f} ms "
                      f"(peer p95 {peer_p95:.0f} ms); {quality}; {seconds:.0f} s", file=sys.stderr, flush=True)
    rows.append(Row("study", f"participants served with submit p95 < 1 s and 0 lost (of {', '.join(map(str, ladder))})",
                    served, max(ladder), "participants", "largest N tried", lower_is_better=False,
                    notes=f"{tasks} tasks each, 5 clicks and a save per task, {think_s:g} s ± 50% before each click; "
                          "one 2-core instance, the clients on the same machine"))
    return rows


def _count(setup: Setup) -> int:
    try:
        return stored_answers(setup)
    except Exception:  # no database yet: nothing stored
        return 0


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(row)
