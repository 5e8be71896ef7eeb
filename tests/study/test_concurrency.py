"""30 participants answering at once against one SQLite file, and against one database on a real
PostgreSQL server: every answer stored exactly once."""
from __future__ import annotations

import threading
from collections import Counter

import pytest
from sqlalchemy import select

from study.sessions import AlreadyAnsweredError, StudyFinishedError, open_flow
from study.store import AnswerRow, ParticipantRow, StoreConfig, open_store
from study.synthetic import SyntheticProvider

PARTICIPANTS = 30


@pytest.mark.slow
def test_thirty_concurrent_participants_lose_and_duplicate_nothing(study, corpus, db_url):
    start_line = threading.Barrier(PARTICIPANTS, timeout=60)  # a thread that fails early must not hang the rest
    errors: list[BaseException] = []
    duplicates_refused = Counter()

    def participant(index: int) -> None:
        try:
            # Each thread opens its own store, like one app process per participant; the first opens
            # race to create the schema of the new database.
            flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
            code = flow.start()
            start_line.wait()
            while (screen := flow.next_task(code)) is not None:
                ranking = [c.id for c in screen.candidates[: screen.rank_depth]]
                # A double click or a second device: the same answer sent twice at the same moment.
                outcomes = []

                def send():
                    try:
                        outcomes.append(flow.submit(code, screen.task_id, ranking))
                    except (AlreadyAnsweredError, StudyFinishedError) as refused:
                        outcomes.append(refused)

                twins = [threading.Thread(target=send) for _ in range(2)]
                for twin in twins:
                    twin.start()
                for twin in twins:
                    twin.join()
                refused = [o for o in outcomes if isinstance(o, Exception)]
                assert len(outcomes) == 2 and len(refused) == 1, outcomes
                duplicates_refused[index] += 1
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=participant, args=(i,)) for i in range(PARTICIPANTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors[:3]
    store = open_store(study.name, StoreConfig(url=db_url))
    with store.reading() as session:
        answers = session.execute(select(AnswerRow.participant_id, AnswerRow.task_id)).all()
        finished = session.scalars(select(ParticipantRow.finished_at)).all()
    assert len(answers) == PARTICIPANTS * len(study.tasks)
    assert len(set(answers)) == len(answers)
    assert len(finished) == PARTICIPANTS and all(finished)
    assert sum(duplicates_refused.values()) == PARTICIPANTS * len(study.tasks)
