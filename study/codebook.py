"""The exported columns of a study, described once: name, type, meaning and levels. The CSV writers take
their headers from here, so the JSON codebook a reviewer reads cannot drift from the files it describes.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from study.definition import StudyDefinition
from study.outcome import Outcome

Levels = Callable[[StudyDefinition], list]


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # integer | number | text | timestamp (ISO 8601, UTC)
    meaning: str
    levels: Levels | None = None  # the values it can take, given the study (None: open)
    separator: str | None = None  # a cell holds several levels joined by it


    def describe(self, study: StudyDefinition) -> dict:
        entry = {"name": self.name, "type": self.type, "meaning": self.meaning}
        if self.levels is not None:
            entry["levels"] = self.levels(study)
        if self.separator:
            entry["separator"] = self.separator
        return entry


def _task_ids(study: StudyDefinition) -> list[str]:
    return [task.id for task in study.tasks]


def _task_types(study: StudyDefinition) -> list[str]:
    return list(dict.fromkeys(task.task_type for task in study.tasks))


def _sources(study: StudyDefinition) -> list[str]:
    checks = [task.check.source_label for task in study.check_tasks]
    return [*study.source_labels, *dict.fromkeys(checks)]


def _ranks(study: StudyDefinition) -> list:
    return [*range(1, max(task.rank_depth for task in study.tasks) + 1), ""]


def _positions(study: StudyDefinition) -> list[int]:
    return list(range(1, len(study.tasks) + 1))


def _rows(study: StudyDefinition) -> list:
    return [*range(1, len(study.task_order_rows) + 1), ""]


ANSWER_COLUMNS = (
    Column("participant", "integer", "participant number in this database (never the participant code)"),
    Column("order_row", "integer", "row of the balanced Latin square the participant's task order is "
                                   "(1-based); empty for random orders", _rows),
    Column("outcome", "text", "how the participant's session ended; empty while in progress; returned and "
                              "timed_out (the platform's word, set with `study mark`) are left out of the analysis",
           lambda study: [*map(str, Outcome), ""]),
    Column("task_id", "text", "the task, as named in the study file", _task_ids),
    Column("task_type", "text", "the task's aspect; the analysis groups tasks by it", _task_types),
    Column("task_position", "integer", "the task's place in this participant's order (1 = first shown)",
           _positions),
    Column("shown_at", "timestamp", "when the task was first shown to the participant (UTC)"),
    Column("answered_at", "timestamp", "when the participant submitted the task's ranking (UTC)"),
    Column("seconds", "number", "seconds from shown_at to answered_at"),
    Column("display_position", "integer", "the candidate's place in the list as shown (1 = top left; the list "
                                          "is shuffled per participant)"),
    Column("article_id", "text", "the candidate article's id in the corpus"),
    Column("title", "text", "the candidate article's title (Wikipedia, CC BY-SA 4.0)"),
    Column("sources", "text", "the sources that proposed the candidate, joined by '+' (never shown to the "
                              "participant; check:<kind> marks a check task's article)", _sources, "+"),
    Column("rank", "integer", "the rank the participant gave the candidate (1 = best); empty = unranked", _ranks),
)

SUMMARY_COLUMNS = (
    Column("task_type", "text", "tasks pooled by aspect; 'all' pools every comparison task",
           lambda study: [*study.task_types, *(["all"] if len(study.task_types) > 1 else [])]),
    Column("source", "text", "the candidate source", lambda study: study.source_labels),
    Column("mean_rank", "number", "mean over participants of each participant's mean rank of the source's "
                                  "candidates (lower = preferred; unranked count as the report's policy says)"),
    Column("ci_low", "number", "lower end of the 95 % percentile bootstrap interval of mean_rank (participants "
                               "resampled)"),
    Column("ci_high", "number", "upper end of that interval"),
    Column("participants", "integer", "participants with at least one answer for the source"),
)

QUESTIONNAIRE_COLUMNS = (
    Column("participant", "integer", "participant number in this database (the answers.csv number)"),
    Column("task_id", "text", "the comparison task a per-source item was asked after; empty for items asked once",
           lambda study: [*(task.id for task in study.comparison_tasks), ""]),
    Column("source", "text", "the source whose candidates the per-source item was about (shown to the participant "
                             "only as a lettered list); empty for items asked once",
           lambda study: [*study.source_labels, ""]),
    Column("item_id", "text", "the questionnaire item, as named in the study file",
           lambda study: [item.id for item in study.questionnaire.items]),
    Column("item_kind", "text", "likert (value: a point, 1 = the low anchor), single_choice (value: the option) or "
                                "free_text (value: the participant's text)",
           lambda study: list(dict.fromkeys(item.kind for item in study.questionnaire.items))),
    Column("value", "text", "the answer; an optional item left open has no row"),
    Column("submitted_at", "timestamp", "when the participant submitted the page (UTC)"),
)

FILES = {"answers.csv": ANSWER_COLUMNS, "summary.csv": SUMMARY_COLUMNS, "questionnaire.csv": QUESTIONNAIRE_COLUMNS}
ANSWER_FIELDS = [column.name for column in ANSWER_COLUMNS]
SUMMARY_FIELDS = [column.name for column in SUMMARY_COLUMNS]
QUESTIONNAIRE_FIELDS = [column.name for column in QUESTIONNAIRE_COLUMNS]


def codebook(study: StudyDefinition) -> dict:
    """Every exported column of every file, with its levels for this study."""
    files = {name: columns for name, columns in FILES.items()
             if name != "questionnaire.csv" or study.questionnaire.items}
    return {"study": study.name, "fingerprint": study.fingerprint(),
            "files": {name: [column.describe(study) for column in columns] for name, columns in files.items()}}


def codebook_json(study: StudyDefinition) -> str:
    return json.dumps(codebook(study), indent=2, ensure_ascii=False)
