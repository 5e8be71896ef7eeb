import json
from pathlib import Path

import pytest

from explore.commands import evaluate_command
from training.report import (EvaluationReport, column_relevance, column_title, find_reports,
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
        {"space": "generic", "P@10": 0.3, "R@10": None, "MRR@10": 0.5, "MAP@10": None, "nDCG@10": None}]
    assert report.value("generic", "country", "agts") == 0.2 and report.value("generic", "country", "overlap") == 1.0
    assert "python -m training evaluate --corpus vital" in evaluate_command("vital", ["country"])


def _report(spaces: dict, aspects=("country",), name="vital-main") -> EvaluationReport:
    return EvaluationReport("vital", list(aspects), 10, {"seed": 42}, spaces, path=Path(f"/runs/{name}.json"))


def test_reports_have_human_titles():
    assert _report({"generic": {}}).title == "vital — main comparison of the spaces (1 row; your run)"
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
        ("any:country+occupation", "overlap"): "n/a: measured in the tabs of one aspect and of the seed's own aspects",
        ("any:country+occupation", "mrr"): "",
    }
    assert report.metric_rows("country", "test")[0]["P@10"] is None


def test_metrics_and_columns_in_words():
    assert metric_title("mrr", 10) == "MRR@10 (mean reciprocal rank of the first relevant article in the top 10)"
    assert metric_header("overlap", 10, 50) == "Overlap@50 (overlap with generic)"
    assert all(metric_meaning(metric, 5) for metric in ("precision", "recall", "mrr", "map", "agts", "overlap"))
    assert column_title("all:country+occupation") == "country and occupation"
    assert column_relevance("any:country+occupation") == "shares one of the seed's country or occupation labels"
    assert column_title("own:country+occupation+topic") == "the seed's own aspects"
    assert "how many of them it shares" in column_relevance("own:country+occupation+topic")
    assert metric_header("links", 10) == "Links@10 (linked from the seed)"
    assert "higher is not better" in metric_meaning("overlap") and "Single aspects only" not in metric_meaning("overlap")


def test_reports_over_seeds_are_averaged_with_their_spread_and_close_figures_share_the_bold():
    def seed_report(seed, union, blend):
        rows = {"union": {"test/country/mrr@10": union}, "blend": {"test/country/mrr@10": blend}}
        rows |= {"only-in-seed-1": {"test/country/mrr@10": 1.0}} if seed == 1 else {}
        return EvaluationReport("vital", ["country"], 10, {"seed": seed, "train": 8, "test": 2}, rows)
    mean = EvaluationReport.mean_of([seed_report(1, 0.70, 0.60), seed_report(2, 0.72, 0.61), seed_report(3, 0.74, 0.62)])
    assert list(mean.spaces) == ["union", "blend"]
    assert mean.spaces["union"]["test/country/mrr@10"] == pytest.approx(0.72)
    assert mean.spread["union"]["test/country/mrr@10"] == pytest.approx(0.02)
    assert mean.seeds == [1, 2, 3]
    table = mean.table("test", ("mrr",))
    assert "| union | **0.720 ± 0.020** |" in table and "| blend | 0.610 ± 0.010 |" in table
    close = EvaluationReport.mean_of([seed_report(1, 0.70, 0.69), seed_report(2, 0.74, 0.70)])
    assert close._best("test/country/mrr@10") == {"union", "blend"}  # 0.72 ± 0.028 vs 0.695: within the spread
    assert "mean ± sd over 2 seeds (1, 2" in close.to_markdown()
    with pytest.raises(ValueError, match="share corpus"):
        EvaluationReport.mean_of([seed_report(1, 0.7, 0.6), _report({}, aspects=("occupation",))])


def test_a_links_row_says_why_it_has_no_agts():
    report = _report({"links": {"test/country/agts": float("nan"), "test/country/seeds": 9}})
    assert report.missing_reason("links", "country", "agts") == "n/a: links have no similarity score to correlate"


def test_a_description_is_never_bold_and_a_row_ranked_with_links_has_no_agts():
    report = _report({"generic": {"corpus/country/overlap@50": 1.0, "corpus/country/links@10": 0.1,
                                  "test/country/mrr@10": 0.5},
                      "mix": {"corpus/country/overlap@50": 0.4, "corpus/country/links@10": 0.3,
                              "test/country/mrr@10": 0.6, "test/country/agts": float("nan")}})
    report.notes["mix"] = "default-mix:0.1"
    assert report.best_spaces("country", "overlap", "corpus") == set() == report.best_spaces("country", "links", "corpus")
    assert report.best_spaces("country", "mrr") == {"mix"}
    assert report.missing_reason("mix", "country", "agts") == "n/a: links have no similarity score to correlate"
    assert "| generic | – | 1.000 | 0.100 |" in report.secondary_table()
    assert "**" not in report.secondary_table()
