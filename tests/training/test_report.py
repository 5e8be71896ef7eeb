import json
from pathlib import Path

from training.report import (EvaluationReport, column_relevance, column_title, evaluate_command, find_reports,
                             metric_header, metric_meaning, metric_title)


def test_reports_are_found_per_corpus_and_tabled_per_aspect(isolated_home, monkeypatch):
    monkeypatch.setattr("training.report.ASSETS_DIR", isolated_home / "no-shipped-assets")
    directory = isolated_home / "training" / "reports"
    directory.mkdir(parents=True)
    spaces = {"generic": {"test/country/mrr@10": 0.5, "test/country/precision@10": 0.3, "test/country/agts": 0.2,
                          "corpus/country/overlap@50": 1.0}}
    (directory / "vital-s42.json").write_text(json.dumps(
        {"corpus": "vital", "aspects": ["country"], "k": 10, "split": {"seed": 42}, "spaces": spaces, "notes": {}}))
    (directory / "other.json").write_text(json.dumps({"corpus": "mine", "aspects": [], "k": 10, "spaces": spaces}))
    (directory / "broken.json").write_text("{")
    found = find_reports("vital")
    [report] = [r for r in found if r.path.parent == directory]  # shipped assets/reports may be found too
    assert all(r.corpus == "vital" for r in found)
    assert report.metric_rows("country", "test") == [
        {"space": "generic", "P@10": 0.3, "R@10": None, "MRR@10": 0.5, "MAP@10": None}]
    assert report.value("generic", "country", "agts") == 0.2 and report.value("generic", "country", "overlap") == 1.0
    assert "python -m training evaluate --corpus vital" in evaluate_command("vital", ["country"])


def _report(spaces: dict, aspects=("country",), name="vital-main") -> EvaluationReport:
    return EvaluationReport("vital", list(aspects), 10, {"seed": 42}, spaces, path=Path(f"/runs/{name}.json"))


def test_reports_have_human_titles():
    assert _report({"generic": {}}).title == "vital — main comparison of the spaces (1 spaces; your run)"
    assert _report({}, name="vital-s7").title.startswith("vital — evaluation run (split seed 7)")
    assert _report({}, name="vital-mine").title.startswith("vital — report 'mine'")


def test_every_missing_value_says_why():
    report = _report({"generic": {
        "test/country/precision@10": 0.0, "test/country/seeds": 0, "test/country/seeds_without_relevant": 0,
        "test/country/agts": float("nan"), "test/any:country+occupation/mrr@10": 0.4,
        "test/occupation/agts": float("nan"), "test/occupation/seeds": 5, "test/occupation/seeds_without_relevant": 1}},
        aspects=("country", "occupation", "any:country+occupation"))
    reasons = {(column, metric): report.missing_reason("generic", column, metric)
               for column, metric in (("country", "precision"), ("country", "agts"), ("country", "map"),
                                      ("occupation", "agts"), ("country", "overlap"),
                                      ("any:country+occupation", "overlap"), ("any:country+occupation", "mrr"))}
    assert reasons == {
        ("country", "precision"): "n/a: no test article has this label",  # a stored 0.0 over no seeds
        ("country", "agts"): "n/a: fewer than 2 labelled test articles",
        ("country", "map"): "n/a: not in this report",
        ("occupation", "agts"): "n/a: the sampled pairs all share a label, or none does",
        ("country", "overlap"): "n/a: not measured in this run",
        ("any:country+occupation", "overlap"): "n/a: measured for single aspects only",
        ("any:country+occupation", "mrr"): "",
    }
    assert report.metric_rows("country", "test")[0]["P@10"] is None


def test_metrics_and_columns_in_words():
    assert metric_title("mrr", 10) == "MRR@10 (mean reciprocal rank of the first relevant article in the top 10)"
    assert metric_header("overlap", 10, 50) == "Overlap@50 (overlap with generic)"
    assert all(metric_meaning(metric, 5) for metric in ("precision", "recall", "mrr", "map", "agts", "overlap"))
    assert column_title("all:country+occupation") == "country and occupation"
    assert column_relevance("any:country+occupation") == "shares one of the seed's country or occupation labels"
