"""`python -m explore study report DB_URL`: text, CSV and JSON from the database alone."""
from __future__ import annotations

import csv
import io
import json

import pytest

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


def test_report_prints_the_design_checks_exclusions_and_both_results(tmp_path, db_url, corpus, capsys):
    from study.definition import check_study, load_study
    from study.sessions import open_flow
    from study.store import StoreConfig, open_store
    from study.synthetic import TINY_DESIGN, SyntheticProvider, write_tiny_study

    study = check_study(load_study(write_tiny_study(tmp_path, **TINY_DESIGN)), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    for attentive in (True, True, False):
        code = flow.start()
        while (screen := flow.next_task(code)) is not None:
            ids = sorted((c.id for c in screen.candidates), key=lambda i: i == "a04")  # the gold decoy never first
            if screen.task_id == "attention" and attentive:
                ids = ["a05", *(i for i in ids if i != "a05")]
            elif screen.task_id == "attention":
                ids = [*(i for i in ids if i != "a05"), "a05"]
            flow.submit(code, screen.task_id, ids[: screen.rank_depth])
    assert main(["study", "report", db_url, "--bootstrap", "50"]) == 0
    printed = capsys.readouterr().out
    assert "Task order: balanced Latin square, 10 orders; participants per order 0–1" in printed
    assert "attention  attention                2 / 3" in printed
    assert "1 of 3 answering participants excluded" in printed
    assert "failed_attention      1" in printed
    assert "with exclusions (2 participants)" in printed and "without exclusions (3 participants)" in printed
    assert "W=" in printed


def test_simulate_prints_a_power_table_from_means_a_pilot_or_the_study_file(flow, db_url, study, tmp_path, capsys):
    from study.synthetic import write_tiny_study

    path = str(write_tiny_study(tmp_path))
    assert main(["study", "simulate", path, "--participants", "6,12", "--runs", "20",
                 "--means", "links=9,generic=8.5,aspect=8,union=7.5", "--pairs", "union:generic"]) == 0
    printed = capsys.readouterr().out
    assert "participants  Friedman  median W  union vs generic  all pairs" in printed
    assert printed.count("\n           6 ") + printed.count("\n          12 ") == 2
    for _ in range(3):
        answer_all(flow, flow.start())
    assert main(["study", "simulate", path, "--participants", "6", "--runs", "10", "--pilot", db_url]) == 0
    assert "(from a pilot of 3 participants)" in capsys.readouterr().out
    assert main(["study", "simulate", path, "--runs", "10"]) == 2
    assert "declares no planned effect" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["study", "simulate", path, "--participants", "1"])
    assert "each number of participants must be from 2 to 100,000" in capsys.readouterr().err
