"""A participant's withdrawal on request: every row of theirs deleted in one transaction, and an audit line that
records when and how much went, but neither who nor what they answered.

On SQLite the deleted content is also overwritten in the file (`secure_delete`) and the write-ahead log is emptied
afterwards, so the bytes of the answers do not linger in free pages; PostgreSQL keeps dead rows in its files until
VACUUM reuses the space, as for any deleted row.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from study.participant_selector import ParticipantSelector
from study.store import AnswerRow, ParticipantRow, PresentationRow, QuestionnaireRow, StudyStore, WithdrawalRow, utcnow

WITHDRAWAL_REQUEST = "withdrawal request"  # a fixed reason, never free text: a note could name the person


@dataclass(frozen=True)
class Withdrawal:
    """What one withdrawal deleted (the audit line's figures)."""

    deleted_at: datetime
    participants: int
    presentations: int
    answers: int
    questionnaire_pages: int


def withdraw(store: StudyStore, study_name: str | None, who: ParticipantSelector) -> Withdrawal:
    """Delete one participant of the study (`study_name`, or the database's only study) with their shown lists,
    answers and questionnaire pages, and add the audit line, all in one transaction; NoSuchParticipantError (and
    nothing deleted) when `who` matches nobody."""
    study_id, study = store.stored_study(study_name)
    sqlite = store.engine.dialect.name == "sqlite"

    def delete_all(session: Session) -> Withdrawal:
        if sqlite:
            session.execute(text("PRAGMA secure_delete = ON"))  # zero what is deleted, whatever SQLite's build default
        participant = who.find(session, study_id, study.name)
        counts = {table.__tablename__: session.execute(delete(table).where(table.participant_id == participant.id))
                  .rowcount for table in (PresentationRow, AnswerRow, QuestionnaireRow)}
        session.execute(delete(ParticipantRow).where(ParticipantRow.id == participant.id))
        audit = WithdrawalRow(study_id=study_id, deleted_at=utcnow(), reason=WITHDRAWAL_REQUEST, participants=1,
                              presentations=counts["presentations"], answers=counts["answers"],
                              questionnaire_pages=counts["questionnaire_answers"])
        session.add(audit)
        return Withdrawal(audit.deleted_at, 1, audit.presentations, audit.answers, audit.questionnaire_pages)

    done = store.write(delete_all, "a withdrawal")
    if sqlite:
        _empty_write_ahead_log(store)
    return done


def _empty_write_ahead_log(store: StudyStore) -> None:
    """Copy the log into the database file and truncate it: its older page images still hold the deleted rows.
    Best effort: a reader still open elsewhere (the running app) can keep part of the log until it moves on."""
    connection = store.engine.raw_connection()
    try:
        connection.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # autocommit: the store's connect hook
    finally:
        connection.close()


def withdrawn_participants(store: StudyStore, study_name: str | None) -> int:
    """How many participants of the study withdrew and had their data deleted (the report counts them)."""
    study_id, _ = store.stored_study(study_name)
    with store.reading() as session:
        return session.scalar(select(func.coalesce(func.sum(WithdrawalRow.participants), 0))
                              .where(WithdrawalRow.study_id == study_id))
