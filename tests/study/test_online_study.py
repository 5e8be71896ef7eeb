"""A study served online as `aspectnav study online` serves it: two app processes behind Debian's nginx with HTTPS
(a self-signed certificate on loopback) under the prefix /mystudy/, answers in a real PostgreSQL. Checked as
participants reach it: the launcher's checks pass; a participant (the browser's websocket protocol, then a real
Chromium) whose process is killed with -9 mid-study reconnects through the proxy to the other process and carries
on where they were, nothing lost or stored twice, no task shown again; the launcher starts the dead process again;
and a proxy that says the wrong scheme or strips the websocket upgrade is named by the check with the line to fix.
Screenshots: test-artifacts/study_online_*.png."""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import ARTIFACTS, chromium, idle, shot, wait

pytestmark = pytest.mark.slow
PASSWORD = "online test password"
STUDY = "online_prolific"  # the default study with a Prolific block (people without an id may take part too)
PROLIFIC = ("\nplatform:\n  kind: prolific\n  missing_id: allow\n"
            "  completion_url: https://app.prolific.com/submissions/complete\n  completion_code: C1A2B3C4\n")


def _free_ports(count: int) -> int:
    """The first of `count` consecutive free loopback ports."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            first = probe.getsockname()[1]
        if first + count > 65535:
            continue
        try:
            sockets = [socket.create_server(("127.0.0.1", first + i)) for i in range(count)]
        except OSError:
            continue
        for sock in sockets:
            sock.close()
        return first
    raise RuntimeError("no free ports")


@pytest.fixture(scope="module")
def online(tmp_path_factory, postgres):
    from benchmarks.study_online import self_signed
    from study.online_launch import OnlineStudy
    from study.online_settings import online_settings

    folder = tmp_path_factory.mktemp("online")
    os.chmod(folder, 0o755)
    cert, key = self_signed(folder)
    study_file = folder / "online_prolific.yaml"
    study_file.write_text((Path(__file__).resolve().parents[2] / "assets" / "studies" / "vital_default.yaml")
                          .read_text().replace("name: vital_default", f"name: {STUDY}") + PROLIFIC)
    home = folder / "home"  # the app processes' data home: the module's, as the processes outlive one test
    home.mkdir()
    with postgres.scratch_database() as database:
        public, first = _free_ports(1), _free_ports(2)
        settings = online_settings(f"https://localhost:{public}/mystudy/", 2, first, database, str(study_file), cert,
                                   key, folder / "run")
        study = OnlineStudy(settings, {"ASPECTNAV_HOME": str(home), "ASPECTNAV_STUDY_PASSWORD": PASSWORD})
        study.start()
        try:
            yield study, cert, database
        finally:
            study.stop()
            for log in settings.run_dir.glob("*.log"):
                ARTIFACTS.mkdir(exist_ok=True)
                (ARTIFACTS / f"study_online_{log.name}").write_bytes(log.read_bytes()[-200_000:])


def _context(cert: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(cert))


def serving_process(url: str, cert: Path, cookies: dict[str, str]) -> int:
    """The pid of the process the proxy sends this browser's requests to."""
    request = urllib.request.Request(url + "_aspectnav/proxy",
                                     headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
    with urllib.request.urlopen(request, context=_context(cert), timeout=10) as response:
        return json.loads(response.read())["process"]


def answers(database: str) -> list[tuple[str, str]]:
    from sqlalchemy import create_engine, text

    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(
                "SELECT p.code, a.task_id FROM answers a JOIN participants p ON p.id = a.participant_id"))]
    finally:
        engine.dispose()


def _task(texts: list[str]) -> int | None:
    return next((int(m.group(1)) for t in texts if (m := re.search(r"Task (\d+) of 12", t))), None)


def _wait_restarted(study, port: int) -> None:
    from study.online_launch import healthy

    assert port in study.restart_dead()
    deadline = time.monotonic() + 120
    app = next(a for a in study.apps if a.port == port)
    while not healthy(app.health_url(study.settings)):
        assert time.monotonic() < deadline, "the restarted process did not come back"
        time.sleep(0.5)


def test_the_launchers_checks_pass_through_the_proxy(online):
    from study.online_checks import check_public_address

    study, cert, _ = online
    checks = check_public_address(study.settings.address, cert, processes=2)
    assert [c.name for c in checks if not c.ok] == [], [c.line() for c in checks]
    assert {c.name for c in checks} >= {"page", "health", "X-Forwarded-Proto", "websocket", "sticky", "processes"}


