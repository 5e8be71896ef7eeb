"""A study's report from its database alone: load answers, analyse, print, export CSV and JSON.

Exports carry participant numbers, never participant codes (a code lets its holder resume).
"""
from __future__ import annotations

import csv
import io
import json
from datetime import datetime

from sqlalchemy import func, select

from study.analysis import AnalysisConfig, AnswerRecord, StudyReport, analyse
from study.candidates import Candidate
from study.definition import StudyDefinition
from study.store import AnswerRow, ParticipantRow, StudyStore

SUMMARY_FIELDS = ["task_type", "source", "mean_rank", "ci_low", "ci_high", "participants"]
ANSWER_FIELDS = ["participant", "task_id", "task_type", "answered_at", "article_id", "title", "sources", "rank"]


def load_answers(store: StudyStore, study_name: str | None = None) -> tuple[StudyDefinition, list[AnswerRecord], int, int]:
    """The stored study, its answers, and how many participants started and finished."""
    study_id, study = store.stored_study(study_name)
    with store.reading() as session:
        started = session.scalar(select(func.count()).where(ParticipantRow.study_id == study_id))
        finished = session.scalar(
            select(func.count()).where(ParticipantRow.study_id == study_id, ParticipantRow.finished_at.is_not(None))
        )
        rows = session.execute(
            select(AnswerRow.participant_id, AnswerRow.task_id, AnswerRow.ranking, AnswerRow.candidates,
                   AnswerRow.answered_at)
            .join(ParticipantRow, ParticipantRow.id == AnswerRow.participant_id)
            .where(ParticipantRow.study_id == study_id)
            .order_by(AnswerRow.id)
        ).all()
    answers = [
        AnswerRecord(
            participant=participant,
            task_id=task_id,
            ranking=tuple(json.loads(ranking)),
            candidates=tuple(Candidate.from_dict(c) for c in json.loads(candidates)),
            answered_at=answered_at.isoformat() if isinstance(answered_at, datetime) else str(answered_at),
        )
        for participant, task_id, ranking, candidates, answered_at in rows
    ]
    return study, answers, started, finished


def study_report(store: StudyStore, study_name: str | None = None,
                 config: AnalysisConfig = AnalysisConfig()) -> tuple[StudyReport, StudyDefinition, list[AnswerRecord]]:
    study, answers, started, finished = load_answers(store, study_name)
    return analyse(study, answers, config, started, finished), study, answers


def summary_csv(report: StudyReport) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=SUMMARY_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in report.summaries:
        writer.writerow({k: round(v, 4) if isinstance(v, float) else v for k, v in row.__dict__.items()})
    return out.getvalue()


def answers_csv(study: StudyDefinition, answers: list[AnswerRecord]) -> str:
    """One row per shown candidate: who saw it, in which task, from which sources, at which rank."""
    types = {task.id: task.task_type for task in study.tasks}
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=ANSWER_FIELDS, lineterminator="\n")
    writer.writeheader()
    for answer in answers:
        rank = answer.rank_of
        for candidate in answer.candidates:
            writer.writerow({
                "participant": answer.participant, "task_id": answer.task_id, "task_type": types.get(answer.task_id, ""),
                "answered_at": answer.answered_at, "article_id": candidate.id, "title": candidate.title,
                "sources": "+".join(candidate.sources), "rank": rank.get(candidate.id, ""),
            })
    return out.getvalue()


def report_json(report: StudyReport, study: StudyDefinition, answers: list[AnswerRecord]) -> str:
    data = {
        **report.to_dict(),
        "definition": study.to_dict(),
        "raw_answers": [
            {"participant": a.participant, "task_id": a.task_id, "answered_at": a.answered_at,
             "ranking": list(a.ranking), "candidates": [c.to_dict() for c in a.candidates]}
            for a in answers
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def format_report(report: StudyReport) -> str:
    """The plain-text report the CLI prints."""
    lines = [
        f"Study {report.study}: {report.participants_started} participants started, "
        f"{report.participants_finished} finished, {report.answers} answers "
        f"(unranked = {report.unranked}).",
    ]
    if not report.answers:
        lines.append("No answers yet.")
        return "\n".join(lines)
    current = None
    for row in report.summaries:
        if row.task_type != current:
            current = row.task_type
            lines += ["", f"Mean rank by source — {current} tasks (lower is better; 95% bootstrap CI)"]
        lines.append(f"  {row.source:<14} {row.mean_rank:6.2f}  [{row.ci_low:5.2f}, {row.ci_high:5.2f}]  n={row.participants}")
    lines += ["", "Friedman test (participants with every source)"]
    for f in report.friedman:
        stat = "—" if f.statistic is None else f"{f.statistic:.3f}"
        lines.append(f"  {f.task_type:<12} chi2={stat}  p={_p(f.p_value)}  n={f.participants}  {f.note}".rstrip())
    lines += ["", "Pairwise Wilcoxon signed-rank, Holm-corrected"]
    for t in report.pairwise:
        lines.append(
            f"  {t.task_type:<12} {t.source_a} vs {t.source_b}: p={_p(t.p_value)}  p_holm={_p(t.p_holm)}  "
            f"n={t.participants}  {t.note}".rstrip()
        )
    lines += ["", "Per task: mean rank by source (answers)"]
    tasks = list(dict.fromkeys(row.task_id for row in report.per_task))
    for task_id in tasks:
        cells = [f"{r.source} {r.mean_rank:.2f} ({r.answers})" for r in report.per_task if r.task_id == task_id]
        lines.append(f"  {task_id:<24} " + "  ".join(cells))
    return "\n".join(lines)
