"""Balanced Latin squares: every task in every position, every ordered pair adjacent equally often."""
from __future__ import annotations

from collections import Counter

from datetime import datetime, timedelta

import pytest

from study.task_order import Design, RowHolder, TaskOrder, row_loads, williams_rows


def adjacent_pairs(rows):
    return Counter((row[i], row[i + 1]) for row in rows for i in range(len(row) - 1))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 12])
def test_williams_rows_balance_position_and_carry_over(n):
    rows = williams_rows(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n)
    for row in rows:
        assert sorted(row) == list(range(n))
    for position in range(n):  # each task equally often in each position
        assert Counter(row[position] for row in rows) == Counter({task: len(rows) // n for task in range(n)})
    pairs = adjacent_pairs(rows)
    expected = 1 if n % 2 == 0 else 2
    assert set(pairs.values()) == {expected}
    assert len(pairs) == n * (n - 1)  # every ordered pair of distinct tasks


def test_one_task_and_none():
    assert williams_rows(1) == [[0]]
    with pytest.raises(ValueError):
        williams_rows(0)


def test_participants_take_the_rows_in_arrival_order():
    design = Design(TaskOrder.BALANCED_LATIN_SQUARE)
    ids = ["a", "b", "c", "d"]
    rows = design.rows(ids)
    loads, got = [0] * 4, []
    for arrival in range(8):
        assignment = design.assign(ids, loads, shuffle_seed=arrival * 7)
        loads[assignment.row] += 1
        got.append(assignment.task_ids)
    assert got == rows + rows  # the shuffle seed plays no part
    assert design.assign(ids, [2, 1, 2, 2], 0).row == 1  # the least-held row


def test_random_orders_follow_the_shuffle_seed_and_have_no_row():
    design = Design()
    ids = [f"t{i}" for i in range(8)]
    first = design.assign(ids, [], shuffle_seed=1)
    assert first.row is None and sorted(first.task_ids) == ids
    assert design.assign(ids, [3], shuffle_seed=1) == first
    assert design.rows(ids) == []
    assert str(TaskOrder("balanced_latin_square")) == "balanced_latin_square"


def test_a_row_is_held_by_completers_and_by_the_unfinished_until_the_timeout():
    design = Design(TaskOrder.BALANCED_LATIN_SQUARE, reassign_after_minutes=30)
    ids = ["a", "b", "c", "d"]
    rows = design.rows(ids)
    now = datetime(2026, 5, 1, 12, 0)
    holders = [RowHolder(rows[0], "completed", now - timedelta(days=2)),
               RowHolder(rows[1], None, now - timedelta(minutes=29)),   # still on it
               RowHolder(rows[2], None, now - timedelta(minutes=31)),   # abandoned: row 2 is free again
               RowHolder(rows[3], "screened_out", now),                  # screened out: row 3 is free again
               RowHolder(("d", "c", "b", "a"), "completed", now)]        # no row of this square
    assert row_loads(design, ids, holders, now) == [1, 1, 0, 0]
    assert design.assign(ids, row_loads(design, ids, holders, now), 0).row == 2
    forever = Design(TaskOrder.BALANCED_LATIN_SQUARE)
    assert row_loads(forever, ids, holders, now) == [1, 1, 1, 0]
