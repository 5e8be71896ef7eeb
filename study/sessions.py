"""The participant flow without a UI: start or resume by code, next task, submit a ranking, then the
questionnaire pages (per-source items after each comparison task, once items at the end).

Every step reads its state from the database, so a participant can resume on any device and a
killed app loses nothing: a task's candidate list is stored the first time it is shown, and each
answer is one transaction that can succeed only once per participant and task.
"""
from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from explore.corpus.model import Corpus
from explore.corpus.snippet import snippet
from explore.errors import AspectNavError, StorageError
from study.candidates import CandidateProvider, candidates_for
from study.definition import StudyDefinition
from study.questionnaire import ONCE_PAGE, QuestionnaireAnswerError, QuestionnairePage, ShownList, blinded_lists
from study.records import Candidate, ShownCandidate
from study.store import AnswerRow, Outcome, ParticipantRow, PresentationRow, QuestionnaireRow, StudyStore, utcnow
from study.task_order import RowHolder, TaskOrder, row_loads
from study.write_retry import StoreBusyError, WriteRetry

log = logging.getLogger(__name__)

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base 32: no I, L, O, U to misread
CODE_GROUPS, CODE_GROUP_CHARS = 3, 4  # 12 symbols = 60 random bits from `secrets`
SEED_SNIPPET_CHARS = 400
# A draft is saved on every click and the next click saves it again: one try, so a busy database never
# keeps a click waiting through the answer's retries.
DRAFT_RETRY = WriteRetry(attempts=1)


class StudySessionError(AspectNavError):
    """Base of the errors a participant can see."""


class UnknownCodeError(StudySessionError):
    pass


@dataclass(frozen=True)
class SaveWords:
    """What a participant reads when a page they submitted could not be saved (`Session._save`)."""

    what: str  # for the store's errors and the log: "an answer", "questionnaire answers"
    already_saved: str
    not_saved: str
    kept: str
    button: str


ANSWER_WORDS = SaveWords("an answer", "This task is already answered; moving on to the next one.",
                         "Your answer was not saved:", "Your ranking is still here;", "Save and continue")
QUESTIONNAIRE_WORDS = SaveWords("questionnaire answers", "This page is already answered; moving on.",
                                "Your answers were not saved:", "They are still here;", "Continue")


class MissingPlatformIdError(StudySessionError):
    """A platform study that requires the platform's participant id was started without one."""


class AlreadyAnsweredError(StudySessionError):
    pass


class StudyFinishedError(StudySessionError):
    pass


class InvalidRankingError(StudySessionError):
    pass


class InvalidQuestionnaireError(StudySessionError):
    """Questionnaire answers that do not fit their items (an open required item, a value off the scale)."""


class StudyBusyError(StudySessionError):
    """The database stayed busy through every retry; nothing was stored, so pressing again is safe."""


def new_participant_code() -> str:
    symbols = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUPS * CODE_GROUP_CHARS))
    return "-".join(symbols[i : i + CODE_GROUP_CHARS] for i in range(0, len(symbols), CODE_GROUP_CHARS))


def normalize_code(text: str) -> str:
    """Accept what people type: any case, spaces or no dashes, O for 0, I/L for 1."""
    cleaned = "".join(ch for ch in str(text).upper() if ch.isalnum())
    cleaned = cleaned.translate(str.maketrans({"O": "0", "I": "1", "L": "1"}))
    return "-".join(cleaned[i : i + CODE_GROUP_CHARS] for i in range(0, len(cleaned), CODE_GROUP_CHARS))


@dataclass(frozen=True)
class Progress:
    answered: int
    total: int
    outcome: Outcome | None = None  # set once the session ended (completed, or screened out by a failed check)

    @property
    def finished(self) -> bool:
        """Set once the last task or questionnaire page is saved (or a check screened the participant out)."""
        return self.outcome is not None


@dataclass(frozen=True)
class ParticipantStatus:
    """Where a participant stands, for the page's ending: the outcome and the ids their platform sent."""

    code: str
    outcome: Outcome | None
    platform_ids: Mapping[str, str]


@dataclass(frozen=True)
class TaskScreen:
    """Everything a participant sees for one task; blinded by construction (no sources, no scores)."""

    task_id: str
    number: int  # 1-based position in this participant's order
    total: int
    goal: str
    seed: ShownCandidate
    candidates: tuple[ShownCandidate, ...]
    rank_depth: int
    draft: tuple[str, ...] = ()  # the picks saved so far for this task (a reload starts from them)


