"""The app process killed mid-study and restarted: the participant resumes where they were."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select, text

from study.sessions import open_flow
from study.store import AnswerRow, PresentationRow, StoreConfig, open_store
from study.synthetic import SyntheticProvider, write_tiny_study

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_killed_process_loses_nothing_and_the_participant_resumes(tmp_path, study, corpus, db_url):
    study_file = write_tiny_study(tmp_path)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.study.participant_process", str(study_file), db_url],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ},
    )
    try:
        code = child.stdout.readline().split()[1]
        answered = child.stdout.readline().split()[1]
        showing = child.stdout.readline().split()[1]
    finally:
        child.send_signal(signal.SIGKILL)  # no clean shutdown: like a crashed or killed app
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.read()

    store = open_store(study.name, StoreConfig(url=db_url))  # the restarted app
    with store.reading() as session:
        if store.engine.dialect.name == "sqlite":  # the killed process wrote the file itself; a server outlives it
            assert session.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        assert session.scalars(select(AnswerRow.task_id)).all() == [answered]
        shown_before = {row.task_id: row.candidates for row in session.scalars(select(PresentationRow))}
    provider = SyntheticProvider(corpus)
    flow = open_flow(study, store, provider, corpus)
    assert flow.progress(code).answered == 1
    screen = flow.next_task(code)
    assert screen.number == 2 and screen.task_id == showing
    assert [c.id for c in screen.candidates] == [c["id"] for c in json.loads(shown_before[screen.task_id])]
    while screen is not None:
        flow.submit(code, screen.task_id, [c.id for c in screen.candidates[: screen.rank_depth]])
        screen = flow.next_task(code)
    with store.reading() as session:
        tasks = session.scalars(select(AnswerRow.task_id)).all()
    assert sorted(tasks) == sorted(t.id for t in study.tasks)
