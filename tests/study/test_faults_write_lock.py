"""Issue #13 item 7: another connection holding the SQLite write lock past the busy timeout made submit
raise a raw OperationalError the study page did not catch. Now the whole transaction is tried again
after growing pauses (bounded), then the participant is told the answer was not saved, with nothing
half-stored. A real SQLite file or a real PostgreSQL server, a real second connection holding the
writers' lock; timeouts and sleep are injected."""
from __future__ import annotations

import functools
import sqlite3

import pytest
import streamlit as st
from sqlalchemy import event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, OperationalError

from study import configured
from study.sessions import StudyBusyError, open_flow
from study.store import POSTGRES_WRITE_LOCK_SQL, AnswerRow, MetaRow, ParticipantRow, StoreConfig, open_store
from study.synthetic import SyntheticProvider
from study.write_retry import StoreBusyError, WriteRetry, with_retries
from tests.app_pages.test_study import FIRST_FIVE, open_page, rank, study_env  # noqa: F401 - fixture

BUSY_S = 0.05


class LockHolder:
    """A second sqlite3 connection that takes the write lock, as a backup tool or a stuck writer would."""

    writer_statement = "BEGIN IMMEDIATE"  # how each of our write tries asks for that lock

    def __init__(self, path) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None)

    def hold(self) -> None:
        self.connection.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        if self.connection.in_transaction:
            self.connection.rollback()


class PostgresLockHolder:
    """A second PostgreSQL session that takes the writers' advisory lock and keeps its transaction open, as a
    stuck writer would; our writes then wait `lock_timeout` (= busy timeout) and fail with lock_not_available."""

    writer_statement = POSTGRES_WRITE_LOCK_SQL

    def __init__(self, url: str) -> None:
        import psycopg

        self.connection = psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))

    def hold(self) -> None:
        self.connection.execute(POSTGRES_WRITE_LOCK_SQL)

    def release(self) -> None:
        self.connection.rollback()


def lock_holder(db_url: str) -> LockHolder | PostgresLockHolder:
    url = make_url(db_url)
    return LockHolder(url.database) if url.get_backend_name() == "sqlite" else PostgresLockHolder(db_url)


@pytest.fixture
def locked_flow(study, corpus, db_url):
    """A flow on a real database with a short busy timeout, its recorded pauses and its write tries."""
    pauses: list[float] = []
    retry = WriteRetry(attempts=3, first_pause_s=0.01, sleep=pauses.append)
    store = open_store(study.name, StoreConfig(url=db_url, busy_timeout_s=BUSY_S, write_retry=retry))
    flow = open_flow(study, store, SyntheticProvider(corpus), corpus)
    holder = lock_holder(db_url)
    begins: list[int] = []
    event.listen(store.engine, "before_cursor_execute", lambda conn, cursor, statement, *rest:
                 begins.append(1) if statement == holder.writer_statement else None)
    yield flow, pauses, begins, holder
    holder.release()
    holder.connection.close()


def stored(flow, code: str) -> tuple[int, bool]:
    """How many answers the participant has and whether they are marked finished."""
    with flow.store.reading() as session:
        participant = session.scalars(select(ParticipantRow).where(ParticipantRow.code == code)).one()
        answers = session.scalar(select(func.count()).where(AnswerRow.participant_id == participant.id))
        return answers, participant.finished_at is not None


def top(screen) -> list[str]:
    return [c.id for c in screen.candidates[: screen.rank_depth]]


def test_a_held_write_lock_is_retried_then_reported_and_nothing_is_half_stored(locked_flow):
    flow, pauses, begins, holder = locked_flow
    code = flow.start()
    for _ in range(len(flow.study.tasks) - 1):
        screen = flow.next_task(code)
        flow.submit(code, screen.task_id, top(screen))
    last = flow.next_task(code)  # its answer would also mark the participant finished: all or nothing
    begins.clear()
    holder.hold()
    with pytest.raises(StudyBusyError, match="not saved.*press “Save and continue” again"):
        flow.submit(code, last.task_id, top(last))
    assert len(begins) == 3 and pauses == [0.01, 0.02]  # three tries, growing pauses between them
    assert stored(flow, code) == (len(flow.study.tasks) - 1, False)
    holder.release()
    flow.submit(code, last.task_id, top(last))
    assert stored(flow, code) == (len(flow.study.tasks), True)


