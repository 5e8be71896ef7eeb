"""Exports a reviewer asks for: the answers CSV with per-task timestamps and display order, a codebook that
lists every exported column (it is where the CSV headers come from), and the preregistration bundle."""
from __future__ import annotations

import csv
import hashlib
import io
import json
from datetime import datetime

from explore.cli import main
from study.codebook import codebook
from study.definition import check_study, load_study
from study.report import answers_csv, load_answers, study_report, summary_csv
from study.sessions import open_flow
from study.store import StoreConfig, open_store
from study.synthetic import TINY_DESIGN, SyntheticProvider, tiny_corpus, write_tiny_study
from tests.study.test_row_assignment import finish


def test_every_exported_column_is_in_the_codebook_and_every_codebook_column_is_filled(tmp_path):
    study = check_study(load_study(write_tiny_study(tmp_path, **TINY_DESIGN)), tiny_corpus())
    corpus = tiny_corpus()
    flow = open_flow(study, open_store(study.name, StoreConfig(url=f"sqlite:///{tmp_path / 'x.sqlite'}")),
                     SyntheticProvider(corpus), corpus)
    codes = [flow.start() for _ in range(3)]
    for code in codes[:2]:
        finish(flow, code)
    stored = load_answers(flow.store, study.name)
    report, _, answers = study_report(flow.store, study.name)
    book = codebook(study)
    for name, text in (("answers.csv", answers_csv(study, answers)), ("summary.csv", summary_csv(report))):
        rows = list(csv.DictReader(io.StringIO(text)))
        described = [column["name"] for column in book["files"][name]]
        assert list(rows[0]) == described
        for column in book["files"][name]:
            values = {row[column["name"]] for row in rows}
            assert values - {""}, f"{name}: column {column['name']} is always empty"
            if "levels" in column:
                parts = {part for value in values for part in value.split(column.get("separator") or "\0")}
                assert parts <= {str(level) for level in column["levels"]}, (name, column["name"], values)
    rows = list(csv.DictReader(io.StringIO(answers_csv(study, answers))))
    first = [row for row in rows if row["participant"] == str(stored.participants[0].participant)
             and row["task_position"] == "1"]
    assert [row["display_position"] for row in first] == [str(i) for i in range(1, len(first) + 1)]
    assert {row["task_id"] for row in first} == {stored.participants[0].task_order[0]}
    shown, answered = datetime.fromisoformat(first[0]["shown_at"]), datetime.fromisoformat(first[0]["answered_at"])
    assert shown <= answered and first[0]["outcome"] == "completed" and first[0]["order_row"] == "1"


def test_preregister_writes_one_bundle_with_its_sha256(tmp_path, capsys):
    path = write_tiny_study(tmp_path, **TINY_DESIGN, power={"mean_rank": {"links": 7, "generic": 6.5, "aspect": 6,
                                                                           "union": 5.5}})
    args = ["study", "preregister", str(path), "--out", str(tmp_path / "bundle"), "--runs", "10",
            "--participants", "6,12"]
    assert main(args) == 0
    bundle = tmp_path / "bundle" / "tiny_study_preregistration.json"
    digest = hashlib.sha256(bundle.read_bytes()).hexdigest()
    assert f"sha256 {digest}" in capsys.readouterr().out
    assert (tmp_path / "bundle" / "tiny_study_preregistration.json.sha256").read_text() == \
        f"{digest}  tiny_study_preregistration.json\n"
    data = json.loads(bundle.read_text())
    study = load_study(path)
    assert data["fingerprint"] == study.fingerprint() and data["study_file"]["text"] == path.read_text()
    assert [rule["rule"] for rule in data["exclusion_rules"]] == ["failed_attention", "gold_ranked_first", "incomplete"]
    assert [row["participants"] for row in data["power"]["rows"]] == [6, 12]
    assert "union vs generic" in " ".join(data["planned_tests"]["pairwise"]["pairs"]) or \
        "generic vs union" in data["planned_tests"]["pairwise"]["pairs"]
    assert data["codebook"]["files"]["answers.csv"][0]["name"] == "participant"
    assert main(args) == 0  # the same study and settings give the same bytes
    assert hashlib.sha256(bundle.read_bytes()).hexdigest() == digest


def test_preregister_without_a_planned_effect_says_what_to_add(tmp_path, capsys):
    assert main(["study", "preregister", str(write_tiny_study(tmp_path)), "--out", str(tmp_path)]) != 0
    assert "declares no planned effect: add a power: section" in capsys.readouterr().err


def test_no_export_carries_a_platform_id_or_a_participant_code(tmp_path, capsys):
    """Every file `study report` writes names participants by number only, so none needs a `--no-platform-ids`."""
    from tests.study.test_platform import answer_all
    from tests.study.test_withdrawal import ids_of, prolific_flow_at

    url = f"sqlite:///{tmp_path / 'study.sqlite'}"
    flow = prolific_flow_at(tmp_path, url)
    people = {flow.start(ids_of(n)): ids_of(n) for n in range(3)}
    for code in people:
        answer_all(flow, code)
    paths = {flag: tmp_path / f"out{flag}" for flag in ("--json", "--csv", "--answers-csv", "--codebook")}
    assert main(["study", "report", url, "--bootstrap", "50", *(x for f, p in paths.items() for x in (f, str(p)))]) == 0
    written = capsys.readouterr().out + "".join(path.read_text() for path in paths.values())
    for code, ids in people.items():
        assert code not in written and not any(value in written for value in ids.values())
