"""Issue #13 item 6: the results password met forty wrong guesses in a row with no delay. Now each
session and each client waits longer after every wrong password past a few free ones; the clock is
injected, so the tests assert the computed waits, never wall time.

Issue #25 item 1: a new session every 3 guesses, from no known address (loopback), gave 60 guesses in
6.5 s, none refused. Now wrong passwords from anywhere also count server-wide."""
from __future__ import annotations

import functools
import logging
import threading

import pytest
import streamlit as st
from streamlit.runtime.context import ContextProxy

from study import login_throttle
from study.login_throttle import LoginSource, LoginThrottle, ThrottleConfig
from tests.app_pages.test_study_results import PASSWORD, answered_study, open_page  # noqa: F401 - fixture

WAITS = [0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    """The page's process-wide throttle, rebuilt on this clock."""
    fake = FakeClock()
    monkeypatch.setattr(login_throttle, "LoginThrottle", functools.partial(LoginThrottle, clock=fake))
    st.cache_resource.clear()
    yield fake
    st.cache_resource.clear()


@pytest.fixture
def results_page(answered_study, clock, monkeypatch):  # noqa: F811 - pytest fixture
    monkeypatch.setenv("ASPECTNAV_STUDY_PASSWORD", PASSWORD)
    return open_page


def from_client(monkeypatch, address: str) -> None:
    """What st.context.ip_address answers for a remote browser (AppTest has no connection)."""
    monkeypatch.setattr(ContextProxy, "ip_address", property(lambda self: address))


def try_password(at, password: str) -> str:
    at.text_input(key="study_results_password").input(password)
    at.button[0].click().run()
    assert not at.exception, at.exception
    return at.error[0].value if at.error else ""


def test_forty_wrong_passwords_in_a_row_meet_a_wait(results_page):
    at = results_page()
    messages = [try_password(at, f"guess {n}") for n in range(40)]
    assert messages[:3] == ["Wrong password."] * 3  # typos are free
    assert messages[3] == "Wrong password. Too many wrong passwords. Try again in 2 seconds."
    assert set(messages[4:]) == {"Too many wrong passwords. Try again in 2 seconds."}  # refused, not checked
    assert not at.metric


def test_waits_grow_exponentially_to_a_cap_and_refusals_do_not_count():
    clock = FakeClock()
    throttle, source = LoginThrottle(ThrottleConfig(), clock), LoginSource("s1")
    waits = []
    for _ in WAITS:
        assert throttle.admit(source) == 0
        waits.append(throttle.failed(source))
        assert throttle.admit(source) == waits[-1]  # a refused attempt leaves the wait as it was
        clock.now += waits[-1]
    assert waits == WAITS


def test_a_client_shares_its_wait_across_sessions_but_not_with_other_clients(results_page, clock, monkeypatch):
    from_client(monkeypatch, "203.0.113.9")
    first = results_page()
    for n in range(4):
        try_password(first, f"guess {n}")
    second = results_page()  # a fresh session (new tab) from the same address
    assert try_password(second, PASSWORD) == "Too many wrong passwords. Try again in 2 seconds."
    assert not second.metric
    from_client(monkeypatch, "198.51.100.7")
    elsewhere = results_page()
    assert try_password(elsewhere, "typo") == "Wrong password."


def test_without_a_client_address_the_session_and_the_server_count():
    throttle = LoginThrottle(ThrottleConfig(), FakeClock())
    for _ in range(4):
        throttle.failed(LoginSource("s1"))
    assert throttle.admit(LoginSource("s1")) == 2
    assert throttle.admit(LoginSource("s2")) == 0  # a few failures elsewhere do not lock another session
    assert LoginSource("s1").counted_as() == ("session:s1", "server")


def guess_from_fresh_sessions(throttle: LoginThrottle, clock: FakeClock, sessions: int, per_session: int = 3,
                              client: str | None = None) -> tuple[int, int]:
    """The attack: a new session every `per_session` guesses, no client address, each refused guess
    skipped at once (no waiting). Returns (passwords checked, guesses refused)."""
    checked = refused = 0
    for n in range(sessions):
        source = LoginSource(f"attacker-{n}", client)
        for _ in range(per_session):
            if throttle.admit(source) > 0:
                refused += 1
            else:
                checked += 1
                throttle.failed(source)
            clock.now += 0.1
    return checked, refused


def test_many_fresh_sessions_without_an_address_are_throttled_server_wide():
    clock = FakeClock()
    throttle = LoginThrottle(ThrottleConfig(), clock)
    checked, refused = guess_from_fresh_sessions(throttle, clock, sessions=20)  # 60 guesses in 6 s
    config = ThrottleConfig()
    # the free ones, one that locks everyone for 2 s, one after it that locks for 4 s: the rest refused
    assert checked == config.server_free_attempts + 2 and refused == 60 - checked
    assert throttle.admit(LoginSource("researcher")) > 0  # fails safe: the page is locked for everyone


def test_the_server_wide_wait_grows_and_the_right_password_does_not_clear_it():
    clock = FakeClock()
    config = ThrottleConfig()
    throttle = LoginThrottle(config, clock)
    waits = []
    for n in range(config.server_free_attempts + 12):
        source = LoginSource(f"s{n}")  # every guess from its own session
        assert throttle.admit(source) == 0
        waits.append(throttle.failed(source))
        clock.now += waits[-1]
    assert waits == [0.0] * config.server_free_attempts + WAITS[3:] + [300.0] * 2
    throttle.succeeded(LoginSource("researcher"))
    assert throttle.failed(LoginSource("next")) == 300  # the guesser's count survives someone else's login
    clock.now += config.forget_after_s + 301
    assert throttle.failed(LoginSource("later")) == 0  # an hour without failures: forgotten


def test_sixty_guesses_through_the_page_from_fresh_sessions_are_mostly_refused(results_page):
    messages = []
    for _ in range(6):  # AppTest has no connection: st.context.ip_address is None, as on loopback
        at = results_page()
        messages += [try_password(at, f"guess {len(messages)}") for _ in range(3)]
    refused = [m for m in messages if m.startswith("Too many wrong passwords")]
    checked = [m for m in messages if m.startswith("Wrong password.")]
    assert len(checked) == ThrottleConfig().server_free_attempts + 1 and len(refused) == 18 - len(checked)
    last = results_page()
    assert try_password(last, PASSWORD).startswith("Too many wrong passwords")  # not even the right one, yet
    assert not last.metric


def test_a_server_wide_lock_is_logged_as_such_without_passwords(caplog):
    caplog.set_level(logging.WARNING, logger="study.login_throttle")
    clock = FakeClock()
    guess_from_fresh_sessions(LoginThrottle(ThrottleConfig(), clock), clock, sessions=5)
    lines = [r.getMessage() for r in caplog.records if r.name == "study.login_throttle"]
    assert "study results login locked server-wide: client=unknown" in lines[-5]
    assert lines[-1].startswith("study results login refused server-wide: client=unknown")
    assert "server_failures=11" in lines[-6] and "guess" not in caplog.text


def test_the_right_password_after_the_wait_unlocks_and_resets_the_count(results_page, clock, monkeypatch):
    from_client(monkeypatch, "203.0.113.9")
    at = results_page()
    for n in range(5):
        try_password(at, f"guess {n}")  # the fourth locks for 2 s; the fifth is refused
    assert try_password(at, PASSWORD).startswith("Too many wrong passwords")
    clock.now += 2
    assert try_password(at, PASSWORD) == ""
    assert {m.label for m in at.metric} == {"Participants started", "Finished", "Answers"}
    again = results_page()  # the client's count was cleared too: three free typos again
    assert [try_password(again, "typo") for _ in range(3)] == ["Wrong password."] * 3


def test_failures_refusals_and_lockouts_are_logged_one_line_each_without_the_password(results_page, monkeypatch,
                                                                                     caplog):
    from_client(monkeypatch, "203.0.113.9")
    caplog.set_level(logging.WARNING, logger="study.login_throttle")
    at = results_page()
    for n in range(5):
        try_password(at, f"secret-guess-{n}")
    lines = [r.getMessage() for r in caplog.records if r.name == "study.login_throttle"]
    assert [line.split(":")[0] for line in lines] == (["study results login failed"] * 4
                                                      + ["study results login locked", "study results login refused"])
    assert all("client=203.0.113.9" in line and "\n" not in line for line in lines)
    assert "secret-guess" not in caplog.text and PASSWORD not in caplog.text
    assert at.session_state["maintainer_login_session"] not in caplog.text  # only a digest of the session id


def test_concurrent_failures_from_many_sessions_are_each_counted():
    threads_n, per_thread = 8, 25
    throttle = LoginThrottle(ThrottleConfig(free_attempts=threads_n * per_thread,
                                            server_free_attempts=threads_n * per_thread), FakeClock())

    def guess(index: int) -> None:
        for _ in range(per_thread):
            throttle.failed(LoginSource(f"s{index}", "203.0.113.9"))

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert throttle.admit(LoginSource("new", "203.0.113.9")) == 0  # exactly the free attempts used up
    assert throttle.failed(LoginSource("new", "203.0.113.9")) == ThrottleConfig().first_delay_s
