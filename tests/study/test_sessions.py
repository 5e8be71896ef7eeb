"""The participant flow: order, blinding, validation, exactly-once answers, resume by code."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest
from sqlalchemy import select

from study.sessions import (
    AlreadyAnsweredError,
    InvalidRankingError,
    StudyFinishedError,
    UnknownCodeError,
    new_participant_code,
    normalize_code,
    open_flow,
)
from study.store import AnswerRow, ParticipantRow
from study.synthetic import SyntheticProvider


def answer_all(flow, code):
    seen = []
    while (screen := flow.next_task(code)) is not None:
        seen.append(screen.task_id)
        flow.submit(code, screen.task_id, [c.id for c in screen.candidates[: screen.rank_depth]])
    return seen


def test_codes_are_random_readable_and_forgiving():
    codes = {new_participant_code() for _ in range(500)}
    assert len(codes) == 500
    assert all(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", c) for c in codes)
    assert normalize_code(" ab1o 2ilx-9zz0 ") == "AB10-211X-9ZZ0"


def test_a_participant_sees_every_task_once_in_a_random_order(flow, study):
    orders = set()
    for _ in range(8):
        code = flow.start()
        seen = answer_all(flow, code)
        assert sorted(seen) == sorted(t.id for t in study.tasks)
        orders.add(tuple(seen))
        assert flow.progress(code).finished
    assert len(orders) > 1


def test_the_screen_is_blinded_and_shows_progress(flow, corpus):
    code = flow.start()
    screen = flow.next_task(code)
    assert (screen.number, screen.total, screen.rank_depth) == (1, 3, 5)
    assert screen.seed.title == corpus[flow.study.task(screen.task_id).seed].title
    for candidate in screen.candidates:
        assert set(dataclasses.asdict(candidate)) == {"id", "title", "snippet"}
    flow.submit(code, screen.task_id, [c.id for c in screen.candidates[:5]])
    assert flow.next_task(code).number == 2


@pytest.mark.parametrize(
    "make_ranking, message",
    [
        (lambda ids: ids[:4], "exactly 5"),
        (lambda ids: [*ids[:4], ""], "exactly 5"),
        (lambda ids: [ids[0], *ids[:4]], "only one rank"),
        (lambda ids: [*ids[:4], "a_not_shown"], "not shown"),
    ],
)
def test_invalid_rankings_are_refused_and_nothing_is_stored(flow, store, make_ranking, message):
    code = flow.start()
    screen = flow.next_task(code)
    with pytest.raises(InvalidRankingError, match=message):
        flow.submit(code, screen.task_id, make_ranking([c.id for c in screen.candidates]))
    assert flow.progress(code).answered == 0


def test_an_answer_is_stored_once_with_its_time_and_the_shown_list(flow, store):
    code = flow.start()
    screen = flow.next_task(code)
    ranking = [c.id for c in screen.candidates[:5]]
    flow.submit(code, screen.task_id, ranking)
    with pytest.raises(AlreadyAnsweredError):
        flow.submit(code, screen.task_id, ranking)
    with store.reading() as session:
        row = session.scalars(select(AnswerRow)).one()
    assert json.loads(row.ranking) == ranking and row.answered_at is not None
    shown = json.loads(row.candidates)
    assert [c["id"] for c in shown] == [c.id for c in screen.candidates]
    assert all(c["sources"] for c in shown)


def test_a_finished_session_cannot_be_submitted_again(flow):
    code = flow.start()
    answer_all(flow, code)
    assert flow.next_task(code) is None
    with pytest.raises(StudyFinishedError):
        flow.submit(code, flow.study.tasks[0].id, [])


def test_resume_by_code_on_another_device_shows_the_same_list(flow, study, store, corpus):
    code = flow.start()
    first = flow.next_task(code)
    provider = SyntheticProvider(corpus)
    other_device = open_flow(study, store, provider, corpus)  # a fresh app process
    assert other_device.resume(code.lower().replace("-", " ")) == code
    again = other_device.next_task(code.lower())
    assert again == first and provider.calls == 0  # the stored list, not a recomputed one
    with pytest.raises(UnknownCodeError):
        other_device.resume("AAAA-BBBB-CCCC")


def test_codes_of_one_study_do_not_open_another(flow, store, corpus, study):
    code = flow.start()
    other = open_flow(dataclasses.replace(study, name="other_study"), store, SyntheticProvider(corpus), corpus)
    with pytest.raises(UnknownCodeError):
        other.next_task(code)
    with store.reading() as session:
        assert session.scalars(select(ParticipantRow.code)).all() == [code]


def test_a_balanced_latin_square_hands_out_its_rows_in_turn(tmp_path, db_url, corpus):
    from study.definition import check_study, load_study
    from study.store import StoreConfig, open_store
    from study.synthetic import TINY_DESIGN, write_tiny_study

    study = check_study(load_study(write_tiny_study(tmp_path, **TINY_DESIGN)), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    rows = study.task_order_rows
    seen = [tuple(answer_all(flow, flow.start())) for _ in range(len(rows) + 1)]
    assert seen == [*rows, rows[0]]
    with flow.store.reading() as session:
        stored = [tuple(json.loads(o)) for o in session.scalars(select(ParticipantRow.task_order)
                                                                 .order_by(ParticipantRow.id))]
    assert stored == seen


def test_a_check_article_is_shown_among_the_candidates_credited_to_the_check(tmp_path, db_url, corpus):
    from study.definition import check_study, load_study
    from study.report import load_answers
    from study.store import StoreConfig, open_store
    from study.synthetic import TINY_DESIGN, write_tiny_study

    study = check_study(load_study(write_tiny_study(tmp_path, **TINY_DESIGN)), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    code = flow.start()
    screens = {}
    while (screen := flow.next_task(code)) is not None:
        screens[screen.task_id] = screen
        flow.submit(code, screen.task_id, [c.id for c in screen.candidates[: screen.rank_depth]])
    assert "a04" in [c.id for c in screens["gold-france"].candidates]
    assert "a05" in [c.id for c in screens["attention"].candidates]
    assert not hasattr(screens["attention"].candidates[0], "sources")  # still blinded
    stored = load_answers(flow.store)
    gold = next(a for a in stored.answers if a.task_id == "gold-france")
    assert [c.sources for c in gold.candidates if c.id == "a04"] == [("check:gold",)]
    assert all(a.seconds is not None and a.seconds >= 0 for a in stored.answers)
    assert stored.participants[0].task_order == study.task_order_rows[0]


def test_picks_are_kept_as_they_are_clicked_and_come_back_on_another_device(flow):
    from study.sessions import InvalidRankingError

    code = flow.start()
    screen = flow.next_task(code)
    assert screen.draft == ()
    ids = [c.id for c in screen.candidates]
    flow.save_draft(code, screen.task_id, ids[2:4])
    assert flow.next_task(code).draft == tuple(ids[2:4])  # a reload, or the code typed elsewhere
    for bad in ([ids[0], ids[0]], ["not-shown"], ids[: screen.rank_depth + 1]):
        with pytest.raises(InvalidRankingError):
            flow.save_draft(code, screen.task_id, bad)
    assert flow.next_task(code).draft == tuple(ids[2:4])  # a refused draft changes nothing
    flow.submit(code, screen.task_id, ids[: screen.rank_depth])
    assert flow.next_task(code).draft == ()  # the next task starts empty