@dataclass(frozen=True)
class ParticipantFlow:
    """One study's flow over a store; `provider` proposes candidates for tasks not shown yet.
    Build with `open_flow`."""

    study: StudyDefinition  # checked against `corpus` (seeds are article ids)
    store: StudyStore
    provider: CandidateProvider
    corpus: Corpus
    study_id: int

    def start(self, platform_ids: Mapping[str, str] | None = None) -> str:
        """A new participant (after consent): a fresh code and shuffle seed, and the task order the study's
        design gives the participant who arrives now (writes run one at a time, so arrivals are counted
        exactly and a balanced Latin square's rows are handed out in turn). With `platform_ids` (as
        `Platform.participant_ids` reads them) a platform participant already here gets their own code back:
        never a second participant for one platform id, even from two tabs at once. Without the id, a study
        whose platform requires it (`missing_id: stop`) starts nobody: their answers could never be matched."""
        if self.study.platform.requires_id and self._platform_id(platform_ids) is None:
            raise MissingPlatformIdError(self.study.platform.missing_id_message())
        shuffle_seed = secrets.randbits(62)
        task_ids = [task.id for task in self.study.tasks]
        platform_id = self._platform_id(platform_ids)

        def add(session, code: str) -> str:
            if platform_id is not None and (known := self._by_platform_id(session, platform_id)) is not None:
                return known
            order = self.study.design.assign(task_ids, self._row_loads(session, task_ids), shuffle_seed).task_ids
            session.add(ParticipantRow(study_id=self.study_id, code=code, shuffle_seed=shuffle_seed,
                                       task_order=json.dumps(list(order)), platform_id=platform_id,
                                       platform_ids=json.dumps(dict(platform_ids)) if platform_id else None))
            return code

        for _ in range(5):  # a code collision is astronomically rare; retry rather than fail
            code = new_participant_code()
            try:
                # A platform id's twin arriving at once fails the unique key; the retry then finds it.
                return self.store.write(lambda session, code=code: add(session, code), "a new participant")
            except IntegrityError:
                continue
            except StoreBusyError:
                raise StudyBusyError("The study could not start because its database is busy; "
                                     "please press Start again in a moment.") from None
        raise StudySessionError("Could not create a participant code; please try again.")

    def _row_loads(self, session, task_ids: list[str]) -> list[int]:
        """Holders per row of the square, read inside the newcomer's write transaction (writes run one at a
        time, so two arrivals never both see a row as free)."""
        if self.study.design.order is TaskOrder.RANDOM:
            return []
        people = session.execute(select(ParticipantRow.task_order, ParticipantRow.outcome, ParticipantRow.started_at)
                                 .where(ParticipantRow.study_id == self.study_id)).all()
        holders = (RowHolder(tuple(json.loads(order)), outcome, started) for order, outcome, started in people)
        return row_loads(self.study.design, task_ids, holders, utcnow())

    def _platform_id(self, platform_ids: Mapping[str, str] | None) -> str | None:
        names = self.study.platform.kind.id_parameters
        return platform_ids.get(names[0]) if platform_ids and names else None

    def _by_platform_id(self, session, platform_id: str) -> str | None:
        return session.scalars(select(ParticipantRow.code).where(ParticipantRow.study_id == self.study_id,
                                                                 ParticipantRow.platform_id == platform_id)).first()

    def returning(self, platform_ids: Mapping[str, str] | None) -> str | None:
        """The code of the participant these platform ids already belong to (None: a newcomer)."""
        platform_id = self._platform_id(platform_ids)
        if platform_id is None:
            return None
        with self.store.reading() as session:
            return self._by_platform_id(session, platform_id)

    def status(self, code: str) -> ParticipantStatus:
        with self.store.reading() as session:
            row = self._participant(session, code)
            return ParticipantStatus(row.code, Outcome(row.outcome) if row.outcome else None,
                                     json.loads(row.platform_ids) if row.platform_ids else {})

    def _participant(self, session, code: str) -> ParticipantRow:
        row = session.scalars(
            select(ParticipantRow).where(ParticipantRow.code == normalize_code(code),
                                         ParticipantRow.study_id == self.study_id)
        ).first()
        if row is None:
            raise UnknownCodeError("No participant with this code in this study. Check the code and try again.")
        return row

    def _answered(self, session, participant_id: int) -> set[str]:
        return set(session.scalars(select(AnswerRow.task_id).where(AnswerRow.participant_id == participant_id)))

    def resume(self, code: str) -> str:
        """The stored form of `code`, or UnknownCodeError."""
        with self.store.reading() as session:
            return self._participant(session, code).code

    def progress(self, code: str) -> Progress:
        with self.store.reading() as session:
            participant = self._participant(session, code)
            return Progress(len(self._answered(session, participant.id)), len(self.study.tasks),
                            Outcome(participant.outcome) if participant.outcome else None)

    def next_task(self, code: str) -> TaskScreen | None:
        """The first unanswered task in this participant's order, or None when finished (or screened out)."""
        with self.store.reading() as session:
            participant = self._participant(session, code)
            answered = self._answered(session, participant.id)
            order = json.loads(participant.task_order)
            pending = [task_id for task_id in order if task_id not in answered]
            if not pending or participant.outcome is not None:
                return None
            task_id = pending[0]
            presented = session.execute(
                select(PresentationRow.candidates, PresentationRow.draft)
                .where(PresentationRow.participant_id == participant.id, PresentationRow.task_id == task_id)
            ).first()
        shown, draft = presented if presented else (None, None)
        if shown is None:
            shown = self._present(participant.id, participant.shuffle_seed, task_id)
        task = self.study.task(task_id)
        candidates = [Candidate.from_dict(c) for c in json.loads(shown)]
        seed = self.corpus[task.seed]
        return TaskScreen(
            task_id=task_id,
            number=len(order) - len(pending) + 1,
            total=len(order),
            goal=task.goal,
            seed=ShownCandidate(seed.id, seed.title, snippet(seed.text, SEED_SNIPPET_CHARS)),
            candidates=tuple(c.blinded() for c in candidates),
            rank_depth=min(task.rank_depth, len(candidates)),
            draft=_valid_draft(draft, [c.id for c in candidates], min(task.rank_depth, len(candidates))),
        )

    def save_draft(self, code: str, task_id: str, picks: list[str]) -> None:
        """Keep the picks so far as the participant clicks them, so a reload or another device starts from
        them; picks that were not shown, repeat or overflow are refused. Nothing to keep once answered."""

        def keep(session) -> None:
            participant = self._participant(session, code)
            row = session.scalars(select(PresentationRow).where(PresentationRow.participant_id == participant.id,
                                                                PresentationRow.task_id == task_id)).first()
            if row is None:
                raise InvalidRankingError("This task was not shown to you yet; reload the page.")
            shown = [c["id"] for c in json.loads(row.candidates)]
            depth = min(self.study.task(task_id).rank_depth, len(shown))
            if len(picks) > depth or len(set(picks)) != len(picks) or any(p not in shown for p in picks):
                raise InvalidRankingError("These picks do not fit the task; reload the page.")
            row.draft = json.dumps(list(picks))

        try:
            self.store.write(keep, "the picks so far", DRAFT_RETRY)
        except StoreBusyError:  # the picks are still on the page; the next click or the answer saves them
            log.warning("A draft was not saved: the study database stayed busy")

    def _present(self, participant_id: int, shuffle_seed: int, task_id: str) -> str:
        """Fix the candidate list of a task the first time it is shown (outside any transaction:
        the engine may take a while); if another device got there first, keep its list."""
        candidates = candidates_for(self.study.task(task_id), self.provider, self.corpus, shuffle_seed)
        shown = json.dumps([c.to_dict() for c in candidates])
        try:
            self.store.write(lambda session: session.add(PresentationRow(participant_id=participant_id,
                                                                         task_id=task_id, candidates=shown)),
                             "a task's candidate list")
            return shown
        except StoreBusyError:
            raise StudyBusyError("The next task could not be prepared because the study database is busy; "
                                 "please reload the page in a moment.") from None
        except IntegrityError:
            with self.store.reading() as session:
                return session.scalars(
                    select(PresentationRow.candidates).where(PresentationRow.participant_id == participant_id,
                                                             PresentationRow.task_id == task_id)
                ).one()

    def submit(self, code: str, task_id: str, ranking: list[str]) -> Progress:
        """Store a ranking (article ids, best first) atomically with its time and the shown list;
        while the database is busy the whole transaction is tried again (see study.write_retry)."""
        total = len(self.study.tasks)

        def record(session) -> Progress:
            participant = self._participant(session, code)
            if participant.finished_at is not None:
                raise StudyFinishedError("This session is finished; thank you. Answers cannot be changed.")
            shown = session.scalars(
                select(PresentationRow.candidates).where(PresentationRow.participant_id == participant.id,
                                                         PresentationRow.task_id == task_id)
            ).first()
            if shown is None:
                raise InvalidRankingError("This task was not shown to you yet; reload the page.")
            done = self._answered(session, participant.id)
            if task_id in done:
                raise AlreadyAnsweredError("This task is already answered; moving on to the next one.")
            task = self.study.task(task_id)
            candidates = json.loads(shown)
            validate_ranking(ranking, [c["id"] for c in candidates], min(task.rank_depth, len(candidates)))
            session.add(AnswerRow(participant_id=participant.id, task_id=task_id,
                                  ranking=json.dumps(list(ranking)), candidates=shown))
            session.flush()  # a concurrent second answer fails here, inside the handler below
            answered = len(done) + 1
            if task.check is not None and task.check.kind in self.study.screen_out_checks \
                    and not task.check.passed(ranking):
                participant.outcome = str(Outcome.SCREENED_OUT)
            elif answered >= total and self._pending_page(session, participant) is None:
                participant.outcome = str(Outcome.COMPLETED)
            if participant.outcome is not None:
                participant.finished_at = utcnow()
            return Progress(answered, total, Outcome(participant.outcome) if participant.outcome else None)

        return self._save(record, ANSWER_WORDS)


    def _pending_page(self, session, participant: ParticipantRow) -> str | None:
        """The questionnaire page this participant owes now: the per-source page of the first answered
        comparison task not yet rated, else the once page when every task is answered; None when nothing is
        owed (or the session ended: screened out, or returned or timed out on the platform)."""
        questionnaire = self.study.questionnaire
        if not questionnaire.items or participant.outcome is not None:
            return None
        answered = self._answered(session, participant.id)
        submitted = set(session.scalars(select(QuestionnaireRow.page).where(
            QuestionnaireRow.participant_id == participant.id, QuestionnaireRow.submitted_at.is_not(None))))
        if questionnaire.per_source:
            for task_id in json.loads(participant.task_order):
                if task_id in answered and self.study.task(task_id).check is None and task_id not in submitted:
                    return task_id
        if questionnaire.once and len(answered) >= len(self.study.tasks) and ONCE_PAGE not in submitted:
            return ONCE_PAGE
        return None

    def _lists(self, session, participant: ParticipantRow, task_id: str) -> list[tuple[str, str, tuple[str, ...]]]:
        shown = session.scalars(select(AnswerRow.candidates).where(AnswerRow.participant_id == participant.id,
                                                                   AnswerRow.task_id == task_id)).one()
        sources = [source.label for source in self.study.task(task_id).sources]
        return blinded_lists(task_id, sources, json.loads(shown), participant.shuffle_seed)

    def next_questionnaire(self, code: str) -> QuestionnairePage | None:
        """The questionnaire page owed now (see `_pending_page`), with what was saved of it so far; blinded:
        a per-source page shows each source's candidates as a lettered list, never the source."""
        with self.store.reading() as session:
            participant = self._participant(session, code)
            page = self._pending_page(session, participant)
            if page is None:
                return None
            draft = session.scalars(select(QuestionnaireRow.draft).where(
                QuestionnaireRow.participant_id == participant.id, QuestionnaireRow.page == page)).first()
            lists = self._lists(session, participant, page) if page != ONCE_PAGE else []
        questionnaire = self.study.questionnaire
        return QuestionnairePage(
            key=page, items=questionnaire.once if page == ONCE_PAGE else questionnaire.per_source,
            lists=tuple(ShownList(letter, titles) for letter, _, titles in lists),
            draft=_json_mapping(draft))

    def save_questionnaire_draft(self, code: str, page: str, draft: Mapping) -> None:
        """Keep a page's answers so far as they are given (one try, like a ranking draft), so a reload keeps them."""

        def keep(session) -> None:
            participant = self._participant(session, code)
            if self._pending_page(session, participant) != page:
                raise InvalidQuestionnaireError("This page is not open any more; reload the page.")
            row = self._questionnaire_row(session, participant.id, page)
            row.draft = json.dumps(dict(draft))

        try:
            self.store.write(keep, "the questionnaire so far", DRAFT_RETRY)
        except StoreBusyError:  # the answers are still on the page; the next change or the submit saves them
            log.warning("A questionnaire draft was not saved: the study database stayed busy")

    def submit_questionnaire(self, code: str, page: str, answers: Mapping) -> Progress:
        """Store a page's answers once, checked against its items ({letter: {item: value}} on a per-source page,
        stored by source; {item: value} on the once page); the last page owed completes the participant."""
        questionnaire = self.study.questionnaire

        def record(session) -> Progress:
            participant = self._participant(session, code)
            if participant.finished_at is not None:
                raise StudyFinishedError("This session is finished; thank you. Answers cannot be changed.")
            if self._pending_page(session, participant) != page:
                raise AlreadyAnsweredError("This page is already answered; moving on.")
            try:
                if page == ONCE_PAGE:
                    stored = questionnaire.accept(questionnaire.once, answers)
                else:
                    lists = self._lists(session, participant, page)
                    unknown = set(answers) - {letter for letter, _, _ in lists}
                    if unknown:
                        raise QuestionnaireAnswerError("These answers name a list that was not shown; reload the page.")
                    stored = {source: questionnaire.accept(questionnaire.per_source, answers.get(letter) or {},
                                                           f" about list {letter}")
                              for letter, source, _ in lists}
            except QuestionnaireAnswerError as exc:
                raise InvalidQuestionnaireError(str(exc)) from None
            row = self._questionnaire_row(session, participant.id, page)
            row.answers, row.submitted_at = json.dumps(stored), utcnow()
            session.flush()
            answered = len(self._answered(session, participant.id))
            if answered >= len(self.study.tasks) and self._pending_page(session, participant) is None:
                participant.outcome, participant.finished_at = str(Outcome.COMPLETED), utcnow()
            return Progress(answered, len(self.study.tasks),
                            Outcome(participant.outcome) if participant.outcome else None)

        return self._save(record, QUESTIONNAIRE_WORDS)

    def _save(self, record, words: "SaveWords"):
        """Run `record` in one store write; a failure becomes the participant's message in `words`, and what
        they typed stays on their screen."""
        try:
            return self.store.write(record, words.what)
        except IntegrityError:
            # Two devices submitted the same page at once: the first one won.
            raise AlreadyAnsweredError(words.already_saved) from None
        except StoreBusyError:
            raise StudyBusyError(f"{words.not_saved} the study database is busy right now. {words.kept} "
                                 f"please press “{words.button}” again.") from None
        except StorageError as exc:
            log.warning("Could not save %s: %s", words.what, exc)
            raise StudyBusyError(f"{words.not_saved} the server cannot write right now (its disk is full or "
                                 f"read-only). {words.kept} please tell the researcher, then press "
                                 f"“{words.button}” again.") from None

    def _questionnaire_row(self, session, participant_id: int, page: str) -> QuestionnaireRow:
        row = session.scalars(select(QuestionnaireRow).where(QuestionnaireRow.participant_id == participant_id,
                                                             QuestionnaireRow.page == page)).first()
        if row is None:
            row = QuestionnaireRow(participant_id=participant_id, page=page)
            session.add(row)
        return row


