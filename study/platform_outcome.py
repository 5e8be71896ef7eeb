"""What the platform reports of a submission (Prolific's "returned" and "timed-out"), recorded by the researcher: the
participant then holds no row of the task-order balance (study.task_order), is left out of the analysis
(study.analysis) and their session is closed. Prolific lets a participant return even after completing ("my
submission should not be used"), so a finished participant can be marked too; their rows stay, labelled with the
outcome, until `study withdraw` deletes them."""
from __future__ import annotations

from study.outcome import Outcome, left_the_study
from study.participant_selector import ParticipantSelector
from study.store import StudyStore, utcnow


def mark_outcome(store: StudyStore, study_name: str | None, who: ParticipantSelector, outcome: Outcome) -> str | None:
    """Set a returned or timed-out outcome on one participant; returns the outcome they had (None: in progress)."""
    if not left_the_study(outcome):
        raise ValueError(f"only a returned or timed-out outcome is marked, not {outcome}")
    study_id, study = store.stored_study(study_name)

    def mark(session) -> str | None:
        participant = who.find(session, study_id, study.name)
        previous = participant.outcome
        participant.outcome, participant.finished_at = str(outcome), participant.finished_at or utcnow()
        return previous

    return store.write(mark, "a participant's outcome")
