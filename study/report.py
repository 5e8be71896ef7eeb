"""A study's report from its database alone: load answers, analyse, print, export CSV and JSON.

Exports carry participant numbers, never participant codes (a code lets its holder resume).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from explore.spreadsheet_csv import csv_text
from study.analysis import Comparison, StudyReport, analyse
from study.analysis_config import AnalysisConfig
from study.codebook import ANSWER_FIELDS, QUESTIONNAIRE_FIELDS, SUMMARY_FIELDS
from study.definition import StudyDefinition
from study.exclusions import apply_exclusions
from study.outcome import left_the_study
from study.questionnaire import ONCE_PAGE
from study.questionnaire_analysis import QuestionnaireAnswer, analyse_questionnaire
from study.records import AnswerRecord, Candidate, ParticipantRecord
from study.store import AnswerRow, ParticipantRow, PresentationRow, QuestionnaireRow, StudyStore
from study.withdrawal import withdrawn_participants


@dataclass(frozen=True)
class StoredAnswers:
    """A study as its database holds it: the definition, every answer, every participant, and counts."""

    study: StudyDefinition
    answers: list[AnswerRecord]
    participants: list[ParticipantRecord]
    started: int
    finished: int  # completed or screened out here (not those the platform reports returned or timed out)


def _timestamp(value) -> str:
    return value.isoformat() if isinstance(value, datetime) else ("" if value is None else str(value))


def _seconds(shown_at, answered_at) -> float | None:
    if isinstance(shown_at, datetime) and isinstance(answered_at, datetime):
        return max(0.0, (answered_at - shown_at).total_seconds())
    return None


def load_answers(store: StudyStore, study_name: str | None = None) -> StoredAnswers:
    """The stored study, its answers (with the seconds from showing each task to its answer) and participants."""
    study_id, study = store.stored_study(study_name)
    with store.reading() as session:
        people = session.execute(
            select(ParticipantRow.id, ParticipantRow.task_order, ParticipantRow.finished_at, ParticipantRow.outcome)
            .where(ParticipantRow.study_id == study_id).order_by(ParticipantRow.id)
        ).all()
        rows = session.execute(
            select(AnswerRow.participant_id, AnswerRow.task_id, AnswerRow.ranking, AnswerRow.candidates,
                   AnswerRow.answered_at, PresentationRow.shown_at)
            .join(ParticipantRow, ParticipantRow.id == AnswerRow.participant_id)
            .outerjoin(PresentationRow, (PresentationRow.participant_id == AnswerRow.participant_id)
                       & (PresentationRow.task_id == AnswerRow.task_id))
            .where(ParticipantRow.study_id == study_id)
            .order_by(AnswerRow.id)
        ).all()
    participants = [ParticipantRecord(pid, tuple(json.loads(order)), finished_at is not None, outcome)
                    for pid, order, finished_at, outcome in people]
    by_number = {p.participant: p for p in participants}
    square = {row: index for index, row in enumerate(study.task_order_rows)}
    answers = [
        AnswerRecord(
            participant=participant,
            task_id=task_id,
            ranking=tuple(json.loads(ranking)),
            candidates=tuple(Candidate.from_dict(c) for c in json.loads(candidates)),
            answered_at=_timestamp(answered_at),
            seconds=_seconds(shown_at, answered_at),
            shown_at=_timestamp(shown_at),
            task_position=_position(by_number[participant].task_order, task_id),
            order_row=square.get(by_number[participant].task_order),
            outcome=by_number[participant].outcome,
        )
        for participant, task_id, ranking, candidates, answered_at, shown_at in rows
    ]
    finished = sum(p.finished and not left_the_study(p.outcome) for p in participants)
    return StoredAnswers(study, answers, participants, len(participants), finished)


def _position(order: tuple[str, ...], task_id: str) -> int | None:
    return order.index(task_id) + 1 if task_id in order else None


def load_questionnaire(store: StudyStore, study_name: str | None = None) -> list[QuestionnaireAnswer]:
    """Every submitted questionnaire answer, one per item (and source on a per-source page), in page order."""
    study_id, _ = store.stored_study(study_name)
    with store.reading() as session:
        rows = session.execute(
            select(QuestionnaireRow.participant_id, QuestionnaireRow.page, QuestionnaireRow.answers,
                   QuestionnaireRow.submitted_at)
            .join(ParticipantRow, ParticipantRow.id == QuestionnaireRow.participant_id)
            .where(ParticipantRow.study_id == study_id, QuestionnaireRow.submitted_at.is_not(None))
            .order_by(QuestionnaireRow.id)
        ).all()
    found = []
    for participant, page, answers, submitted_at in rows:
        by_source = {"": json.loads(answers)} if page == ONCE_PAGE else json.loads(answers)
        found += [QuestionnaireAnswer(participant, page, source, item_id, value, _timestamp(submitted_at))
                  for source, values in by_source.items() for item_id, value in values.items()]
    return found


def study_report(store: StudyStore, study_name: str | None = None,
                 config: AnalysisConfig = AnalysisConfig()) -> tuple[StudyReport, StudyDefinition, list[AnswerRecord]]:
    """The report (with questionnaire results when the study has a questionnaire), the stored study, its answers."""
    stored = load_answers(store, study_name)
    report = analyse(stored.study, stored.answers, config, stored.started, stored.finished, stored.participants)
    report.participants_withdrawn = withdrawn_participants(store, stored.study.name)
    if stored.study.questionnaire.items:
        stayed = [p for p in stored.participants if not left_the_study(p.outcome)]
        keeps = apply_exclusions(stored.study, stayed, stored.answers).keeps
        ids = {p.participant for p in stayed}
        kept = [a for a in load_questionnaire(store, stored.study.name) if a.participant in ids and keeps(a.participant)]
        report.questionnaire = analyse_questionnaire(stored.study, kept, config)
    return report, stored.study, stored.answers


def questionnaire_csv(study: StudyDefinition, answers: list[QuestionnaireAnswer]) -> str:
    """One row per answered item (per source on a per-source page); the columns are the codebook's."""
    kinds = {item.id: item.kind for item in study.questionnaire.items}
    return csv_text(QUESTIONNAIRE_FIELDS, ({"participant": a.participant, "task_id": a.task_id, "source": a.source,
                                           "item_id": a.item_id, "item_kind": kinds.get(a.item_id, ""),
                                           "value": a.value, "submitted_at": a.submitted_at} for a in answers))


