"""`python -m explore study report DB_URL`: text, CSV and JSON from the database alone."""
from __future__ import annotations

import csv
import io
import json

from explore.cli import main
from tests.study.test_sessions import answer_all


def test_report_prints_means_tests_and_exports_without_codes(flow, db_url, tmp_path, capsys):
    codes = [flow.start() for _ in range(4)]
    for code in codes[:3]:
        answer_all(flow, code)
    out_json, out_csv, out_answers = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "answers.csv"
    assert main(["study", "report", db_url, "--json", str(out_json), "--csv", str(out_csv),
                 "--answers-csv", str(out_answers), "--bootstrap", "200"]) == 0
    printed = capsys.readouterr().out
    assert "Study tiny_study: 4 participants started, 3 finished, 9 answers (unranked = last)." in printed
    assert "Mean rank by source — country tasks" in printed and "Friedman" in printed and "Holm" in printed
    summary = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    assert {row["source"] for row in summary} == {"links", "generic", "aspect", "union"}
    assert {row["task_type"] for row in summary} == {"country", "occupation", "all"}
    data = json.loads(out_json.read_text())
    assert data["answers"] == 9 and len(data["raw_answers"]) == 9 and data["definition"]["name"] == "tiny_study"
    answers = list(csv.DictReader(io.StringIO(out_answers.read_text())))
    assert sum(1 for row in answers if row["rank"]) == 9 * 5
    exported = out_json.read_text() + out_answers.read_text() + out_csv.read_text()
    assert not any(code in exported for code in codes)


def test_report_options_and_errors(flow, db_url, tmp_path, capsys):
    answer_all(flow, flow.start())
    assert main(["study", "report", db_url, "--unranked", "mid", "--bootstrap", "50"]) == 0
    assert "(unranked = mid)" in capsys.readouterr().out
    assert main(["study", "report", str(tmp_path / "missing.sqlite")]) == 2
    assert "No study database" in capsys.readouterr().err
