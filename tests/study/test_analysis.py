"""The analysis against a fixture computed by hand (numbers in the comments)."""
from __future__ import annotations

import dataclasses

import pytest
from scipy import stats

from study.analysis import analyse, source_scores
from study.analysis_config import AnalysisConfig
from study.definition import parse_study
from study.rank_tests import holm
from study.records import AnswerRecord, Candidate

SOURCES = ["links", "generic", "aspect", "union"]
STUDY = parse_study({
    "name": "hand",
    "tasks": [
        # 1 per source: nominal 4 candidates, top 2 ranked → unranked = 4 ("last") or (2+1+4)/2 = 3.5 ("mid")
        {"id": "c1", "aspect": "country", "label": "X", "seed": "s", "goal": "g", "candidates_per_source": 1,
         "rank_depth": 2},
        # 2 per source: nominal 8 → unranked = 8 ("last")
        {"id": "o1", "aspect": "occupation", "label": "Y", "seed": "s", "goal": "g", "candidates_per_source": 2,
         "rank_depth": 2},
    ],
})


def cands(*pairs):
    return tuple(Candidate(i, i, "", tuple(sources.split("+"))) for i, sources in pairs)


C1_P1 = cands(("x1", "links"), ("x2", "generic"), ("x3", "aspect+union"))
C1_OTHERS = cands(("y1", "links"), ("y2", "generic"), ("y3", "aspect"), ("y4", "union"))
O1 = cands(("a", "links"), ("b", "links"), ("c", "generic"), ("d", "generic+aspect"), ("e", "aspect"),
           ("f", "union"), ("g", "union"))
ANSWERS = [
    AnswerRecord(1, "c1", ("x3", "x1"), C1_P1),      # links 2, generic 4, aspect 1, union 1
    AnswerRecord(2, "c1", ("y4", "y3"), C1_OTHERS),  # links 4, generic 4, aspect 2, union 1
    AnswerRecord(3, "c1", ("y1", "y2"), C1_OTHERS),  # links 1, generic 2, aspect 4, union 4
    AnswerRecord(1, "o1", ("d", "a"), O1),           # links (2+8)/2=5, generic (8+1)/2=4.5, aspect 4.5, union 8
    AnswerRecord(2, "o1", ("f", "g"), O1),           # links 8, generic 8, aspect 8, union (1+2)/2=1.5
]
EXPECTED_LAST = {
    "country": {"links": 7 / 3, "generic": 10 / 3, "aspect": 7 / 3, "union": 2.0},
    "occupation": {"links": 6.5, "generic": 6.25, "aspect": 6.25, "union": 4.75},
    # per participant over both types: P1 (3.5, 4.25, 2.75, 4.5), P2 (6, 6, 5, 1.25), P3 (1, 2, 4, 4)
    "all": {"links": 3.5, "generic": 12.25 / 3, "aspect": 11.75 / 3, "union": 3.25},
}
# "mid": unranked = 3.5 in c1: P1 generic 3.5; P2 links, generic 3.5; P3 aspect, union 3.5
EXPECTED_MID_COUNTRY = {"links": 6.5 / 3, "generic": 9 / 3, "aspect": 6.5 / 3, "union": 5.5 / 3}


def means(report, task_type):
    return {s.source: s.mean_rank for s in report.summaries if s.task_type == task_type}


def test_mean_rank_per_source_and_task_type_matches_the_hand_computation():
    report = analyse(STUDY, ANSWERS)
    for task_type, expected in EXPECTED_LAST.items():
        assert means(report, task_type) == pytest.approx(expected), task_type
    assert (report.participants_answering, report.answers) == (3, 5)
    per_task = {(r.task_id, r.source): (r.mean_rank, r.answers) for r in report.per_task}
    assert per_task[("c1", "union")] == (pytest.approx(2.0), 3)
    assert per_task[("o1", "union")] == (pytest.approx(4.75), 2)


def test_the_fair_mid_rank_option():
    report = analyse(STUDY, ANSWERS, AnalysisConfig(unranked="mid"))
    assert means(report, "country") == pytest.approx(EXPECTED_MID_COUNTRY)
    assert source_scores(ANSWERS[3], 5.0) == pytest.approx({"links": 3.5, "generic": 3, "aspect": 3, "union": 5})


def test_friedman_matches_the_hand_computation():
    # Ranks within participants (ties averaged): P1 links 3, generic 4, aspect 1.5, union 1.5;
    # P2 3.5, 3.5, 2, 1; P3 1, 2, 3.5, 3.5 → rank sums 7.5, 9.5, 7, 6.
    # Q = 12/(n k (k+1)) ΣR² − 3n(k+1) = 0.2 × 231.5 − 45 = 1.3; tie correction 1 − 18/180 = 0.9 → 13/9.
    country = next(f for f in analyse(STUDY, ANSWERS).friedman if f.task_type == "country")
    assert country.statistic == pytest.approx(13 / 9)
    assert country.p_value == pytest.approx(stats.chi2.sf(13 / 9, 3))
    assert country.participants == 3


def test_pairwise_wilcoxon_with_holm():
    rows = {(t.task_type, t.source_a, t.source_b): t for t in analyse(STUDY, ANSWERS).pairwise}
    # links − aspect in country tasks: 1, 2, −3 → W+ = W− = 3; exact two-sided p = 1.
    links_aspect = rows[("country", "links", "aspect")]
    assert (links_aspect.statistic, links_aspect.p_value) == (3.0, 1.0)
    country = [t for t in rows.values() if t.task_type == "country"]
    assert len(country) == 6
    assert [t.p_holm for t in country] == pytest.approx(holm([t.p_value for t in country]))
    assert all(t.p_holm >= t.p_value for t in country)