def summary_csv(report: StudyReport) -> str:
    return csv_text(SUMMARY_FIELDS, ({k: round(v, 4) if isinstance(v, float) else v for k, v in row.__dict__.items()}
                                     for row in report.summaries))


def answers_csv(study: StudyDefinition, answers: list[AnswerRecord]) -> str:
    """One row per shown candidate: who saw it, in which task and place, when, from which sources, at which
    rank. The columns are the codebook's (study.codebook), which says what each means."""
    types = {task.id: task.task_type for task in study.tasks}
    return csv_text(ANSWER_FIELDS, (
        {"participant": answer.participant,
         "order_row": "" if answer.order_row is None else answer.order_row + 1,
         "outcome": answer.outcome or "",
         "task_id": answer.task_id, "task_type": types.get(answer.task_id, ""),
         "task_position": answer.task_position or "",
         "shown_at": answer.shown_at, "answered_at": answer.answered_at,
         "seconds": "" if answer.seconds is None else round(answer.seconds, 1),
         "display_position": position, "article_id": candidate.id, "title": candidate.title,
         "sources": "+".join(candidate.sources), "rank": answer.rank_of.get(candidate.id, "")}
        for answer in answers for position, candidate in enumerate(answer.candidates, start=1)))


def report_json(report: StudyReport, study: StudyDefinition, answers: list[AnswerRecord]) -> str:
    data = {
        **report.to_dict(),
        "definition": study.to_dict(),
        "raw_answers": [
            {"participant": a.participant, "task_id": a.task_id, "task_position": a.task_position,
             "shown_at": a.shown_at, "answered_at": a.answered_at, "seconds": a.seconds,
             "ranking": list(a.ranking), "candidates": [c.to_dict() for c in a.candidates]}
            for a in answers
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def format_report(report: StudyReport) -> str:
    """The plain-text report the CLI prints: design, checks and exclusions, then the results (with the
    declared exclusions applied) and, when anyone was excluded, the same without exclusions."""
    lines = [
        f"Study {report.study}: {report.participants_started} participants started, "
        f"{report.participants_finished} finished, {report.answers} answers "
        f"(unranked = {report.unranked}).",
        *departure_lines(report),
    ]
    if not report.answers:
        lines.append("No answers yet.")
        return "\n".join(lines)
    lines += _design_lines(report)
    questionnaire = _questionnaire_lines(report.questionnaire) if report.questionnaire else []
    if not report.unexcluded:
        lines += _comparison_lines(report, "")
        return "\n".join(lines + questionnaire)
    kept = report.participants_answering - report.participants_excluded
    if kept:
        lines += _comparison_lines(report, f" — with exclusions ({kept} participants)")
    else:
        lines += ["", "No participant is left once the declared exclusions are applied."]
    lines += ["", "=" * 72]
    lines += _comparison_lines(report.unexcluded, f" — without exclusions ({report.unexcluded.participants} participants)")
    return "\n".join(lines + questionnaire)


def departure_lines(report: StudyReport) -> list[str]:
    """Who is not in the data, and why: returned or timed out on the platform (still counted as started), or
    withdrawn on request (deleted, so counted nowhere else)."""
    lines = []
    if report.participants_returned or report.participants_timed_out:
        lines.append(f"Returned or timed out on the platform: {report.participants_returned} returned, "
                     f"{report.participants_timed_out} timed out (left out of the analysis and the task-order balance).")
    if report.participants_withdrawn:
        lines.append(f"Withdrawn on request: {report.participants_withdrawn} participant(s), their data deleted "
                     "(not counted above).")
    return lines


def _figure(value: float | None) -> str:
    return "—" if value is None else f"{round(value, 2):g}"


def _questionnaire_lines(results) -> list[str]:
    """Likert: median [IQR] and the bootstrap interval of the median per item (and source); choice counts; the
    per-source Friedman and Wilcoxon tests; free texts as given (a terminal shows them as plain text)."""
    lines = ["", "=" * 72, "", "Questionnaire (declared exclusions applied; participant = unit)"]
    if results.likert:
        lines += ["", "Likert items: median, IQR, 95% bootstrap CI of the median"]
        lines += [f"  {r.item_id:<16} {r.source or '(once)':<14} median {_figure(r.median)}  IQR {_figure(r.q1)}–{_figure(r.q3)}  "
                  f"CI [{_figure(r.ci_low)}, {_figure(r.ci_high)}]  n={r.participants}" for r in results.likert]
    if results.friedman:
        lines += ["", "Per-source items: Friedman test across sources; pairwise Wilcoxon, Holm-corrected"]
        for f in results.friedman:
            stat = "—" if f.statistic is None else f"{f.statistic:.3f}"
            lines.append(f"  {f.task_type:<16} chi2={stat}  p={_p(f.p_value)}  n={f.participants}  {f.note}".rstrip())
            lines += [f"    {t.source_a} vs {t.source_b}: p={_p(t.p_value)}  p_holm={_p(t.p_holm)}  n={t.participants}"
                      f"  {t.note}".rstrip() for t in results.pairwise if t.task_type == f.task_type]
    if results.choices:
        lines += ["", "Single-choice items: counts"]
        lines += [f"  {c.item_id:<16} {c.source or '(once)':<14} {c.option}: {c.count}" for c in results.choices]
    if results.texts:
        lines += ["", "Free-text answers"]
        lines += [f"  {t.item_id:<16} {t.source or '(once)':<14} #{t.participant}: {t.text!r}" for t in results.texts]
    return lines


def _design_lines(report: StudyReport) -> list[str]:
    lines = []
    if report.orders:
        counts = [o.participants for o in report.orders]
        done = [o.completed for o in report.orders]
        lines += ["", f"Task order: balanced Latin square, {len(report.orders)} orders; participants per order "
                      f"{min(counts)}–{max(counts)} ({', '.join(map(str, counts))}); completed per order "
                      f"{min(done)}–{max(done)} ({', '.join(map(str, done))})"]
    else:
        lines += ["", f"Task order: {report.design} per participant"]
    if report.checks:
        lines += ["", "Checks (passed / answered)"]
        lines += [f"  {c.kind:<10} {c.task_id:<24} {c.passed} / {c.answered}" for c in report.checks]
    if report.exclusions:
        lines += ["", f"Exclusion rules declared in the study file: {report.participants_excluded} of "
                      f"{report.participants_answering} answering participants excluded"]
        lines += [f"  {r.rule:<18} {r.participants:>4}  {r.description}" for r in report.exclusions]
    return lines


def _comparison_lines(result: StudyReport | Comparison, heading: str) -> list[str]:
    lines = []
    current = None
    for row in result.summaries:
        if row.task_type != current:
            current = row.task_type
            lines += ["", f"Mean rank by source — {current} tasks{heading} (lower is better; 95% bootstrap CI)"]
        lines.append(f"  {row.source:<14} {row.mean_rank:6.2f}  [{row.ci_low:5.2f}, {row.ci_high:5.2f}]  n={row.participants}")
    lines += ["", "Friedman test (participants with every source); Kendall's W = effect size (0 none, 1 full agreement)"]
    for f in result.friedman:
        stat = "—" if f.statistic is None else f"{f.statistic:.3f}"
        w = "—" if f.kendall_w is None else f"{f.kendall_w:.3f}"
        lines.append(f"  {f.task_type:<12} chi2={stat}  p={_p(f.p_value)}  W={w}  n={f.participants}  {f.note}".rstrip())
    lines += ["", "Pairwise Wilcoxon signed-rank, Holm-corrected"]
    for t in result.pairwise:
        lines.append(
            f"  {t.task_type:<12} {t.source_a} vs {t.source_b}: p={_p(t.p_value)}  p_holm={_p(t.p_holm)}  "
            f"n={t.participants}  {t.note}".rstrip()
        )
    lines += ["", "Per task: mean rank by source (answers)"]
    tasks = list(dict.fromkeys(row.task_id for row in result.per_task))
    for task_id in tasks:
        cells = [f"{r.source} {r.mean_rank:.2f} ({r.answers})" for r in result.per_task if r.task_id == task_id]
        lines.append(f"  {task_id:<24} " + "  ".join(cells))
    return lines
