"""A study on the open internet, measured as participants reach it: HTTPS through nginx to 1, 2 or 4 app processes
(`aspectnav study online`, the shipped proxy configuration, a self-signed certificate on loopback), answers in
PostgreSQL (Debian's server, durable settings), participants speaking the browser's websocket protocol
(benchmarks.streamlit_participant) with the cookies a browser keeps.

- Participants at a realistic pace: each arrives within the first pace (uniformly), consents, starts, and per task
  clicks 5 picks and saves, one save every `pace_s` (20 s) — 6 runs of the page per participant per 20 s. Submit
  latency runs from the press of "Save and continue" to the next task drawn. The peer: the same participants
  against one app process directly (no proxy, no TLS).
- Quality beside speed: saves the participant saw succeed against answers in the database (lost), answers stored
  twice, a task shown again after it was answered, participants who did all their tasks.
- Kill: the same, with one of 2 processes killed (-9) mid-run; participants whose socket closes reconnect through
  the proxy as the page does, carry on, and are counted as above.
- CPU per participant-minute of the app processes, beside the minimal Streamlit page's per session-minute with the
  same number of sessions clicking at the same pace.
- Readers: 1, then 50 readers each clicking an Explore card every 5 s (the panel's own "pick" event) on one
  process; click-to-settled p95 of 50 against 1's; quality: the clicked card became the seed.

    python -m benchmarks study_online            # about 25 minutes
    python -m benchmarks study_online --quick    # CI: 2 processes, 4 participants, a few seconds' pace
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common import Row, percentiles_ms

REPO = Path(__file__).resolve().parent.parent
TASK_NUMBER = re.compile(r"Task (\d+) of (\d+)")
SUBMIT_P95_GOAL_MS = 500.0
STUDY = "vital_default"


@dataclass
class Tally:
    submit_s: list[float] = field(default_factory=list)
    acknowledged: dict[str, int] = field(default_factory=dict)  # participant code → saves seen to succeed
    finished: int = 0
    reconnects: int = 0
    shown_again: int = 0
    errors: list[str] = field(default_factory=list)


def _task_number(texts: list[str]) -> int | None:
    for text in texts:
        if (found := TASK_NUMBER.search(text)):
            return int(found.group(1))
    return None


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "2", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


def _disconnected(exc: BaseException) -> bool:
    """The socket closed or the proxy could not reach a process (while the killed one is being skipped)."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    return isinstance(exc, (OSError, asyncio.TimeoutError, ConnectionClosed, InvalidStatus))


async def _reconnect(tab, attempts: int = 10):
    """As the page does: wait a moment, open a new session with the same cookies; again while it fails."""
    for attempt in range(attempts):
        await asyncio.sleep(1.0)
        try:
            return await tab.reconnect()
        except Exception as exc:
            if not _disconnected(exc) or attempt == attempts - 1:
                raise


async def _participant(url: str, context, pace_s: float, tasks: int, rng: random.Random, tally: Tally,
                       arrive_s: float) -> None:
    """One participant; a closed socket or a run that never finishes is met as the page meets it: reconnect."""
    from benchmarks.streamlit_participant import StreamlitParticipant

    await asyncio.sleep(arrive_s)
    tab = StreamlitParticipant(url, context)
    await tab.__aenter__()
    try:
        screen = await tab.open()
        await tab.check("study_consent")
        screen = await tab.click("study_start")
        answered_up_to = 0
        done = 0
        while done < tasks:
            try:
                number = _task_number(screen.texts)
                if number is not None and number <= answered_up_to:
                    tally.shown_again += 1
                shown = screen.keys("study_pick_")
                ranked = sum(1 for k in shown if screen.widgets[k].label.startswith("Ranked"))  # a restored draft
                free = [k for k in shown
                        if screen.widgets[k].label.startswith("Pick") and not screen.widgets[k].disabled]
                if not ranked and not free:
                    raise RuntimeError(f"no candidates on screen: {screen.text()[:200]!r}")
                for key in rng.sample(free, k=min(5 - ranked, len(free))):
                    await asyncio.sleep(pace_s / 6 * rng.uniform(0.5, 1.5))
                    if key in tab.screen.widgets and not tab.screen.widgets[key].disabled:
                        screen = await tab.click(key)
                await asyncio.sleep(pace_s / 6 * rng.uniform(0.5, 1.5))
                started = time.perf_counter()
                screen = await tab.click("study_save")
                after = _task_number(screen.texts)
                if number is not None and (after is None or after > number):
                    tally.submit_s.append(time.perf_counter() - started)
                    answered_up_to = number
                    done += 1
                    code = tab.cookies.get(f"aspectnav_study_{STUDY}", "?")
                    tally.acknowledged[code] = tally.acknowledged.get(code, 0) + 1
            except Exception as exc:
                if not _disconnected(exc):
                    raise
                tally.reconnects += 1
                screen = await _reconnect(tab)
        tally.finished += 1
    finally:
        try:
            await tab.__aexit__()
        except Exception:
            pass


