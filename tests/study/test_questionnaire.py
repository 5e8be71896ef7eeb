"""Questionnaire items: the study file block and its refusals, answers through the store on SQLite and
PostgreSQL, the numbers of the analysis against a hand computation, and the export's codebook."""
from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from scipy import stats

from study.analysis_config import AnalysisConfig
from study.codebook import codebook
from study.definition import StudyDefinitionError, check_study, load_study, parse_study, study_from_dict
from study.questionnaire_analysis import QuestionnaireAnswer, analyse_questionnaire
from study.report import format_report, load_questionnaire, questionnaire_csv, study_report
from study.sessions import InvalidQuestionnaireError, open_flow
from study.store import StoreConfig, open_store
from study.synthetic import TINY_STUDY, SyntheticProvider, tiny_corpus, write_tiny_study

OWN_ITEMS = [{"id": "device", "kind": "single_choice", "text": "Device?", "options": ["Phone", "Computer"]},
             {"id": "remarks", "kind": "free_text", "text": "Anything else?", "required": False, "max_length": 50}]


def refusal(questionnaire) -> str:
    with pytest.raises(StudyDefinitionError) as error:
        parse_study({**TINY_STUDY, "questionnaire": questionnaire})
    return str(error.value)


def test_the_resque_preset_and_own_items_are_read_and_kept_in_the_stored_definition():
    study = parse_study({**TINY_STUDY, "questionnaire": {"preset": "resque", "items": OWN_ITEMS}})
    items = study.questionnaire.items
    assert [i.id for i in study.questionnaire.per_source] == ["accuracy", "novelty", "diversity"]
    assert [i.id for i in study.questionnaire.once] == ["transparency", "trust", "intention", "device", "remarks"]
    assert items[0].points == 5 and items[0].anchors == ("Strongly disagree", "Strongly agree")
    assert study_from_dict(study.to_dict()) == study
    assert study.fingerprint() != parse_study(TINY_STUDY).fingerprint()  # what is asked is part of the study
    assert "questionnaire" not in parse_study(TINY_STUDY).to_dict()  # studies without one keep their fingerprint


@pytest.mark.parametrize("questionnaire, message", [
    ({"items": [{"id": "x", "kind": "likert", "text": "t", "points": 6}]},
     "Study 'tiny_study', questionnaire item 'x': 'points' must be 5 or 7, not 6."),
    ({"items": [{"id": "x", "kind": "likret", "text": "t"}]},
     "questionnaire item 'x': 'kind' must be one of likert, single_choice, free_text, not 'likret'."),
    ({"items": [{"id": "x", "kind": "single_choice", "text": "t", "options": ["a", "a"]}]},
     "'options' must be distinct options ('a' is repeated)"),
    ({"items": [{"id": "x", "kind": "free_text", "text": "t", "scope": "each"}]},
     "'scope' must be per_source or once, not 'each'."),
    ({"items": [{"id": "x", "kind": "free_text", "text": "t", "max_length": 0}]}, "'max_length' must be a whole number"),
    ({"items": [{"id": "x", "kind": "likert", "text": "  "}]}, "'text' is required"),
    ({"preset": "resque", "items": [{"id": "trust", "kind": "likert", "text": "t"}]},
     "questionnaire item 'trust': the id is used twice (the resque preset has it)"),
    ({"preset": "sus"}, "questionnaire: 'preset' must be resque, not 'sus'."),
    ({}, "questionnaire: no items; add items or preset: resque"),
    ({"itmes": []}, "unknown field 'itmes'; known fields: preset, items"),
])
def test_a_bad_questionnaire_is_refused_naming_the_item_and_the_reason(questionnaire, message):
    assert message in refusal(questionnaire)


def play(flow, code: str, likert: int, device: str = "Computer", remarks: str = "") -> None:
    """Rank every task and answer every page: `likert` for every per-source item and list."""
    while True:
        page = flow.next_questionnaire(code)
        if page is not None:
            if page.per_source:
                answers = {shown.letter: {item.id: likert for item in page.items} for shown in page.lists}
            else:
                answers = {"transparency": likert, "trust": likert, "intention": likert, "device": device,
                           "remarks": remarks}
            flow.submit_questionnaire(code, page.key, answers)
            continue
        screen = flow.next_task(code)
        if screen is None:
            return
        flow.submit(code, screen.task_id, [c.id for c in screen.candidates][: screen.rank_depth])


@pytest.fixture
def questionnaire_flow(tmp_path, db_url):
    corpus = tiny_corpus()
    study = check_study(load_study(write_tiny_study(tmp_path, questionnaire={"preset": "resque", "items": OWN_ITEMS})),
                        corpus)
    return open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)


