"""The study database: SQLite settings, schema version, refusals."""
from __future__ import annotations

import pytest
from sqlalchemy import text

from explore.settings import data_home
from study.definition import parse_study
from study.sessions import UnknownCodeError
from study.store import SCHEMA_VERSION, StoreConfig, StudyStoreError, open_store, resolve_url
from study.synthetic import TINY_STUDY


def test_sqlite_runs_in_wal_mode_with_foreign_keys(store):
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


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
