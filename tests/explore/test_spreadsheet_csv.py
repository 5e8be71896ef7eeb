"""Every CSV a user opens is written by one writer (explore/spreadsheet_csv.py) that keeps a spreadsheet from
running a cell as a formula; the study exports carry participants' text and corpus titles through it."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from explore.spreadsheet_csv import csv_text, spreadsheet_safe
from study.definition import parse_study
from study.questionnaire_analysis import QuestionnaireAnswer
from study.records import AnswerRecord, Candidate
from study.report import answers_csv, questionnaire_csv
from study.synthetic import TINY_STUDY

ROOT = Path(__file__).resolve().parents[2]
FORMULA = '=HYPERLINK("http://evil.example/","click me")'


@pytest.mark.parametrize("value", [FORMULA, "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])
def test_a_formula_start_is_written_as_text(value):
    assert spreadsheet_safe(value) == "'" + value


def test_numbers_stay_numbers_and_plain_text_is_untouched():
    rows = list(csv.reader(io.StringIO(csv_text(["a", "b", "c"], [{"a": -1.5, "b": 3, "c": "Paris"}]))))
    assert rows == [["a", "b", "c"], ["-1.5", "3", "Paris"]]


def test_the_questionnaire_and_answers_csv_never_carry_a_formula():
    study = parse_study({**TINY_STUDY, "questionnaire": {"items": [
        {"id": "remarks", "kind": "free_text", "text": "Anything else?", "required": False}]}})
    text = questionnaire_csv(study, [QuestionnaireAnswer(1, "", "", "remarks", FORMULA)])
    assert list(csv.DictReader(io.StringIO(text)))[0]["value"] == "'" + FORMULA
    answer = AnswerRecord(1, study.tasks[0].id, ("a1",), (Candidate("a1", FORMULA, "", ("links",)),))
    assert list(csv.DictReader(io.StringIO(answers_csv(study, [answer]))))[0]["title"] == "'" + FORMULA


def test_no_other_module_writes_csv():
    """The class: a CSV writer anywhere in the packages a user runs is a way around the guard."""
    writers = [str(path.relative_to(ROOT)) for folder in ("explore", "study", "training", "app_pages", "app_views")
               for path in (ROOT / folder).rglob("*.py")
               if path.name != "spreadsheet_csv.py" and ("csv.writer(" in path.read_text()
                                                          or "csv.DictWriter(" in path.read_text())]
    assert writers == []
