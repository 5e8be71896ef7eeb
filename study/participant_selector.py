"""Whom a researcher's command is about: one participant of one study, named by their participant code or by the id
their platform sent (e.g. a Prolific PID), as a participant writing in would quote it."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from explore.errors import AspectNavError
from study.sessions import normalize_code
from study.store import ParticipantRow


class NoSuchParticipantError(AspectNavError):
    """The selector matches nobody in the study: nothing was changed."""


@dataclass(frozen=True)
class ParticipantSelector:
    """Exactly one of `code` (any spelling `normalize_code` accepts) and `platform_id`."""

    code: str | None = None
    platform_id: str | None = None

    def __post_init__(self) -> None:
        if (self.code is None) == (self.platform_id is None):
            raise AspectNavError("Name the participant by exactly one of a participant code or a platform id.")

    def __str__(self) -> str:
        return f"participant code {self.code}" if self.code is not None else f"platform id {self.platform_id}"

    def find(self, session: Session, study_id: int, study_name: str) -> ParticipantRow:
        """Their row, or NoSuchParticipantError saying what was looked for and where."""
        column, value = ((ParticipantRow.code, normalize_code(self.code)) if self.code is not None
                         else (ParticipantRow.platform_id, self.platform_id.strip()))
        row = session.scalars(select(ParticipantRow).where(ParticipantRow.study_id == study_id,
                                                           column == value)).first()
        if row is None:
            raise NoSuchParticipantError(f"No participant with {self} in study {study_name!r}; nothing was changed.")
        return row
