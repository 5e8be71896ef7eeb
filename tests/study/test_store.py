"""The study database on SQLite and on a real PostgreSQL server: settings, writers one at a time,
schema version, refusals."""
from __future__ import annotations

import json
import threading
import time

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from explore.settings import data_home
from study.definition import parse_study
from study.sessions import UnknownCodeError
from study.store import SCHEMA_VERSION, StoreConfig, StudyStoreError, open_store, resolve_url
from study.synthetic import TINY_STUDY


def test_sqlite_runs_in_wal_mode_with_foreign_keys(study, tmp_path):
    store = open_store(study.name, StoreConfig(url=f"sqlite:///{tmp_path / 'wal.sqlite'}"))
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


@pytest.mark.slow
def test_postgres_writers_take_the_write_lock_at_read_committed_with_the_lock_timeout(postgres, study):
    with postgres.scratch_database() as url:
        with postgres.admin() as admin:  # a server whose default would give writers stale snapshots
            admin.execute(f'ALTER DATABASE "{make_url(url).database}" SET default_transaction_isolation = serializable')
        store = open_store(study.name, StoreConfig(url=url, busy_timeout_s=2.5))
        held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
        with store.writing() as session:
            assert session.execute(text("SHOW transaction_isolation")).scalar() == "read committed"
            assert session.execute(text("SHOW lock_timeout")).scalar() == "2500ms"
            assert session.execute(text(held)).scalar() == 1
        with store.reading() as session:
            assert session.execute(text(held)).scalar() == 0  # readers never queue


def test_write_transactions_run_one_at_a_time_and_readers_do_not_wait(store):
    events: list[str] = []
    first_holds = threading.Event()

    def first_writer():
        with store.writing() as session:
            session.connection()  # the transaction, and so the write lock, begins here
            first_holds.set()
            with store.reading() as reader:  # another connection reads while the lock is held
                reader.execute(text("SELECT count(*) FROM answers")).scalar()
                events.append("read while held")
            time.sleep(0.3)
            events.append("first committed")

    def second_writer():
        first_holds.wait(10)
        with store.writing() as session:
            session.connection()
            events.append("second began")

    threads = [threading.Thread(target=first_writer), threading.Thread(target=second_writer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert events == ["read while held", "first committed", "second began"]


def test_the_schema_version_is_stored_and_a_different_one_is_refused(store, study, db_url):
    assert store.schema_version() == SCHEMA_VERSION
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE aspectnav_meta SET value = :v WHERE key = 'schema_version'"), {"v": "99"})
    with pytest.raises(StudyStoreError, match="schema version 99"):
        open_store(study.name, StoreConfig(url=db_url))


def test_the_default_database_is_a_file_under_the_data_home(monkeypatch):
    monkeypatch.delenv("ASPECTNAV_STUDY_DB", raising=False)
    assert resolve_url("vital_default") == f"sqlite:///{data_home() / 'studies' / 'vital_default.sqlite'}"
    monkeypatch.setenv("ASPECTNAV_STUDY_DB", "postgresql://u@h/db")
    assert resolve_url("vital_default") == "postgresql://u@h/db"
    assert resolve_url("vital_default", "sqlite:///x.db") == "sqlite:///x.db"


@pytest.mark.slow
def test_a_postgres_role_that_may_not_create_the_tables_gets_a_clear_refusal(postgres, study):
    with postgres.scratch_database() as url:
        with postgres.admin() as admin:  # since PostgreSQL 15 only the owner may create in schema public
            admin.execute("CREATE ROLE study_app_no_create LOGIN")
        app_url = make_url(url).set(username="study_app_no_create").render_as_string(hide_password=False)
        try:
            with pytest.raises(StudyStoreError, match="Cannot open the study database.*permission denied for schema public"):
                open_store(study.name, StoreConfig(url=app_url))
        finally:
            with postgres.admin() as admin:
                admin.execute("DROP ROLE study_app_no_create")


def test_a_report_on_a_missing_file_does_not_create_it(tmp_path):
    with pytest.raises(StudyStoreError, match="No study database"):
        open_store("x", StoreConfig(url=str(tmp_path / "typo.sqlite"), create=False))
    assert not (tmp_path / "typo.sqlite").exists()


def test_a_study_cannot_change_once_participants_started(flow, store):
    edited = parse_study({**TINY_STUDY, "tasks": TINY_STUDY["tasks"][:2]})
    flow.start()
    with pytest.raises(StudyStoreError, match="changed since 1 participant"):
        store.register_study(edited)


def test_codes_are_bound_parameters_not_sql(flow, store):
    for hostile in ["'; DROP TABLE answers; --", "' OR '1'='1", "X' UNION SELECT code FROM participants --"]:
        with pytest.raises(UnknownCodeError):
            flow.progress(hostile)
    with store.reading() as session:
        assert session.execute(text("SELECT count(*) FROM answers")).scalar() == 0


def test_a_version_1_database_is_upgraded_in_place_keeping_its_participants(tmp_path, study, corpus):
    import sqlite3

    from study.sessions import open_flow
    from study.store import Outcome
    from study.synthetic import SyntheticProvider

    path = tmp_path / "v1.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript((Path(__file__).parent / "schema_v1.sql").read_text())
        connection.execute("INSERT INTO studies VALUES (1, ?, ?, ?, '2026-01-01 00:00:00')",
                           (study.name, study.fingerprint(), json.dumps(study.to_dict())))
        connection.execute("INSERT INTO participants VALUES (1, 1, 'AAAA-BBBB-CCCC', 7, '[]', '2026-01-01 00:00:00', "
                           "'2026-01-01 00:10:00')")
    store = open_store(study.name, StoreConfig(url=f"sqlite:///{path}"))
    assert store.schema_version() == SCHEMA_VERSION
    flow = open_flow(study, store, SyntheticProvider(corpus), corpus)
    assert flow.status("AAAA-BBBB-CCCC").outcome is Outcome.COMPLETED
    assert flow.next_task(flow.start()) is not None
