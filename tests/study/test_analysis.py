"""The analysis against a fixture computed by hand (numbers in the comments)."""
from __future__ import annotations

import pytest
from scipy import stats

from study.analysis import AnalysisConfig, AnswerRecord, analyse, holm, source_scores
from study.candidates import Candidate
from study.definition import parse_study

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
