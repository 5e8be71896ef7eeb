"""Latin-square rows stay balanced on completions: arrivals at once each take the least-held row, an
abandoned or screened-out participant's row goes back to the pool, and the report counts completions per
order. Against a real SQLite file and (slow tier) a real PostgreSQL server."""
from __future__ import annotations

import json
import threading
from collections import Counter
from datetime import timedelta

from sqlalchemy import update

from study.definition import check_study, load_study
from study.report import study_report
from study.sessions import open_flow
from study.store import ParticipantRow, StoreConfig, open_store, utcnow
from study.synthetic import TINY_DESIGN, SyntheticProvider, tiny_corpus, write_tiny_study

ARRIVALS = 20  # 5 tasks: the square and its mirror, 10 rows


def square_flow(tmp_path, db_url, minutes=30):
    design = {**TINY_DESIGN, "design": {"order": "balanced_latin_square", "reassign_after_minutes": minutes}}
    study = check_study(load_study(write_tiny_study(tmp_path, **design)), tiny_corpus())
    corpus = tiny_corpus()
    return open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)


def row_of(flow, code) -> int:
    with flow.store.reading() as session:
        participant = flow._participant(session, code)
        return flow.study.task_order_rows.index(tuple(json.loads(participant.task_order)))


def finish(flow, code) -> None:
    while (screen := flow.next_task(code)) is not None:
        task = flow.study.task(screen.task_id)
        ids = [c.id for c in screen.candidates]
        if task.check is not None:  # pass every check
            rest = [i for i in ids if i != task.check.article]
            ids = [task.check.article, *rest] if str(task.check.kind) == "attention" else rest
        flow.submit(code, screen.task_id, ids[: screen.rank_depth])


def test_arrivals_at_once_fill_every_row_equally(tmp_path, db_url):
    flow = square_flow(tmp_path, db_url)
    rows = len(flow.study.task_order_rows)
    start_line, codes, errors = threading.Barrier(ARRIVALS, timeout=60), [], []

    def arrive():
        try:
            own = open_flow(flow.study, open_store(flow.study.name, StoreConfig(url=db_url)), flow.provider, flow.corpus)
            start_line.wait()
            codes.append(own.start())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=arrive) for _ in range(ARRIVALS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors[:3]
    assert Counter(row_of(flow, code) for code in codes) == {row: ARRIVALS // rows for row in range(rows)}


def test_an_abandoned_row_goes_to_the_next_arrival_and_completions_are_counted(tmp_path, db_url):
    flow = square_flow(tmp_path, db_url, minutes=30)
    rows = len(flow.study.task_order_rows)
    codes = [flow.start() for _ in range(rows)]
    for code in codes[:4]:
        finish(flow, code)
    # Participants 5 and 6 started two hours ago and never finished; the others are still within the timeout.
    with flow.store.writing() as session:
        session.execute(update(ParticipantRow).where(ParticipantRow.code.in_(codes[4:6]))
                        .values(started_at=utcnow() - timedelta(hours=2)))
    abandoned = {row_of(flow, code) for code in codes[4:6]}
    newcomers = [flow.start(), flow.start()]
    assert {row_of(flow, code) for code in newcomers} == abandoned
    third = flow.start()  # every row is held again: the square goes round once more
    assert row_of(flow, third) == 0

    report, _, _ = study_report(flow.store, flow.study.name)
    assert [order.completed for order in report.orders] == [1, 1, 1, 1] + [0] * (rows - 4)
    assert [order.participants for order in report.orders][:1] == [2]
    assert sum(order.participants for order in report.orders) == rows + 3


def test_a_screened_out_participants_row_is_free_again(tmp_path, db_url):
    from tests.study.test_platform import PROLIFIC

    design = {**TINY_DESIGN, "design": {"order": "balanced_latin_square"}}
    study = check_study(load_study(write_tiny_study(tmp_path, **design, platform=PROLIFIC)), tiny_corpus())
    corpus = tiny_corpus()
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    first = flow.start({"PROLIFIC_PID": "p1"})
    while (screen := flow.next_task(first)) is not None:  # rank the attention item's article last: screened out
        task = flow.study.task(screen.task_id)
        ids = [c.id for c in screen.candidates if task.check is None or c.id != task.check.article]
        flow.submit(first, screen.task_id, ids[: screen.rank_depth])
    assert str(flow.status(first).outcome) == "screened_out"
    assert row_of(flow, flow.start({"PROLIFIC_PID": "p2"})) == row_of(flow, first) == 0
