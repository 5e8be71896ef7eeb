"""Issue #25 item 9: a study answer on a full disk said "database is busy" after three tries. SQLite's
driver error SQLITE_FULL is raised where the real write would run (a small disk cannot be mounted here)."""
from __future__ import annotations

import pytest
import sqlite3

from sqlalchemy import event

from study.sessions import StudyBusyError, open_flow
from study.store import StoreConfig, open_store
from study.synthetic import SyntheticProvider
from study.write_retry import WriteRetry


def test_a_full_disk_is_said_at_once_not_retried_as_busy(study, corpus, tmp_path):
    pauses: list[float] = []
    store = open_store(study.name, StoreConfig(url=f"sqlite:///{tmp_path / 'full.sqlite'}",
                                               write_retry=WriteRetry(sleep=pauses.append)))
    flow = open_flow(study, store, SyntheticProvider(corpus), corpus)
    code = flow.start()
    screen = flow.next_task(code)

    @event.listens_for(store.engine, "before_cursor_execute")
    def _full(conn, cursor, statement, *rest):  # what SQLite answers when the file cannot grow (SQLITE_FULL)
        if statement.startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")

    with pytest.raises(StudyBusyError, match="not saved: the server cannot write.*disk is full"):
        flow.submit(code, screen.task_id, [c.id for c in screen.candidates[: screen.rank_depth]])
    assert pauses == []  # not retried: waiting does not free a disk