def participants_round(url: str, context, participants: int, pace_s: float, tasks: int, seed: int,
                       during=None) -> tuple[Tally, float]:
    tally = Tally()

    async def everyone():
        jobs = [_participant(url, context, pace_s, tasks, random.Random(seed * 1000 + i), tally,
                             random.Random(seed + i).uniform(0, pace_s)) for i in range(participants)]
        if during is not None:
            jobs.append(during())
        results = await asyncio.gather(*jobs, return_exceptions=True)
        tally.errors += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]

    started = time.perf_counter()
    asyncio.run(everyone())
    return tally, time.perf_counter() - started


def answers_by_code(database_url: str) -> dict[str, int]:
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT p.code, count(a.id) FROM participants p LEFT JOIN answers a ON a.participant_id = p.id "
                "GROUP BY p.code")).all()
            twice = connection.execute(text(
                "SELECT count(*) FROM (SELECT participant_id, task_id FROM answers GROUP BY participant_id, task_id "
                "HAVING count(*) > 1) AS d")).scalar()
    finally:
        engine.dispose()
    found = {code: count for code, count in rows}
    found["__twice__"] = twice
    return found


def lost_answers(tally: Tally, stored: dict[str, int]) -> int:
    return sum(max(0, seen - stored.get(code, 0)) for code, seen in tally.acknowledged.items())


def process_cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            pass
    return total


class OnlineServer:
    """`aspectnav study online`'s processes and proxy (its OnlineStudy) on loopback, for one `with` block."""

    def __init__(self, processes: int, database_url: str, folder: Path, cert: Path, key: Path, port: int):
        from study.online_launch import OnlineStudy
        from study.online_settings import online_settings

        settings = online_settings(f"https://localhost:{port}/study/", processes, port + 100, database_url, STUDY,
                                   cert, key, folder / f"run-{processes}-{port}")
        self.study = OnlineStudy(settings)
        self.url = settings.address.url

    def __enter__(self) -> "OnlineServer":
        self.study.start()
        return self

    def __exit__(self, *exc) -> None:
        self.study.stop()

    def app_pids(self) -> list[int]:
        return [app.process.pid for app in self.study.apps]


def _ports() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return 20000 + sock.getsockname()[1] % 20000


def _direct_url(server: "OnlineServer") -> str:
    return f"http://127.0.0.1:{server.study.apps[0].port}/study/"


async def _reader(url: str, clicks: int, every_s: float, rng: random.Random, settle_s: list[float],
                  became: list[bool], arrive_s: float) -> None:
    from benchmarks.streamlit_participant import StreamlitParticipant

    await asyncio.sleep(arrive_s)
    async with StreamlitParticipant(url) as tab:
        screen = await tab.open("seed=Marie%20Curie")
        for _ in range(clicks):
            panel = next(json.loads(a) for a in screen.component_args if '"grid"' in a)
            ids = re.findall(r'"id": "([^"]+)"', json.dumps(panel["grid"], ensure_ascii=False))
            target = rng.choice(ids[:10])
            await asyncio.sleep(every_s * rng.uniform(0.5, 1.5))
            started = time.perf_counter()
            screen = await tab.send_event("explore-panel", "pick", target)
            settle_s.append(time.perf_counter() - started)
            shown = next(json.loads(a) for a in screen.component_args if '"grid"' in a)
            became.append((shown.get("seed_card") or {}).get("id") == target)


def readers_round(url: str, readers: int, clicks: int, every_s: float) -> tuple[list[float], list[bool]]:
    settle, became = [], []

    async def everyone():
        await asyncio.gather(*(_reader(url, clicks, every_s, random.Random(i), settle, became,
                                       random.Random(100 + i).uniform(0, every_s)) for i in range(readers)))

    asyncio.run(everyone())
    return settle, became


def _explore_server(port: int, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "streamlit", "run", "serve.py", "--server.headless", "true",
                             "--server.address", "127.0.0.1", "--server.port", str(port),
                             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
                            cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), "ASPECTNAV_STUDY_ONLY": "0"},
                            stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)


def _wait_healthy(url: str, process: subprocess.Popen) -> None:
    from study.online_launch import healthy

    deadline = time.monotonic() + 180
    while not healthy(url):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not come up")
        time.sleep(0.3)


