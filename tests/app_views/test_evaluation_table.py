"""The Evaluation page's table: every metric named, the best in bold, n/a with its reason, and a metric no
space has a value of left out as one line."""
from pathlib import Path

from app_views.evaluation_table import metric_table
from training.report import EvaluationReport


def test_cells_bold_best_reasons_and_left_out_columns():
    spaces = {"generic": {"test/country/mrr@10": 0.5, "test/country/precision@10": 0.3},
              "country-fn": {"test/country/mrr@10": 0.7}}
    report = EvaluationReport("vital", ["country"], 10, {}, spaces, path=Path("/runs/vital-main.json"))
    table = metric_table(report, "country", "test")
    assert [row["space"] for row in table.rows] == ["generic", "country\u2011fn"]  # never broken at the hyphen
    assert [row["MRR@10 (mean reciprocal rank)"] for row in table.rows] == ["0.500", "**0.700**"]
    assert table.rows[1]["P@10 (precision)"] == "_n/a\\: not in this report_"
    assert "MAP@10 (mean average precision): n/a: not in this report" in table.left_out
    assert set(table.rows[0]) == {"space", "P@10 (precision)", "MRR@10 (mean reciprocal rank)"}