def _json_mapping(text: str | None) -> dict:
    """A stored draft, or {} when there is none or it is not a mapping (a broken draft starts afresh)."""
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def open_flow(study: StudyDefinition, store: StudyStore, provider: CandidateProvider, corpus: Corpus) -> ParticipantFlow:
    """Register the study in the store (refused if it changed after participants started) and
    return its flow."""
    return ParticipantFlow(study, store, provider, corpus, store.register_study(study))


def _valid_draft(draft: str | None, shown_ids: list[str], depth: int) -> tuple[str, ...]:
    """A stored draft's picks (distinct, shown, at most `depth`); anything else starts afresh."""
    try:
        picks = json.loads(draft) if draft else []
    except ValueError:
        return ()
    if not isinstance(picks, list) or len(picks) > depth or len(set(map(str, picks))) != len(picks) \
            or any(p not in shown_ids for p in picks):
        return ()
    return tuple(picks)


def validate_ranking(ranking: list[str], shown_ids: list[str], depth: int) -> None:
    """Exactly `depth` distinct shown candidates, best first."""
    if len(ranking) != depth or any(not item for item in ranking):
        raise InvalidRankingError(f"Please pick exactly {depth} articles, one for each rank.")
    if len(set(ranking)) != len(ranking):
        raise InvalidRankingError("Each article can take only one rank; please pick a different article for each rank.")
    unknown = [item for item in ranking if item not in shown_ids]
    if unknown:
        raise InvalidRankingError("The ranking names an article that was not shown for this task; reload the page.")