def _minimal_cpu(sessions: int, seconds: float, pace_s: float, folder: Path) -> float:
    """CPU seconds per session-minute of benchmarks/minimal_page.py with `sessions` clicking a button every
    pace_s/6 (as often as a participant's page runs)."""
    from benchmarks.streamlit_participant import StreamlitParticipant

    port = _ports()
    process = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "benchmarks/minimal_page.py",
                                "--server.headless", "true", "--server.address", "127.0.0.1", "--server.port",
                                str(port), "--server.fileWatcherType", "none"], cwd=REPO,
                               stdout=(folder / "minimal.log").open("w"), stderr=subprocess.STDOUT)
    try:
        _wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", process)

        async def session(i: int):
            rng = random.Random(i)
            async with StreamlitParticipant(f"http://127.0.0.1:{port}/") as tab:
                await tab.open()
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    await asyncio.sleep(pace_s / 6 * rng.uniform(0.5, 1.5))
                    await tab.click(f"card-{rng.randrange(4)}-{rng.randrange(5)}")

        async def everyone():
            await asyncio.wait_for(asyncio.gather(*(session(i) for i in range(sessions))), seconds + 120)

        before = process_cpu_s([process.pid])
        asyncio.run(everyone())
        return (process_cpu_s([process.pid]) - before) / (sessions * seconds / 60)
    finally:
        process.terminate()
        process.wait(timeout=30)


def run(quick: bool = False, processes: tuple[int, ...] | None = None, ladder: tuple[int, ...] | None = None,
        pace_s: float | None = None, tasks: int | None = None, extras: bool = True) -> list[Row]:
    """`extras` False: the participants' curve alone (no kill, CPU or readers rows), e.g. to find where more
    processes saturate: `python -c "from benchmarks.study_online import run; run(processes=(2, 4),
    ladder=(300, 400), extras=False)"`."""
    from tests.postgres_server import postgres_server

    processes = processes or ((2,) if quick else (1, 2, 4))
    ladder = ladder or ((4,) if quick else (50, 100, 200))
    pace_s = pace_s if pace_s is not None else (3.0 if quick else 20.0)
    tasks = tasks or (2 if quick else 3)
    rows: list[Row] = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="aspectnav-online-")))
        os.chmod(folder, 0o755)
        cert, key = self_signed(folder)
        context = ssl.create_default_context(cafile=str(cert))
        server = stack.enter_context(postgres_server(throwaway=False))
        peer_p95: dict[int, float] = {}
        served: dict[int, int] = {}
        for count in processes:
            database = _study_database(stack, server)
            with OnlineServer(count, database, folder, cert, key, _ports()) as online:
                for participants in ladder:
                    if count == processes[0]:  # the peer: one process, no proxy, the same participants
                        peer, _ = participants_round(_direct_url(online), None, participants, pace_s, tasks,
                                                     seed=participants)
                        peer_p95[participants] = percentiles_ms(peer.submit_s)[1] if peer.submit_s else float("nan")
                    before = answers_by_code(database)
                    cpu_before = process_cpu_s(online.app_pids())
                    tally, seconds = participants_round(online.url, context, participants, pace_s, tasks,
                                                        seed=participants)
                    cpu = process_cpu_s(online.app_pids()) - cpu_before
                    stored = answers_by_code(database)
                    new = {code: n - before.get(code, 0) for code, n in stored.items() if code != "__twice__"}
                    lost = lost_answers(tally, new)
                    p50, p95 = percentiles_ms(tally.submit_s) if tally.submit_s else (float("nan"),) * 2
                    ok = p95 <= SUBMIT_P95_GOAL_MS and lost == 0 and tally.finished == participants
                    served[count] = participants if ok else served.get(count, 0)
                    cpu_per_min = cpu / (participants * seconds / 60)
                    quality = (f"lost {lost} of {sum(tally.acknowledged.values())} saves, stored twice "
                               f"{stored['__twice__']}, shown again {tally.shown_again}, {tally.finished}/"
                               f"{participants} did their {tasks} tasks; CPU {cpu_per_min:.2f} s per "
                               "participant-minute")
                    if tally.errors:
                        quality += f"; {len(tally.errors)} errors, first: {tally.errors[0][:160]}"
                    rows.append(Row("study online", f"submit p95, {participants} participants, {count} process(es) "
                                    "behind nginx (HTTPS)", p95, peer_p95[participants], "ms",
                                    "1 process, no proxy", spread=f"p50 {p50:.0f} ms", notes=quality,
                                    extra={"processes": count, "participants": participants, "lost": lost,
                                           "stored_twice": stored["__twice__"], "shown_again": tally.shown_again,
                                           "finished": tally.finished, "cpu_s_per_participant_minute":
                                           round(cpu_per_min, 3), "seconds": round(seconds, 1), "pace_s": pace_s,
                                           "tasks": tasks, "p50_ms": round(p50, 1)}))
                    print(f"  {count} process(es), {participants:>3} participants: submit p50 {p50:.0f} ms, "
                          f"p95 {p95:.0f} ms (peer {peer_p95[participants]:.0f}); {quality}; {seconds:.0f} s",
                          file=sys.stderr, flush=True)
        rows.append(Row("study online", "participants served with submit p95 <= 500 ms and 0 lost, by processes",
                        max(served.values(), default=0), max(ladder), "participants", "largest N tried",
                        lower_is_better=False, notes=", ".join(f"{c} process(es): {served.get(c, 0)}"
                                                               for c in processes)))
        if not extras:
            return rows
        rows.append(_kill_row(server, stack, folder, cert, key, context, 4 if quick else 100, pace_s, tasks))
        sessions = 4 if quick else 50
        minimal = _minimal_cpu(sessions, 10 if quick else 60, pace_s, folder)
        study_cpu = next((r.extra["cpu_s_per_participant_minute"] for r in rows
                          if r.extra and r.extra.get("participants") == min(ladder) and r.extra.get("processes")
                          == processes[0]), float("nan"))
        rows.append(Row("study online", f"CPU s per participant-minute ({min(ladder)} participants, "
                        f"{processes[0]} process(es))", study_cpu, minimal, "s",
                        f"minimal page, {sessions} sessions at the same pace"))
        rows += _reader_rows(folder, 4 if quick else 50, 2 if quick else 8)
    return rows