def test_a_participant_whose_process_is_killed_carries_on_through_the_other_one(online):
    from benchmarks.streamlit_participant import StreamlitParticipant

    study, cert, database = online
    url = study.settings.address.url

    async def participant():
        async with StreamlitParticipant(url, _context(cert)) as tab:
            await tab.open()
            await tab.check("study_consent")
            screen = await tab.click("study_start")
            assert _task(screen.texts) == 1
            for key in screen.keys("study_pick_")[:5]:
                screen = await tab.click(key)
            screen = await tab.click("study_save")
            assert _task(screen.texts) == 2
            for key in screen.keys("study_pick_")[:2]:  # two picks of task 2, saved as they are clicked
                screen = await tab.click(key)
            code = tab.cookies[f"aspectnav_study_{STUDY}"]
            victim = serving_process(url, cert, tab.cookies)
            os.kill(victim, signal.SIGKILL)
            await asyncio.sleep(1.0)  # the page waits a moment before reconnecting
            screen = await tab.reconnect()
            assert serving_process(url, cert, tab.cookies) != victim
            return code, victim, screen

    code, victim, screen = asyncio.run(participant())
    assert _task(screen.texts) == 2  # where they were: not task 1 again, not task 3
    assert any("Welcome back" in t for t in screen.texts)
    assert sum(1 for k in screen.keys("study_pick_") if screen.widgets[k].label.startswith("Ranked")) == 2
    stored = answers(database)
    assert [task for who, task in stored if who == code] and len(stored) == len(set(stored))
    assert sum(1 for who, _ in stored if who == code) == 1
    port = next(a.port for a in study.apps if a.process.pid == victim)
    _wait_restarted(study, port)


def _body(driver) -> str:
    return driver.find_element("tag name", "body").text


def _label(button) -> str:
    return button.text.strip().split("\n")[-1]


def _pick(driver, rank: int) -> None:
    offered = wait(driver, lambda d: [b for b in d.find_elements("css selector", "button")
                                      if _label(b) == f"Pick as #{rank}" and b.is_enabled()])
    offered[0].click()
    wait(driver, lambda d: f"Ranked #{rank}" in _body(d), message=f"rank {rank} not taken")


def _save(driver) -> None:
    wait(driver, lambda d: [b for b in d.find_elements("css selector", "button")
                            if _label(b).startswith("Save and continue") and b.is_enabled()])[0].click()


def test_in_a_real_browser_a_killed_process_costs_the_participant_nothing(online, tmp_path):
    study, cert, database = online
    url = study.settings.address.url
    with chromium(tmp_path / "profile", ("--ignore-certificate-errors",)) as driver:
        driver.set_window_size(1500, 1100)
        driver.get(url)
        wait(driver, lambda d: "I have read this and agree" in _body(d))
        driver.find_element("xpath", "//label[contains(., 'I have read this and agree')]").click()
        wait(driver, lambda d: [b for b in d.find_elements("css selector", "button")
                                if _label(b) == "Start" and b.is_enabled()])[0].click()
        wait(driver, lambda d: "Task 1 of 12" in _body(d) and "Pick as #1" in _body(d))
        for rank in range(1, 6):
            _pick(driver, rank)
        _save(driver)
        wait(driver, lambda d: "Task 2 of 12" in _body(d) and "Pick as #1" in _body(d))
        _pick(driver, 1)
        idle(driver)
        cookies = {c["name"]: c["value"] for c in driver.get_cookies()}
        assert cookies.get("aspectnav_route") and any(c["secure"] for c in driver.get_cookies()
                                                      if c["name"].startswith("aspectnav_study_"))
        code = cookies[f"aspectnav_study_{STUDY}"]
        victim = serving_process(url, cert, cookies)
        shot(driver, "study_online_before_kill.png")
        os.kill(victim, signal.SIGKILL)
        # The page notices its socket closed, reconnects through the proxy to the other process and reloads itself
        # (app_server/reconnect_reload.py): the new session resumes the participant from the cookie.
        wait(driver, lambda d: "Welcome back" in _body(d) and "Task 2 of 12" in _body(d) and "Ranked #1" in _body(d)
             and "Pick as #2" in _body(d), timeout=90, message="the page did not come back on task 2 with its pick")
        idle(driver)
        shot(driver, "study_online_after_kill.png")
        assert serving_process(url, cert, {c["name"]: c["value"] for c in driver.get_cookies()}) != victim
        for rank in range(2, 6):
            _pick(driver, rank)
        _save(driver)
        wait(driver, lambda d: "Task 3 of 12" in _body(d))
        idle(driver)
        shot(driver, "study_online_task3.png")
        # The results page behind the prefix: its address is a page of the app, not a base path (the page address
        # hint), so the frontend asks no health check under /mystudy/study-results/.
        driver.get(url + "study-results")
        box = wait(driver, lambda d: d.find_element("css selector", "input[type='password']"))
        box.send_keys(PASSWORD)
        wait(driver, lambda d: [b for b in d.find_elements("css selector", "button")
                                if _label(b) == "Unlock"])[0].click()
        wait(driver, lambda d: "Participants started" in _body(d), message="the results did not open")
        idle(driver)
        shot(driver, "study_online_results.png")
    mine = [task for who, task in answers(database) if who == code]
    assert len(mine) == 2 == len(set(mine))
    access = (study.settings.run_dir / "nginx-access.log").read_text()
    assert "/mystudy/study-results/_stcore" not in access and "/mystudy/study-results " in access
    port = next(a.port for a in study.apps if a.process.pid == victim)
    _wait_restarted(study, port)


