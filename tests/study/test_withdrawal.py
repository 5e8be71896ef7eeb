"""Withdrawal on request: every row of one participant goes in one transaction, an audit line that names nobody
stays, the report and the task-order balance forget them, and a selector that matches nobody changes nothing."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

import study.withdrawal as withdrawal
from explore.cli import main
from study.participant_selector import NoSuchParticipantError, ParticipantSelector
from study.sessions import open_flow
from study.store import (
    SCHEMA_VERSION,
    AnswerRow,
    ParticipantRow,
    PresentationRow,
    QuestionnaireRow,
    StoreConfig,
    WithdrawalRow,
    open_store,
)
from study.synthetic import SyntheticProvider, tiny_corpus
from tests.study.test_platform import IDS, answer_all, prolific_study

TABLES = (ParticipantRow, PresentationRow, AnswerRow, QuestionnaireRow)


def ids_of(n: int) -> dict[str, str]:
    return {**IDS, "PROLIFIC_PID": f"beef{n:020x}"}


def prolific_flow_at(tmp_path, url):
    study = prolific_study(tmp_path)
    corpus = tiny_corpus()
    return open_flow(study, open_store(study.name, StoreConfig(url=url)), SyntheticProvider(corpus), corpus)


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'study.sqlite'}"


def counts(store) -> dict[str, int]:
    with store.reading() as session:
        return {table.__tablename__: session.scalar(select(func.count()).select_from(table))
                for table in (*TABLES, WithdrawalRow)}


def test_withdrawal_deletes_every_row_of_one_participant_in_one_transaction(tmp_path, db_url, monkeypatch):
    flow = prolific_flow_at(tmp_path, db_url)
    stays, goes = flow.start(ids_of(1)), flow.start(ids_of(2))
    answer_all(flow, stays)
    answer_all(flow, goes)
    before = counts(flow.store)

    def audit_fails(**_):
        raise RuntimeError("the audit line could not be written")

    with monkeypatch.context() as patch:  # the audit line fails after the deletes ran: they are rolled back too
        patch.setattr(withdrawal, "WithdrawalRow", audit_fails)
        with pytest.raises(RuntimeError):
            withdrawal.withdraw(flow.store, None, ParticipantSelector(platform_id=ids_of(2)["PROLIFIC_PID"]))
    assert counts(flow.store) == before

    done = withdrawal.withdraw(flow.store, None, ParticipantSelector(platform_id=ids_of(2)["PROLIFIC_PID"]))
    tasks = len(flow.study.tasks)
    assert (done.participants, done.presentations, done.answers, done.questionnaire_pages) == (1, tasks, tasks, 0)
    after = counts(flow.store)
    assert after == {**before, "participants": 1, "presentations": tasks, "answers": tasks, "withdrawals": 1}
    assert flow.status(stays).outcome is not None  # the other participant is untouched
    with flow.store.reading() as session:
        audit = session.execute(select(WithdrawalRow)).scalar_one()
    assert (audit.reason, audit.participants, audit.answers) == ("withdrawal request", 1, tasks)
    line = json.dumps([str(getattr(audit, c.name)) for c in WithdrawalRow.__table__.columns])
    assert ids_of(2)["PROLIFIC_PID"] not in line and goes not in line
    with pytest.raises(NoSuchParticipantError, match="nothing was changed"):
        withdrawal.withdraw(flow.store, None, ParticipantSelector(code=goes))
    assert counts(flow.store) == after


def test_a_withdrawal_by_code_also_deletes_questionnaire_pages_and_frees_the_row(tmp_path, sqlite_url):
    flow = prolific_flow_at(tmp_path, sqlite_url)
    first = flow.start(ids_of(1))
    answer_all(flow, first)
    with flow.store.writing() as session:  # a questionnaire page of theirs (the tiny study asks none)
        session.add(QuestionnaireRow(participant_id=session.scalar(select(ParticipantRow.id)), page="", answers="{}"))
    rows = flow.study.task_order_rows
    second = flow.start(ids_of(2))
    assert json.loads(_order(flow, second)) == list(rows[1])
    done = withdrawal.withdraw(flow.store, None, ParticipantSelector(code=first.lower().replace("-", " ")))
    assert done.questionnaire_pages == 1
    assert json.loads(_order(flow, flow.start(ids_of(3)))) == list(rows[0])  # the withdrawn row goes out again


def _order(flow, code: str) -> str:
    with flow.store.reading() as session:
        return session.scalar(select(ParticipantRow.task_order).where(ParticipantRow.code == code))


def test_nothing_of_the_participant_is_left_in_the_sqlite_files(tmp_path, sqlite_url):
    flow = prolific_flow_at(tmp_path, sqlite_url)
    pid = ids_of(7)["PROLIFIC_PID"]
    code = flow.start(ids_of(7))
    answer_all(flow, code)
    flow.start(ids_of(8))
    files = [tmp_path / "study.sqlite", tmp_path / "study.sqlite-wal"]

    def on_disk() -> bytes:
        return b"".join(path.read_bytes() for path in files if path.exists())

    assert pid.encode() in on_disk() and code.encode() in on_disk()
    withdrawal.withdraw(flow.store, None, ParticipantSelector(platform_id=pid))
    flow.store.engine.dispose()
    assert pid.encode() not in on_disk() and code.encode() not in on_disk()


def test_the_cli_withdraws_prints_what_went_and_refuses_clearly(tmp_path, sqlite_url, capsys):
    flow = prolific_flow_at(tmp_path, sqlite_url)
    code = flow.start(ids_of(1))
    answer_all(flow, code)
    answer_all(flow, flow.start(ids_of(2)))
    before = counts(flow.store)
    for argv in ([], ["--participant", code, "--platform-id", ids_of(1)["PROLIFIC_PID"]]):
        with pytest.raises(SystemExit) as stopped:
            main(["study", "withdraw", sqlite_url, *argv])
        assert stopped.value.code == 2
        assert "--participant" in capsys.readouterr().err
    assert main(["study", "withdraw", sqlite_url, "--platform-id", "nobody"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: No participant with platform id nobody") and "Traceback" not in err
    assert main(["study", "withdraw", str(tmp_path / "missing.sqlite"), "--participant", code]) == 2
    assert "No study database" in capsys.readouterr().err
    assert counts(flow.store) == before

    assert main(["study", "withdraw", sqlite_url, "--participant", code]) == 0
    tasks = len(flow.study.tasks)
    printed = capsys.readouterr().out
    assert (f"Withdrew the participant with participant code {code}: deleted 1 participant, {tasks} shown task "
            f"lists, {tasks} answers and 0 questionnaire pages.") in printed
    assert "Audit line kept:" in printed and "withdrawal request" in printed

    assert main(["study", "report", sqlite_url, "--bootstrap", "50"]) == 0
    report = capsys.readouterr().out
    assert f"1 participants started, 1 finished, {tasks} answers" in report
    assert "Withdrawn on request: 1 participant(s), their data deleted" in report


def test_a_version_3_database_gains_the_audit_table_and_keeps_its_participants(tmp_path, sqlite_url):
    flow = prolific_flow_at(tmp_path, sqlite_url)
    code = flow.start(ids_of(1))
    flow.store.engine.dispose()
    with sqlite3.connect(Path(tmp_path / "study.sqlite")) as connection:  # as version 3 left it
        connection.execute("DROP TABLE withdrawals")
        connection.execute("UPDATE aspectnav_meta SET value = '3' WHERE key = 'schema_version'")
    store = open_store(flow.study.name, StoreConfig(url=sqlite_url))
    assert store.schema_version() == SCHEMA_VERSION == 4
    with store.reading() as session:
        assert session.execute(text("SELECT count(*) FROM withdrawals")).scalar() == 0
        assert session.scalar(select(ParticipantRow.code)) == code