def _study_database(stack: ExitStack, server) -> str:
    """A fresh database with the study's tables (the app processes would make them on their first participant; the
    counts before a round need them already)."""
    from study.store import StoreConfig, open_store

    database = stack.enter_context(server.scratch_database())
    open_store(STUDY, StoreConfig(url=database)).engine.dispose()
    return database


def _kill_row(server, stack, folder, cert, key, context, participants, pace_s, tasks) -> Row:
    database = _study_database(stack, server)
    with OnlineServer(2, database, folder, cert, key, _ports()) as online:
        killed = []

        async def kill_one():
            await asyncio.sleep(pace_s * 1.5)
            victim = online.study.apps[0].process
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)
            await asyncio.sleep(3)
            online.study.restart_dead()  # as the launcher's loop does

        tally, seconds = participants_round(online.url, context, participants, pace_s, tasks, seed=7,
                                            during=kill_one)
        stored = answers_by_code(database)
        lost = lost_answers(tally, stored)
        p50, p95 = percentiles_ms(tally.submit_s) if tally.submit_s else (float("nan"),) * 2
    saves = sum(tally.acknowledged.values())
    kept = saves - lost
    return Row("study online", f"kill -9 one of 2 processes mid-run, {participants} participants: saves stored",
               kept, saves, "answers", "saves the participants saw succeed", lower_is_better=False,
               notes=f"lost {lost}, {tally.reconnects} reconnects, stored twice {stored['__twice__']}, shown again "
               f"{tally.shown_again}, {tally.finished}/{participants} did their {tasks} tasks; submit p95 {p95:.0f} "
               "ms" + (f"; errors: {tally.errors[0][:160]}" if tally.errors else ""),
               extra={"lost": lost, "reconnects": tally.reconnects, "stored_twice": stored["__twice__"],
                      "shown_again": tally.shown_again, "finished": tally.finished, "participants": participants,
                      "killed_pid": killed[0] if killed else None})


def _reader_rows(folder: Path, readers: int, clicks: int) -> list[Row]:
    port = _ports()
    process = _explore_server(port, folder / "explore.log")
    try:
        _wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", process)
        url = f"http://127.0.0.1:{port}/"
        readers_round(url, 1, 2, 0.5)  # warm: the engine's first seed
        one, one_ok = readers_round(url, 1, clicks * 2, 5.0)
        many, many_ok = readers_round(url, readers, clicks, 5.0)
    finally:
        process.terminate()
        process.wait(timeout=30)
    one_p95, many_p95 = percentiles_ms(one)[1], percentiles_ms(many)[1]
    return [Row("readers", f"Explore card click to settled p95, {readers} readers every 5 s (one process)", many_p95,
                one_p95, "ms", "one reader", notes=f"clicked card became the seed {sum(many_ok)}/{len(many_ok)} "
                f"(one reader {sum(one_ok)}/{len(one_ok)}); goal within 2x one reader's",
                extra={"readers": readers, "clicks": len(many)})]


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(row)