def _reload_with(study, old: str, new: str) -> str:
    from study.nginx_config import nginx_binary

    site = study.settings.run_dir / "study.conf"
    original = site.read_text()
    assert old in original
    site.write_text(original.replace(old, new))
    subprocess.run([nginx_binary(), "-s", "reload", "-p", str(study.settings.run_dir), "-c",
                    str(study.settings.run_dir / "nginx.conf")], check=True, capture_output=True)
    time.sleep(1.0)  # the old workers finish
    return original


def test_a_misconfigured_proxy_is_named_with_the_line_to_fix(online):
    from study.online_checks import check_public_address

    study, cert, _ = online
    site = study.settings.run_dir / "study.conf"
    original = _reload_with(study, "X-Forwarded-Proto $scheme", "X-Forwarded-Proto http")
    try:
        failed = {c.name: c.detail for c in check_public_address(study.settings.address, cert) if not c.ok}
        assert list(failed) == ["X-Forwarded-Proto"] and "proxy_set_header X-Forwarded-Proto $scheme;" in \
            failed["X-Forwarded-Proto"]
        site.write_text(original)
        _reload_with(study, "        proxy_set_header Upgrade $http_upgrade;\n", "")
        failed = {c.name: c.detail for c in check_public_address(study.settings.address, cert) if not c.ok}
        assert list(failed) == ["websocket"] and "proxy_set_header Upgrade $http_upgrade" in failed["websocket"]
    finally:
        site.write_text(original)
        _reload_with(study, "listen", "listen")
    assert all(c.ok for c in check_public_address(study.settings.address, cert))


def _route_to_each_process(url: str, cert: Path) -> list[str]:
    """A route cookie value that the proxy sends to each process (found by asking)."""
    found: dict[int, str] = {}
    for attempt in range(200):
        value = f"tab{attempt}"
        found.setdefault(serving_process(url, cert, {"aspectnav_route": value}), value)
        if len(found) == 2:
            return list(found.values())
    raise AssertionError("the proxy sent every route to one process")


def test_one_prolific_participant_in_three_tabs_on_two_processes_is_one_participant(online):
    from benchmarks.streamlit_participant import StreamlitParticipant

    study, cert, database = online
    url = study.settings.address.url
    first_route, second_route = _route_to_each_process(url, cert)
    query = "PROLIFIC_PID=5f1a2b3c4d5e6f7a8b9c0d1e&STUDY_ID=s1&SESSION_ID=x1"

    async def tabs():
        a = StreamlitParticipant(url, _context(cert), {"aspectnav_route": first_route})
        b = StreamlitParticipant(url, _context(cert), {"aspectnav_route": first_route})
        c = StreamlitParticipant(url, _context(cert), {"aspectnav_route": second_route})
        for tab in (a, b, c):
            await tab.__aenter__()
        try:
            await a.open(query)
            await a.check("study_consent")
            on_a = await a.click("study_start")
            on_b, on_c = await b.open(query), await c.open(query)  # the platform sends them again: resumed
            assert _task(on_a.texts) == _task(on_b.texts) == _task(on_c.texts) == 1
            assert serving_process(url, cert, a.cookies) != serving_process(url, cert, c.cookies)
            for tab in (a, c):
                for key in tab.screen.keys("study_pick_")[:5]:
                    await tab.click(key)
            on_a = await a.click("study_save")
            on_c = await c.click("study_save")  # the same task, saved a moment later on the other process
            on_b = await b.reconnect()
            return on_a, on_b, on_c
        finally:
            for tab in (a, b, c):
                await tab.__aexit__()

    on_a, on_b, on_c = asyncio.run(tabs())
    assert _task(on_a.texts) == _task(on_b.texts) == _task(on_c.texts) == 2
    assert any("already answered" in t for t in on_c.texts), on_c.texts
    from sqlalchemy import create_engine, text

    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            participants = connection.execute(text(
                "SELECT id FROM participants WHERE platform_id = '5f1a2b3c4d5e6f7a8b9c0d1e'")).scalars().all()
            stored = connection.execute(text("SELECT count(*) FROM answers WHERE participant_id = :p"),
                                        {"p": participants[0]}).scalar()
    finally:
        engine.dispose()
    assert len(participants) == 1 and stored == 1
