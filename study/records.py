"""What a study stores and the analysis reads back: the candidates a task showed (with the sources that proposed
them), one answer, one participant. Plain records, below the definition, the exclusion rules and the analysis that
all read them."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ShownCandidate:
    """What a participant sees: no source, no score."""

    id: str
    title: str
    snippet: str


@dataclass(frozen=True)
class Candidate:
    """A shown candidate plus the sources that proposed it (several when they agree)."""

    id: str
    title: str
    snippet: str
    sources: tuple[str, ...]

    def blinded(self) -> ShownCandidate:
        return ShownCandidate(self.id, self.title, self.snippet)

    def to_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "snippet": self.snippet, "sources": list(self.sources)}

    @classmethod
    def from_dict(cls, data: dict) -> "Candidate":
        return cls(data["id"], data["title"], data["snippet"], tuple(data["sources"]))


@dataclass(frozen=True)
class AnswerRecord:
    """One stored answer, as the analysis needs it; `participant` is a number, never the code."""

    participant: int
    task_id: str
    ranking: tuple[str, ...]
    candidates: tuple[Candidate, ...]
    answered_at: str = ""
    seconds: float | None = None  # from the task being shown to its answer
    shown_at: str = ""
    task_position: int | None = None  # 1-based place of the task in the participant's order
    order_row: int | None = None  # 0-based row of the Latin square the participant's order is
    outcome: str | None = None  # the participant's: completed, screened_out, None while in progress

    @property
    def rank_of(self) -> dict[str, int]:
        """Article id → the rank the participant gave it (1 = best); unranked ids are absent."""
        return {article_id: position for position, article_id in enumerate(self.ranking, start=1)}


@dataclass(frozen=True)
class ParticipantRecord:
    """One participant as the report needs them: number, the task order they got, whether they finished and
    how (completed, screened_out; None while in progress)."""

    participant: int
    task_order: tuple[str, ...]
    finished: bool = False
    outcome: str | None = None
