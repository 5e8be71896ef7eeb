"""The order a participant does the tasks in: a balanced Latin square (Williams design) or random.

A balanced Latin square counterbalances position and carry-over: every task is once in every
position, and every task immediately precedes every other equally often, so a tiring or priming
effect cannot favour one task. Participants take the rows in arrival order (row = arrival mod rows);
the candidates within a task are shuffled per participant either way (study.candidates).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
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

    def assign(self, task_ids: list[str] | tuple[str, ...], arrival: int, shuffle_seed: int) -> Assignment:
        """The order of the participant who arrived `arrival`-th (0-based) in this study."""
        if self.order is TaskOrder.RANDOM:
            order = list(task_ids)
            random.Random(shuffle_seed).shuffle(order)
            return Assignment(tuple(order), None)
        rows = self.rows(task_ids)
        row = arrival % len(rows)
        return Assignment(rows[row], row)
