"""How a participant's session ended, as the store keeps it (None while it is in progress)."""
from __future__ import annotations

from enum import Enum


class Outcome(str, Enum):
    """Completed and screened out end in the app; returned and timed out are what the platform (Prolific) reports of
    a submission that was given back or ran out of time, set by the researcher with `study mark`."""

    COMPLETED = "completed"
    SCREENED_OUT = "screened_out"
    RETURNED = "returned"
    TIMED_OUT = "timed_out"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> "Outcome":
        """Prolific's spelling too: `timed-out` is `timed_out`."""
        return cls(text.strip().lower().replace("-", "_"))


# Participants who left through the platform: outside the task-order balance and the analysis. Plain strings, as
# records and rows hold outcomes (a str Enum member hashes by its name, so a set of members would not match them).
LEFT_OUTCOMES = frozenset({Outcome.RETURNED.value, Outcome.TIMED_OUT.value})


def left_the_study(outcome: str | None) -> bool:
    return outcome in LEFT_OUTCOMES
