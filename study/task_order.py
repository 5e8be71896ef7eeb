"""The order a participant does the tasks in: a balanced Latin square (Williams design) or random.

A balanced Latin square counterbalances position and carry-over: every task is once in every
position, and every task immediately precedes every other equally often, so a tiring or priming
effect cannot favour one task. A newcomer takes the row held by the fewest participants who completed
it or are still on it; a participant screened out, or unfinished after the design's
`reassign_after_minutes`, no longer holds theirs, so the square stays balanced on completions despite
dropouts (with no dropouts, rows go in arrival order). The candidates within a task are shuffled per
participant either way (study.candidates).
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum


class TaskOrder(str, Enum):
    RANDOM = "random"
    BALANCED_LATIN_SQUARE = "balanced_latin_square"

    def __str__(self) -> str:
        return self.value


def williams_rows(n: int) -> list[list[int]]:
    """Williams (1949): row r is the first row 0, 1, n-1, 2, n-2, … plus r (mod n). For even n one
    square balances carry-over; for odd n the square and its mirror image (2n rows) do, each task
    then preceding every other exactly twice."""
    if n < 1:
        raise ValueError("a Latin square needs at least one task")
    if n == 1:
        return [[0]]
    first, low, high = [0], 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    square = [[(task + row) % n for task in first] for row in range(n)]
    return square if n % 2 == 0 else square + [row[::-1] for row in square]


@dataclass(frozen=True)
class Assignment:
    """What a new participant gets: the task ids in order, and the design row (None when random)."""

    task_ids: tuple[str, ...]
    row: int | None


@dataclass(frozen=True)
class Design:
    """How task orders are assigned; declared in the study file as `design: {order: ...}`."""

    order: TaskOrder = TaskOrder.RANDOM
    reassign_after_minutes: float | None = None  # an unfinished participant's row is free again after this

    def to_dict(self) -> dict:
        data: dict = {"order": str(self.order)}
        if self.reassign_after_minutes is not None:
            data["reassign_after_minutes"] = self.reassign_after_minutes
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Design":
        return cls(TaskOrder(data["order"]), data.get("reassign_after_minutes"))

    def rows(self, task_ids: list[str] | tuple[str, ...]) -> list[tuple[str, ...]]:
        """The orders of the square, row by row (empty for random orders)."""
        if self.order is TaskOrder.RANDOM:
            return []
        return [tuple(task_ids[i] for i in row) for row in williams_rows(len(task_ids))]

    def assign(self, task_ids: list[str] | tuple[str, ...], row_loads: Sequence[int], shuffle_seed: int) -> Assignment:
        """A newcomer's order: the least-held row (`row_loads`: holders per row, as `row_loads` counts
        them; the first such row on a tie), or a shuffle for random orders."""
        if self.order is TaskOrder.RANDOM:
            order = list(task_ids)
            random.Random(shuffle_seed).shuffle(order)
            return Assignment(tuple(order), None)
        rows = self.rows(task_ids)
        loads = list(row_loads) + [0] * (len(rows) - len(row_loads))
        row = min(range(len(rows)), key=lambda index: (loads[index], index))
        return Assignment(rows[row], row)

    def holds_row(self, outcome: str | None, started_at: datetime, now: datetime) -> bool:
        """Whether a participant still holds their row: completed, or unfinished and within the timeout
        (screened out: no; no timeout declared: every unfinished participant holds theirs)."""
        if outcome is not None:
            return outcome == "completed"
        return self.reassign_after_minutes is None or now - started_at < timedelta(minutes=self.reassign_after_minutes)


@dataclass(frozen=True)
class RowHolder:
    """One participant as the row pool sees them."""

    task_order: tuple[str, ...]
    outcome: str | None
    started_at: datetime


def row_loads(design: Design, task_ids: Sequence[str], holders: Iterable[RowHolder], now: datetime) -> list[int]:
    """Participants holding each row of the square (an order that is no row, e.g. from an edited study, counts
    for none)."""
    rows = design.rows(task_ids)
    index = {row: i for i, row in enumerate(rows)}
    loads = [0] * len(rows)
    for holder in holders:
        row = index.get(tuple(holder.task_order))
        if row is not None and design.holds_row(holder.outcome, holder.started_at, now):
            loads[row] += 1
    return loads