def test_answers_round_trip_through_the_store_by_source_and_complete_the_participant(questionnaire_flow):
    flow = questionnaire_flow
    code = flow.start()
    screen = flow.next_task(code)
    flow.submit(code, screen.task_id, [c.id for c in screen.candidates][: screen.rank_depth])
    page = flow.next_questionnaire(code)
    assert page.key == screen.task_id and [s.letter for s in page.lists] == ["A", "B", "C", "D"]
    with pytest.raises(InvalidQuestionnaireError, match="about list A"):
        flow.submit_questionnaire(code, page.key, {"A": {"accuracy": 3}})
    with pytest.raises(InvalidQuestionnaireError, match="from 1 to 5"):
        flow.submit_questionnaire(code, page.key, {s.letter: {"accuracy": 9, "novelty": 1, "diversity": 1}
                                                   for s in page.lists})
    flow.save_questionnaire_draft(code, page.key, {"A": {"accuracy": 3}})
    assert flow.next_questionnaire(code).draft == {"A": {"accuracy": 3}}  # what a reload starts from
    play(flow, code, likert=4, remarks="  <b>fine</b> ")
    assert flow.progress(code).finished and flow.next_questionnaire(code) is None
    answers = load_questionnaire(flow.store, flow.study.name)
    per_source = [a for a in answers if a.item_id == "accuracy"]
    assert len(per_source) == 12 and {a.source for a in per_source} == set(flow.study.source_labels)
    assert {a.task_id for a in per_source} == {t.id for t in flow.study.tasks}
    assert {(a.item_id, a.value) for a in answers if a.task_id == ""} >= {("device", "Computer"),
                                                                          ("remarks", "<b>fine</b>")}


def test_a_participant_who_ranked_everything_but_owes_the_questionnaire_is_not_completed(questionnaire_flow):
    flow = questionnaire_flow
    code = flow.start()
    while (screen := flow.next_task(code)) is not None:
        flow.submit(code, screen.task_id, [c.id for c in screen.candidates][: screen.rank_depth])
    assert not flow.progress(code).finished and flow.next_questionnaire(code) is not None


def test_likert_medians_iqr_and_tests_match_a_hand_computation():
    study = parse_study({**TINY_STUDY, "questionnaire": {"preset": "resque"}})
    once = [QuestionnaireAnswer(p, "", "", "trust", v) for p, v in zip(range(1, 6), [1, 2, 4, 5, 5])]
    # accuracy per source: participant 1 answered links 2 and 4 over two tasks: their value is the mean, 3
    per_source = [QuestionnaireAnswer(p, task, source, "accuracy", value) for p, task, source, value in [
        (1, "t1", "links", 2), (1, "t2", "links", 4), (1, "t1", "generic", 1), (1, "t1", "aspect", 5),
        (1, "t1", "union", 4), (2, "t1", "links", 2), (2, "t1", "generic", 1), (2, "t1", "aspect", 4),
        (2, "t1", "union", 3), (3, "t1", "links", 5), (3, "t1", "generic", 2), (3, "t1", "aspect", 4),
        (3, "t1", "union", 3)]]
    config = AnalysisConfig(bootstrap_samples=999, random_seed=7)
    results = analyse_questionnaire(study, once + per_source, config)
    trust = next(r for r in results.likert if r.item_id == "trust")
    # sorted 1 2 4 5 5: the median is the third value; the quartiles sit on the second and fourth
    assert (trust.participants, trust.median, trust.q1, trust.q3) == (5, 4.0, 2.0, 5.0)
    expected = stats.bootstrap((np.array([1, 2, 4, 5, 5.0]),), np.median, n_resamples=999, method="percentile",
                               random_state=np.random.default_rng(7)).confidence_interval
    assert (trust.ci_low, trust.ci_high) == (expected.low, expected.high) and trust.ci_low <= 4 <= trust.ci_high
    assert analyse_questionnaire(study, once, config).likert[0] == trust  # seeded: the same interval again
    links = next(r for r in results.likert if r.item_id == "accuracy" and r.source == "links")
    assert (links.participants, links.median, links.q1, links.q3) == (3, 3.0, 2.5, 4.0)  # values 3, 2, 5
    friedman = results.friedman[0]
    assert friedman.task_type == "accuracy" and friedman.participants == 3
    assert friedman.statistic == pytest.approx(stats.friedmanchisquare([3, 2, 5], [1, 1, 2], [5, 4, 4],
                                                                       [4, 3, 3]).statistic)
    assert len(results.pairwise) == 6


def test_the_report_and_the_questionnaire_csv_carry_the_answers_and_the_codebook_lists_every_column(
        questionnaire_flow):
    flow = questionnaire_flow
    for likert, device in ((2, "Phone"), (4, "Computer"), (5, "Computer")):
        play(flow, flow.start(), likert, device, remarks="more *please*")
    report, study, _ = study_report(flow.store, flow.study.name)
    text = format_report(report)
    assert "trust            (once)         median 4  IQR 3–4.5" in text
    assert "device           (once)         Computer: 2" in text and "'more *please*'" in text
    rows = list(csv.DictReader(io.StringIO(questionnaire_csv(study, load_questionnaire(flow.store, study.name)))))
    book = codebook(study)["files"]["questionnaire.csv"]
    assert list(rows[0]) == [column["name"] for column in book]
    for column in book:
        values = {row[column["name"]] for row in rows}
        assert values - {""}, f"column {column['name']} is always empty"
        if "levels" in column:
            assert values <= {str(level) for level in column["levels"]}, (column["name"], values)
    assert "questionnaire.csv" not in codebook(check_study(parse_study(TINY_STUDY), tiny_corpus()))["files"]