def test_holm_by_hand():
    # sorted 0.01 ×3 = 0.03; 0.03 ×2 = 0.06; 0.04 ×1 = 0.04 → kept monotone at 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_bootstrap_intervals_are_reproducible_and_bracket_the_mean():
    first, second = analyse(STUDY, ANSWERS), analyse(STUDY, ANSWERS)
    assert first.summaries == second.summaries
    for row in first.summaries:
        assert row.ci_low <= row.mean_rank <= row.ci_high
    # P1 and P2 give union 8 and 1.5 in occupation tasks: the interval stays within them.
    union = next(r for r in first.summaries if (r.task_type, r.source) == ("occupation", "union"))
    assert 1.5 <= union.ci_low < union.ci_high <= 8


def test_no_answers_gives_an_empty_report():
    report = analyse(STUDY, [])
    assert report.answers == 0 and report.summaries == []


def test_kendalls_w_is_the_friedman_statistic_scaled():
    # country: Q = 13/9 (above), n = 3 participants, k = 4 sources → W = Q / (n (k − 1)) = 13/81.
    country = next(f for f in analyse(STUDY, ANSWERS).friedman if f.task_type == "country")
    assert country.kendall_w == pytest.approx(13 / 81)


def test_kendalls_w_without_ties_matches_its_definition():
    # Three participants give the four sources distinct ranks; W = 12 S / (m² (n³ − n)).
    orders = [("x1", "x2", "x3", "x4"), ("x1", "x2", "x4", "x3"), ("x2", "x1", "x3", "x4")]
    candidates = cands(("x1", "links"), ("x2", "generic"), ("x3", "aspect"), ("x4", "union"))
    study = parse_study({"name": "w", "tasks": [{"id": "c", "aspect": "country", "label": "X", "seed": "s", "goal": "g",
                                                 "candidates_per_source": 1, "rank_depth": 4}]})
    friedman = analyse(study, [AnswerRecord(p, "c", order, candidates) for p, order in enumerate(orders)]).friedman[0]
    rank_sums = [1 + 1 + 2, 2 + 2 + 1, 3 + 4 + 3, 4 + 3 + 4]
    mean = sum(rank_sums) / 4
    s = sum((r - mean) ** 2 for r in rank_sums)
    assert friedman.kendall_w == pytest.approx(12 * s / (3 ** 2 * (4 ** 3 - 4)))


def _designed_study(**changes):
    from study.check_tasks import Check, CheckKind
    from study.exclusions import FailedAttention, TooFast

    study = parse_study({
        "name": "designed",
        "design": {"order": "balanced_latin_square"},
        "exclusions": [{"rule": "failed_attention"}, {"rule": "too_fast", "seconds_per_task": 3}],
        "tasks": [*STUDY_TASKS, {"id": "att", "aspect": "country", "label": "X", "seed": "s",
                                 "goal": "rank x9 first", "candidates_per_source": 1, "rank_depth": 2,
                                 "check": {"kind": "attention", "rank_first": "x9"}}],
    })
    assert study.exclusions == (FailedAttention(), TooFast(seconds_per_task=3))
    return dataclasses.replace(study, tasks=tuple(
        dataclasses.replace(t, check=Check(CheckKind.ATTENTION, "x9")) if t.check else t for t in study.tasks), **changes)


STUDY_TASKS = [
    {"id": "c1", "aspect": "country", "label": "X", "seed": "s", "goal": "g", "candidates_per_source": 1, "rank_depth": 2},
    {"id": "o1", "aspect": "occupation", "label": "Y", "seed": "s", "goal": "g", "candidates_per_source": 2,
     "rank_depth": 2},
]


def test_declared_exclusions_are_applied_and_reported_with_and_without():
    study = _designed_study()
    attention = cands(("x9", "check:attention"), ("y1", "links"), ("y2", "generic"))
    answers = [
        *(dataclasses.replace(a, seconds=10.0) for a in ANSWERS),
        AnswerRecord(1, "att", ("x9", "y1"), attention, seconds=10.0),
        AnswerRecord(2, "att", ("y1", "x9"), attention, seconds=10.0),  # fails the attention item
        AnswerRecord(3, "att", ("x9", "y2"), attention, seconds=1.0),  # P3: median of 1, 10 → 5.5 s: kept
    ]
    report = analyse(study, answers)
    assert {c.task_id: (c.passed, c.answered) for c in report.checks} == {"att": (2, 3)}
    assert [(r.rule, r.participants) for r in report.exclusions] == [("failed_attention", 1), ("too_fast", 0)]
    assert report.participants_excluded == 1
    kept = {s.source: s.mean_rank for s in report.summaries if s.task_type == "country"}
    # P1 and P3 only: links (2 + 1)/2, generic (4 + 2)/2, aspect (1 + 4)/2, union (1 + 4)/2
    assert kept == pytest.approx({"links": 1.5, "generic": 3.0, "aspect": 2.5, "union": 2.5})
    # without exclusions: the hand-computed means of all three, check task left out
    assert means(report.unexcluded, "country") == pytest.approx(EXPECTED_LAST["country"])
    assert report.unexcluded.participants == 3
    assert all(r.task_id != "att" for r in report.per_task)


def test_orders_are_counted_per_row_of_the_square():
    from study.records import ParticipantRecord

    study = _designed_study()
    rows = study.task_order_rows  # 3 tasks: 6 rows
    participants = [ParticipantRecord(i, rows[i % 6]) for i in range(8)]
    counts = analyse(study, [], participants=participants).orders
    assert [c.participants for c in counts] == [2, 2, 1, 1, 1, 1]
    assert counts[0].order == rows[0]
