"""Prolific's returned and timed-out submissions, marked by the researcher: out of the task-order balance and the
analysis, counted in the report, their session closed; a wrong id or outcome changes nothing."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from explore.cli import main
from explore.errors import AspectNavError
from study.outcome import Outcome
from study.participant_selector import ParticipantSelector
from study.platform_outcome import mark_outcome
from study.report import study_report
from study.sessions import StudyFinishedError
from study.store import ParticipantRow
from tests.study.test_platform import answer_all
from tests.study.test_withdrawal import counts, ids_of, prolific_flow_at


@pytest.fixture
def flow(tmp_path):
    return prolific_flow_at(tmp_path, f"sqlite:///{tmp_path / 'study.sqlite'}")


def row_of(flow, code: str) -> int:
    with flow.store.reading() as session:
        order = session.scalar(select(ParticipantRow.task_order).where(ParticipantRow.code == code))
    return flow.study.task_order_rows.index(tuple(json.loads(order)))


def test_a_returned_participant_gives_their_row_back_and_their_session_is_closed(flow):
    gone, other = flow.start(ids_of(1)), flow.start(ids_of(2))
    assert (row_of(flow, gone), row_of(flow, other)) == (0, 1)
    assert mark_outcome(flow.store, None, ParticipantSelector(platform_id=ids_of(1)["PROLIFIC_PID"]),
                        Outcome.RETURNED) is None
    assert row_of(flow, flow.start(ids_of(3))) == 0  # nobody holds row 0 now
    assert flow.status(gone).outcome is Outcome.RETURNED
    assert flow.next_task(gone) is None and flow.next_questionnaire(gone) is None
    with pytest.raises(StudyFinishedError):
        flow.submit(gone, flow.study.tasks[0].id, [])


def test_returned_and_timed_out_participants_are_counted_but_not_analysed(flow):
    codes = [flow.start(ids_of(n)) for n in range(4)]
    for code in codes:
        answer_all(flow, code)
    report, _, _ = study_report(flow.store)
    assert report.participants_answering == 4
    # Prolific lets a participant return after completing: "my submission should not be used".
    assert mark_outcome(flow.store, None, ParticipantSelector(code=codes[0]), Outcome.RETURNED) == "completed"
    mark_outcome(flow.store, None, ParticipantSelector(code=codes[1]), Outcome.TIMED_OUT)
    report, _, _ = study_report(flow.store)
    assert (report.participants_started, report.participants_finished, report.participants_answering) == (4, 2, 2)
    assert (report.participants_returned, report.participants_timed_out) == (1, 1)
    assert report.answers == 2 * len(flow.study.tasks)
    assert {row.participants for row in report.summaries} == {2}
    assert sum(order.completed for order in report.orders) == 2


def test_the_cli_marks_and_the_report_says_how_many_left(flow, capsys):
    url = str(flow.store.engine.url)
    code = flow.start(ids_of(1))
    answer_all(flow, flow.start(ids_of(2)))
    before = counts(flow.store)
    with pytest.raises(SystemExit):
        main(["study", "mark", url, "--platform-id", ids_of(1)["PROLIFIC_PID"], "--outcome", "completed"])
    assert "returned or timed-out, not 'completed'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["study", "mark", url, "--outcome", "returned"])
    assert "one of the arguments --participant --platform-id is required" in capsys.readouterr().err
    assert main(["study", "mark", url, "--platform-id", "nobody", "--outcome", "returned"]) == 2
    assert "error: No participant with platform id nobody in study 'tiny_study'" in capsys.readouterr().err
    assert counts(flow.store) == before and flow.status(code).outcome is None

    assert main(["study", "mark", url, "--platform-id", ids_of(1)["PROLIFIC_PID"], "--outcome", "timed-out"]) == 0
    assert (f"Marked the participant with platform id {ids_of(1)['PROLIFIC_PID']} timed_out (was in progress)"
            in capsys.readouterr().out)
    assert flow.status(code).outcome is Outcome.TIMED_OUT
    assert main(["study", "report", url, "--bootstrap", "50"]) == 0
    printed = capsys.readouterr().out
    assert "2 participants started, 1 finished" in printed
    assert ("Returned or timed out on the platform: 0 returned, 1 timed out (left out of the analysis and the "
            "task-order balance).") in printed


def test_outcomes_parse_the_platform_spelling():
    assert Outcome.parse("Timed-Out") is Outcome.TIMED_OUT and str(Outcome.TIMED_OUT) == "timed_out"
    for neither_or_both in ({}, {"code": "A", "platform_id": "B"}):
        with pytest.raises(AspectNavError, match="exactly one"):
            ParticipantSelector(**neither_or_both)