def test_a_lock_released_during_the_back_off_is_waited_out(study, corpus, db_url):
    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        holder.release()  # the other writer finishes while this one waits

    retry = WriteRetry(attempts=3, first_pause_s=0.01, sleep=pause)
    store = open_store(study.name, StoreConfig(url=db_url, busy_timeout_s=BUSY_S, write_retry=retry))
    flow = open_flow(study, store, SyntheticProvider(corpus), corpus)
    holder = lock_holder(db_url)
    code = flow.start()
    screen = flow.next_task(code)
    holder.hold()
    assert flow.submit(code, screen.task_id, top(screen)).answered == 1
    assert pauses == [0.01] and stored(flow, code) == (1, False)
    holder.connection.close()


def test_starting_under_a_held_lock_is_reported_not_raised(locked_flow):
    flow, _, _, holder = locked_flow
    holder.hold()
    with pytest.raises(StudyBusyError, match="press Start again"):
        flow.start()
    with flow.store.reading() as session:
        assert session.scalar(select(func.count()).select_from(ParticipantRow)) == 0


def test_retries_stop_at_the_total_time_bound():
    now = [0.0]
    tries: list[float] = []

    def busy_transaction():
        tries.append(now[0])
        now[0] += 30.0  # each try waits out a 30 s busy timeout
        raise OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))

    def sleep(seconds: float) -> None:
        now[0] += seconds

    policy = WriteRetry(attempts=5, first_pause_s=1.0, max_total_s=60.0, sleep=sleep, clock=lambda: now[0])
    with pytest.raises(StoreBusyError, match="database is locked"):
        with_retries(busy_transaction, policy, "an answer")
    assert tries == [0.0, 31.0]  # a third try would start after 62 s > 60 s


@pytest.mark.slow
@pytest.mark.parametrize("sqlstate", ["40001", "40P01", "55P03"])  # serialization failure, deadlock, lock timeout
def test_postgres_serialization_failures_deadlocks_and_lock_timeouts_are_retried(postgres, study, sqlstate):
    """The server's own error, through psycopg and SQLAlchemy, is one a write is tried again after."""
    pauses: list[float] = []
    with postgres.scratch_database() as url:
        store = open_store(study.name, StoreConfig(url=url, write_retry=WriteRetry(first_pause_s=0.01,
                                                                                   sleep=pauses.append)))
        tries: list[int] = []

        def work(session) -> None:
            tries.append(1)
            session.add(MetaRow(key="written", value=str(len(tries))))
            session.flush()
            if len(tries) == 1:  # the first try fails after writing: the retry must not find its row
                session.execute(text(f"DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '{sqlstate}'; END $$"))

        store.write(work, "a row")
        with store.reading() as session:
            assert session.get(MetaRow, "written").value == "2"
    assert len(tries) == 2 and pauses == [0.01]


def test_only_operational_errors_are_retried():
    pauses: list[float] = []

    def duplicate():
        raise IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE constraint failed"))

    with pytest.raises(IntegrityError):
        with_retries(duplicate, WriteRetry(sleep=pauses.append), "an answer")
    assert pauses == []
    with pytest.raises(ValueError, match="at least one attempt"):
        WriteRetry(attempts=0)


def test_the_page_keeps_the_ranking_and_asks_to_press_again_then_saves(study_env, tmp_path, monkeypatch):  # noqa: F811
    pauses: list[float] = []
    monkeypatch.setattr(configured, "StoreConfig", functools.partial(
        StoreConfig, busy_timeout_s=BUSY_S, write_retry=WriteRetry(first_pause_s=0.01, sleep=pauses.append)))
    st.cache_resource.clear()
    at = open_page()
    at.checkbox(key="study_consent").check().run()
    at.button(key="study_start").click().run()
    holder = LockHolder(tmp_path / "page.sqlite")
    holder.hold()
    try:
        rank(at, FIRST_FIVE)
        assert "not saved" in at.error[0].value and "again" in at.error[0].value
        assert pauses == [0.01, 0.02]
        assert "Task 1 of 3" in at.get("progress")[0].proto.text
        ranked = sorted(b.label for b in at.button if b.key.startswith("study_pick_") and b.label.startswith("Ranked"))
        assert ranked == [f"Ranked #{n}" for n in range(1, 6)]  # the ranking is still on screen
        assert not at.button(key="study_save").disabled
    finally:
        holder.release()
        holder.connection.close()
    at.button(key="study_save").click()
    at.run()
    assert not at.exception, at.exception
    assert not at.error and "Task 2 of 3" in at.get("progress")[0].proto.text
    st.cache_resource.clear()
