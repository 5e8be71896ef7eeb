"""Mean rank per source, as in the research, with bootstrap intervals and rank tests.

The unit is the participant. For one answer, a source's score is the mean rank of the candidates
it proposed (a candidate two sources proposed counts for both); unranked candidates get the
`unranked` value: "last" = the nominal list length (12 = 4 sources × 3, as in the research) or
"mid" = the mean of the ranks they share ((5 + 1 + 12) / 2 = 9, fairer to sources whose picks
are all unranked). A participant's score per source and task type is the mean over their answers;
the reported mean rank is the mean over participants, with a percentile bootstrap over
participants, a Friedman test over participants who have every source, and pairwise Wilcoxon
signed-rank tests with Holm's correction; Kendall's W (the Friedman statistic scaled to 0–1) says how
strongly participants agree on the order of the sources.

Check tasks (attention items, gold tasks) are left out of the comparison; the exclusion rules the study
declared are applied, and the report carries the results with and without them. Participants whose submission the
platform reports returned or timed out are not part of the data at all (only counted).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from statistics import fmean

import numpy as np

from explore.errors import AspectNavError
from study.analysis_config import AnalysisConfig
from study.definition import StudyDefinition, Task
from study.exclusions import RuleCount, apply_exclusions
from study.outcome import Outcome, left_the_study
from study.questionnaire_analysis import QuestionnaireResults
from study.rank_tests import FriedmanResult, PairwiseTest, friedman_test, pairwise_tests
from study.records import AnswerRecord, ParticipantRecord

ALL_TASKS = "all"


@dataclass(frozen=True)
class SourceSummary:
    task_type: str
    source: str
    mean_rank: float
    ci_low: float
    ci_high: float
    participants: int


@dataclass(frozen=True)
class TaskBreakdown:
    task_id: str
    task_type: str
    source: str
    mean_rank: float
    answers: int


@dataclass(frozen=True)
class CheckOutcome:
    """How participants did on one attention item or gold task."""

    task_id: str
    kind: str
    passed: int
    answered: int


@dataclass(frozen=True)
class OrderCount:
    """How many participants got one row of the balanced Latin square, and how many completed it (the
    balance that matters: rows of dropouts go back to the pool)."""

    row: int
    order: tuple[str, ...]
    participants: int
    completed: int = 0


@dataclass
class Comparison:
    """Mean ranks and tests over one set of participants."""

    participants: int
    summaries: list[SourceSummary] = field(default_factory=list)
    friedman: list[FriedmanResult] = field(default_factory=list)
    pairwise: list[PairwiseTest] = field(default_factory=list)
    per_task: list[TaskBreakdown] = field(default_factory=list)


@dataclass
class StudyReport:
    """`summaries`…`per_task` are the primary results (declared exclusions applied); `unexcluded` holds the
    same over every answering participant when a rule excluded anyone."""

    study: str
    unranked: str
    participants_started: int
    participants_finished: int
    participants_answering: int
    answers: int
    design: str = "random"
    summaries: list[SourceSummary] = field(default_factory=list)
    friedman: list[FriedmanResult] = field(default_factory=list)
    pairwise: list[PairwiseTest] = field(default_factory=list)
    per_task: list[TaskBreakdown] = field(default_factory=list)
    checks: list[CheckOutcome] = field(default_factory=list)
    exclusions: list[RuleCount] = field(default_factory=list)
    participants_excluded: int = 0
    orders: list[OrderCount] = field(default_factory=list)
    unexcluded: Comparison | None = None
    questionnaire: QuestionnaireResults | None = None  # with the declared exclusions applied
    participants_returned: int = 0  # returned or timed out on the platform: counted here, analysed nowhere
    participants_timed_out: int = 0
    participants_withdrawn: int = 0  # deleted on request (study.withdrawal's audit lines)

    def to_dict(self) -> dict:
        return asdict(self)


def parse_unranked(policy: str | float) -> str | float:
    """'last', 'mid' or a number (the rank every unranked candidate gets)."""
    if policy in ("last", "mid"):
        return policy
    try:
        return float(policy)
    except (TypeError, ValueError):
        raise AspectNavError(f"Unranked policy {policy!r}: use 'last', 'mid' or a number.") from None


def unranked_value(task: Task, policy: str | float) -> float:
    policy = parse_unranked(policy)
    if policy == "last":
        return float(task.nominal_candidates)
    if policy == "mid":
        return (task.rank_depth + 1 + task.nominal_candidates) / 2
    return policy


def source_scores(answer: AnswerRecord, unranked: float) -> dict[str, float]:
    """Mean rank of each source's candidates in one answer."""
    rank = answer.rank_of
    ranks: dict[str, list[float]] = {}
    for candidate in answer.candidates:
        for source in candidate.sources:
            ranks.setdefault(source, []).append(rank.get(candidate.id, unranked))
    return {source: fmean(values) for source, values in ranks.items()}


