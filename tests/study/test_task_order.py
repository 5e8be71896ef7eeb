"""Balanced Latin squares: every task in every position, every ordered pair adjacent equally often."""
from __future__ import annotations

from collections import Counter

import pytest

from study.task_order import Design, TaskOrder, williams_rows


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
    got = [design.assign(ids, arrival, shuffle_seed=arrival * 7).task_ids for arrival in range(8)]
    assert got == rows + rows  # the shuffle seed plays no part
    assert design.assign(ids, 5, 0).row == 1


def test_random_orders_follow_the_shuffle_seed_and_have_no_row():
    design = Design()
    ids = [f"t{i}" for i in range(8)]
    first = design.assign(ids, 0, shuffle_seed=1)
    assert first.row is None and sorted(first.task_ids) == ids
    assert design.assign(ids, 3, shuffle_seed=1) == first
    assert design.rows(ids) == []
    assert str(TaskOrder("balanced_latin_square")) == "balanced_latin_square"
