"""Questionnaire results: per item (and per source for per-source items) the median with IQR and a bootstrap
interval for Likert items, counts for single choice, the texts for free text; per-source Likert items also get
the Friedman and Wilcoxon tests the rankings get (study.rank_tests).

The unit is the participant: a per-source item answered after several tasks counts as the mean of that
participant's answers for the source.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from statistics import fmean

import numpy as np

from study.analysis_config import AnalysisConfig
from study.definition import StudyDefinition
from study.questionnaire import ChoiceItem, FreeTextItem, LikertItem
from study.rank_tests import FriedmanResult, PairwiseTest, friedman_test, pairwise_tests


@dataclass(frozen=True)
class QuestionnaireAnswer:
    """One stored answer to one item; `task_id` and `source` are empty for once items."""

    participant: int
    task_id: str
    source: str
    item_id: str
    value: int | str
    submitted_at: str = ""


@dataclass(frozen=True)
class LikertSummary:
    item_id: str
    source: str  # "" for once items
    participants: int
    median: float
    q1: float
    q3: float
    ci_low: float | None  # percentile bootstrap of the median; None below 2 participants
    ci_high: float | None


@dataclass(frozen=True)
class ChoiceCount:
    item_id: str
    source: str
    option: str
    count: int


@dataclass(frozen=True)
class FreeTextAnswer:
    item_id: str
    source: str
    participant: int
    text: str


@dataclass
class QuestionnaireResults:
    likert: list[LikertSummary] = field(default_factory=list)
    choices: list[ChoiceCount] = field(default_factory=list)
    texts: list[FreeTextAnswer] = field(default_factory=list)
    friedman: list[FriedmanResult] = field(default_factory=list)  # task_type holds the item id
    pairwise: list[PairwiseTest] = field(default_factory=list)


def median_interval(values: list[float], config: AnalysisConfig) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of the median (scipy.stats.bootstrap, seeded: same data, same interval)."""
    if len(values) < 2:
        return None, None
    if len(set(values)) == 1:
        return float(values[0]), float(values[0])
    from scipy import stats  # imported here: scipy.stats costs ~0.8 s of every CLI start

    result = stats.bootstrap((np.asarray(values, dtype=float),), np.median, confidence_level=config.confidence,
                             n_resamples=config.bootstrap_samples, method="percentile",
                             random_state=np.random.default_rng(config.random_seed))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def likert_summary(item_id: str, source: str, values: list[float], config: AnalysisConfig) -> LikertSummary:
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    low, high = median_interval(values, config)
    return LikertSummary(item_id, source, len(values), float(median), float(q1), float(q3), low, high)


def analyse_questionnaire(study: StudyDefinition, answers: list[QuestionnaireAnswer],
                          config: AnalysisConfig = AnalysisConfig()) -> QuestionnaireResults:
    """Every item of the study's questionnaire over `answers` (the caller leaves out excluded participants)."""
    results = QuestionnaireResults()
    sources = study.source_labels
    for item in study.questionnaire.items:
        mine = [a for a in answers if a.item_id == item.id]
        groups = sources if item.scope == "per_source" else [""]
        if isinstance(item, LikertItem):
            # participant → source → mean of their answers (a per-source item is asked after every task)
            per_person: dict[int, dict[str, list[float]]] = {}
            for answer in mine:
                per_person.setdefault(answer.participant, {}).setdefault(answer.source, []).append(float(answer.value))
            means = {p: {s: fmean(v) for s, v in by_source.items()} for p, by_source in per_person.items()}
            for source in groups:
                values = [m[source] for m in means.values() if source in m]
                if values:
                    results.likert.append(likert_summary(item.id, source, values, config))
            if item.scope == "per_source":
                present = [s for s in sources if any(s in m for m in means.values())]
                complete = [m for m in means.values() if all(s in m for s in present)]
                results.friedman.append(friedman_test(item.id, present, complete))
                results.pairwise.extend(pairwise_tests(item.id, present, means))
        elif isinstance(item, ChoiceItem):
            for source in groups:
                given = [a.value for a in mine if a.source == source]
                if given:
                    results.choices.extend(ChoiceCount(item.id, source, option, given.count(option))
                                           for option in item.options)
        elif isinstance(item, FreeTextItem):
            results.texts.extend(FreeTextAnswer(item.id, a.source, a.participant, str(a.value))
                                 for a in sorted(mine, key=lambda a: (sources.index(a.source) if a.source in sources
                                                                      else -1, a.participant)))
    return results