def bootstrap_interval(values: list[float], config: AnalysisConfig) -> tuple[float, float]:
    """Percentile interval of the mean, resampling participants."""
    data = np.asarray(values, dtype=float)
    if len(data) < 2:
        return float(data.mean()), float(data.mean())
    rng = np.random.default_rng(config.random_seed)
    means = data[rng.integers(0, len(data), size=(config.bootstrap_samples, len(data)))].mean(axis=1)
    tail = (1 - config.confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def analyse(study: StudyDefinition, answers: list[AnswerRecord], config: AnalysisConfig = AnalysisConfig(),
            started: int | None = None, finished: int | None = None,
            participants: list[ParticipantRecord] | None = None) -> StudyReport:
    """The full report; `started`/`finished` are participant counts from the store (default: from answers);
    `participants` (default: one record per answering participant) feed the exclusion rules and design counts;
    those who returned or timed out on the platform, and their answers, are left out of everything but the counts."""
    if participants is None:
        participants = [ParticipantRecord(p, ()) for p in sorted({answer.participant for answer in answers})]
    left = {p.participant: p.outcome for p in participants if left_the_study(p.outcome)}
    answers = [answer for answer in answers if answer.participant not in left]
    answering = {answer.participant for answer in answers}
    exclusions = apply_exclusions(study, [p for p in participants if p.participant not in left], answers)
    kept = [answer for answer in answers if exclusions.keeps(answer.participant)]
    primary = compare_sources(study, kept, config)
    report = StudyReport(
        study=study.name,
        unranked=str(config.unranked),
        participants_started=started if started is not None else len(answering),
        participants_finished=finished if finished is not None else len(answering),
        participants_answering=len(answering),
        answers=len(answers),
        design=str(study.design.order),
        summaries=primary.summaries, friedman=primary.friedman, pairwise=primary.pairwise, per_task=primary.per_task,
        checks=check_outcomes(study, answers),
        exclusions=list(exclusions.counts),
        participants_excluded=len(exclusions.excluded_by),
        orders=order_counts(study, participants),
        participants_returned=sum(outcome == Outcome.RETURNED for outcome in left.values()),
        participants_timed_out=sum(outcome == Outcome.TIMED_OUT for outcome in left.values()),
    )
    if exclusions.excluded_by:
        report.unexcluded = compare_sources(study, answers, config)
    return report


def check_outcomes(study: StudyDefinition, answers: list[AnswerRecord]) -> list[CheckOutcome]:
    outcomes = []
    for task in study.check_tasks:
        mine = [answer for answer in answers if answer.task_id == task.id]
        passed = sum(task.check.passed(answer.ranking) for answer in mine)
        outcomes.append(CheckOutcome(task.id, str(task.check.kind), passed, len(mine)))
    return outcomes


def order_counts(study: StudyDefinition, participants: list[ParticipantRecord]) -> list[OrderCount]:
    """Participants per row of the Latin square (empty for random orders)."""
    rows = study.task_order_rows
    got = [tuple(p.task_order) for p in participants]
    done = [tuple(p.task_order) for p in participants if p.outcome == "completed"]
    return [OrderCount(i, row, got.count(row), done.count(row)) for i, row in enumerate(rows)]


def compare_sources(study: StudyDefinition, answers: list[AnswerRecord], config: AnalysisConfig) -> Comparison:
    """Mean rank per source with intervals, Friedman (with Kendall's W) and pairwise tests, over the
    comparison tasks (check tasks are left out)."""
    tasks = {task.id: task for task in study.comparison_tasks}
    sources = study.source_labels
    # participant → task type → source → that participant's answer scores
    by_participant: dict[str, dict[int, dict[str, list[float]]]] = {}
    per_task: dict[tuple[str, str], list[float]] = {}
    for answer in answers:
        task = tasks.get(answer.task_id)
        if task is None:
            continue  # a check task, or a task removed from the definition: not comparable, left out
        scores = source_scores(answer, unranked_value(task, config.unranked))
        for task_type in (task.task_type, ALL_TASKS):
            person = by_participant.setdefault(task_type, {}).setdefault(answer.participant, {})
            for source, score in scores.items():
                person.setdefault(source, []).append(score)
        for source, score in scores.items():
            per_task.setdefault((answer.task_id, source), []).append(score)

    result = Comparison(participants=len({answer.participant for answer in answers}))
    task_types = [*study.task_types, ALL_TASKS] if len(study.task_types) > 1 else study.task_types
    for task_type in task_types:
        people = by_participant.get(task_type, {})
        means = {p: {s: fmean(v) for s, v in scores.items()} for p, scores in people.items()}
        for source in sources:
            values = [m[source] for m in means.values() if source in m]
            if values:
                low, high = bootstrap_interval(values, config)
                result.summaries.append(SourceSummary(task_type, source, fmean(values), low, high, len(values)))
        present = [s for s in sources if any(s in m for m in means.values())]
        complete = [m for m in means.values() if all(s in m for s in present)]
        result.friedman.append(friedman_test(task_type, present, complete))
        result.pairwise.extend(pairwise_tests(task_type, present, means))
    for task in tasks.values():
        for source in sources:
            values = per_task.get((task.id, source))
            if values:
                result.per_task.append(TaskBreakdown(task.id, task.task_type, source, fmean(values), len(values)))
    return result
