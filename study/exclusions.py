"""Exclusion rules, declared in the study file before data collection and applied by the report.

Each rule is a small pydantic model (the study file's `exclusions:` items are validated by it and
the study fingerprint covers it, so rules cannot quietly change once participants started) that
decides from one participant's record and answers whether to leave them out of the analysis.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import ClassVar, Literal, Protocol, Union

from pydantic import BaseModel, ConfigDict, Field

from study.check_tasks import Check, CheckKind
from study.records import AnswerRecord, ParticipantRecord


class _CheckedTask(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def check(self) -> Check | None: ...


class RuledStudy(Protocol):
    """What the rules read of a study (a StudyDefinition): a protocol, so that the definition holds its
    rules without this module importing it back."""

    @property
    def tasks(self) -> Sequence[object]: ...  # only counted

    @property
    def check_tasks(self) -> Sequence[_CheckedTask]: ...

    @property
    def exclusions(self) -> Sequence[ExclusionRule]: ...


class _Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    needs: ClassVar[CheckKind | None] = None  # the check task the study must have for this rule

    def describe(self) -> str:
        raise NotImplementedError

    def excludes(self, study: RuledStudy, participant: ParticipantRecord,
                 answers: list[AnswerRecord]) -> bool:
        raise NotImplementedError


def _failed_check(study: RuledStudy, answers: list[AnswerRecord], kind: CheckKind) -> bool:
    checks = {task.id: task.check for task in study.check_tasks if task.check.kind is kind}
    return any(not checks[a.task_id].passed(a.ranking) for a in answers if a.task_id in checks)


class FailedAttention(_Rule):
    rule: Literal["failed_attention"] = "failed_attention"
    needs: ClassVar[CheckKind | None] = CheckKind.ATTENTION

    def describe(self) -> str:
        return "ranked another article first in an attention item"

    def excludes(self, study, participant, answers) -> bool:
        return _failed_check(study, answers, CheckKind.ATTENTION)


class GoldRankedFirst(_Rule):
    rule: Literal["gold_ranked_first"] = "gold_ranked_first"
    needs: ClassVar[CheckKind | None] = CheckKind.GOLD

    def describe(self) -> str:
        return "ranked a gold task's unrelated decoy first"

    def excludes(self, study, participant, answers) -> bool:
        return _failed_check(study, answers, CheckKind.GOLD)


class Incomplete(_Rule):
    rule: Literal["incomplete"] = "incomplete"

    def describe(self) -> str:
        return "did not answer every task"

    def excludes(self, study, participant, answers) -> bool:
        return len({a.task_id for a in answers}) < len(study.tasks)


class TooFast(_Rule):
    rule: Literal["too_fast"] = "too_fast"
    seconds_per_task: float = Field(
        strict=True, gt=0, description="a number of seconds above 0 (a median time per task below it excludes)")

    def describe(self) -> str:
        return f"took under {self.seconds_per_task:g} s per task (median, from showing a task to its answer)"

    def excludes(self, study, participant, answers) -> bool:
        seconds = [a.seconds for a in answers if a.seconds is not None]
        return bool(seconds) and median(seconds) < self.seconds_per_task


ExclusionRule = Union[FailedAttention, GoldRankedFirst, Incomplete, TooFast]
RULES: dict[str, type[_Rule]] = {cls.model_fields["rule"].default: cls
                                 for cls in (FailedAttention, GoldRankedFirst, Incomplete, TooFast)}


@dataclass(frozen=True)
class RuleCount:
    rule: str
    description: str
    participants: int  # how many this rule excludes (a participant may fall under several rules)


@dataclass(frozen=True)
class Exclusions:
    """Who the declared rules leave out; `excluded_by` maps a participant number to its rules."""

    counts: tuple[RuleCount, ...] = ()
    excluded_by: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def keeps(self, participant: int) -> bool:
        return participant not in self.excluded_by


def apply_exclusions(study: RuledStudy, participants: Iterable[ParticipantRecord],
                     answers: list[AnswerRecord]) -> Exclusions:
    by_participant: dict[int, list] = {}
    for answer in answers:
        by_participant.setdefault(answer.participant, []).append(answer)
    excluded_by: dict[int, tuple[str, ...]] = {}
    counts = dict.fromkeys((rule.rule for rule in study.exclusions), 0)
    for participant in participants:
        mine = by_participant.get(participant.participant, [])
        rules = tuple(rule.rule for rule in study.exclusions if rule.excludes(study, participant, mine))
        for rule in rules:
            counts[rule] += 1
        if rules:
            excluded_by[participant.participant] = rules
    return Exclusions(tuple(RuleCount(rule.rule, rule.describe(), counts[rule.rule]) for rule in study.exclusions),
                      excluded_by)
