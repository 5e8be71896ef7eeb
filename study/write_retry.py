"""Retrying a whole write transaction when the database stays busy (another writer holds the lock past
the busy timeout), so a participant sees a clear "not saved, try again" instead of a raw driver error.

Only whole transactions are retried: each attempt either commits everything or rolls back everything.
"""
from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sqlalchemy.exc import OperationalError

from explore.errors import AspectNavError, storage_error

log = logging.getLogger(__name__)
T = TypeVar("T")


class StoreBusyError(AspectNavError):
    """Every attempt found the database busy; nothing was written."""


@dataclass(frozen=True)
class WriteRetry:
    """Up to `attempts` tries, pausing `first_pause_s`, then `growth` times longer between them; no try
    starts after `max_total_s`, so the longest wait is that plus one busy timeout. `sleep` and `clock`
    are injectable so tests assert the pauses instead of waiting them out."""

    attempts: int = 3
    first_pause_s: float = 1.0
    growth: float = 2.0
    max_total_s: float = 60.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False, repr=False)
    clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"WriteRetry needs at least one attempt, not {self.attempts}.")

    def pause_before(self, attempt: int) -> float:
        """The pause before try number `attempt` (2, 3, …)."""
        return self.first_pause_s * self.growth ** (attempt - 2)


def with_retries(transaction: Callable[[], T], policy: WriteRetry, what: str) -> T:
    """Run `transaction` (one all-or-nothing write), again after a pause while it fails with an
    OperationalError (the DB-API's "not the program's fault": SQLite locked or busy; PostgreSQL lock
    timeout, serialization failure or deadlock; a lost connection); any other error passes through at
    once. Gives up with StoreBusyError."""
    started = policy.clock()
    for attempt in range(1, policy.attempts + 1):
        try:
            return transaction()
        except OperationalError as exc:
            reason = str(exc.orig).splitlines()[0] if exc.orig else type(exc).__name__
            lasting = lasting_failure(reason)
            if lasting is not None:  # waiting cannot help: a full or read-only disk is not a busy database
                log.warning("%s not written: %s", what, reason)
                raise storage_error(OSError(lasting, reason), f"save {what}") from exc
            pause = policy.pause_before(attempt + 1)
            if attempt == policy.attempts or policy.clock() - started + pause > policy.max_total_s:
                log.warning("%s not written after %d tries (%s); giving up", what, attempt, reason)
                raise StoreBusyError(f"The study database stayed busy ({reason}); {what} was not written.") from exc
            log.warning("%s: database busy (%s); try %d of %d in %.2f s", what, reason, attempt + 1,
                        policy.attempts, pause)
            policy.sleep(pause)
    raise AssertionError("unreachable: WriteRetry has at least one attempt")


# Driver messages (SQLite, PostgreSQL) of failures that no retry fixes, as the OSError kind they stand for.
_LASTING = (("disk is full", errno.ENOSPC), ("no space left", errno.ENOSPC), ("quota", errno.EDQUOT),
            ("readonly database", errno.EROFS), ("read-only", errno.EROFS))


def lasting_failure(reason: str) -> int | None:
    """The errno of a driver error that says the disk, not another writer, refused the write; else None."""
    folded = reason.casefold()
    return next((code for text, code in _LASTING if text in folded), None)
