"""The Evaluation page's table: every metric named, the best in bold, n/a with its reason, and a metric no
space has a value of left out as one line."""
from pathlib import Path

from app_views.evaluation_table import metric_table, row_heading
from app_views.html_table import Cell
from training.report import EvaluationReport


def test_cells_bold_best_reasons_and_left_out_columns():
    spaces = {"generic": {"test/country/mrr@10": 0.5, "test/country/precision@10": 0.3},
              "country-fn": {"test/country/mrr@10": 0.7}}
    report = EvaluationReport("vital", ["country"], 10, {}, spaces, path=Path("/runs/vital-main.json"))
    table = metric_table(report, "country", "test")
    assert [row["space"].text for row in table.rows] == ["generic", "country\u2011fn"]  # never broken at the hyphen
    assert [row["MRR@10 (mean reciprocal rank)"] for row in table.rows] == [Cell("0.500", number=True),
                                                                           Cell("0.700", strong=True, number=True)]
    assert table.rows[1]["P@10 (precision)"] == Cell("n/a: not in this report", note=True)
    assert "MAP@10 (mean average precision): n/a: not in this report" in table.left_out
    assert set(table.rows[0]) == {"space", "P@10 (precision)", "MRR@10 (mean reciprocal rank)"}


def test_rows_are_named_as_explore_names_its_columns():
    from explore.mix import DEFAULT_LINKS_SHARE

    rows = ["links", "generic", "country", "union", "intersection", "aspect:topic", "mix", "mix-50", "union-aspectcse",
            "blend"]
    report = EvaluationReport("vital", ["country", "own:country+topic"], 10, {}, {row: {} for row in rows},
                              notes={"mix": f"default-mix:{DEFAULT_LINKS_SHARE}", "mix-50": "default-mix:0.5",
                                     "blend": "blend:country:0.5,occupation:0.5", "country": "space:country-s43"})
    assert [row_heading(report, row) for row in rows] == [
        "Wikipedia links", "generic", "country space", "union space", "intersection space", "topic space", "your mix",
        "your mix, 50% links", "union-aspectcse", "blend"]  # an alternative keeps its own name


def test_descriptions_are_never_bold():
    spaces = {"generic": {"corpus/country/overlap@50": 1.0, "corpus/country/links@10": 0.1},
              "country": {"corpus/country/overlap@50": 0.3, "corpus/country/links@10": 0.2}}
    report = EvaluationReport("vital", ["country"], 10, {}, spaces)
    table = metric_table(report, "country", "corpus")
    cells = [cell for row in table.rows for cell in row.values()]
    assert {"1.000", "0.200"} <= {cell.text for cell in cells} and not any(cell.strong for cell in cells)
    assert "Links@10 (linked from the seed)" in table.rows[0]


def test_the_shipped_explore_report_has_a_row_for_each_explore_column_and_the_default_mix():
    from explore.settings import ASSETS_DIR

    report = EvaluationReport.load(ASSETS_DIR / "reports" / "vital-explore.json")
    headings = [row_heading(report, row) for row in report.spaces]
    assert headings[:11] == ["Wikipedia links", "Wikipedia's Read more", "generic", "country space",
                             "occupation space", "topic space", "kind space", "century space", "field space",
                             "union space", "intersection space"]
    assert headings.count("your mix") == 1  # the measured default, beside the other links shares
    own = "own:country+occupation+topic+kind+century+field"
    mix = headings.index("your mix")
    assert report.value(list(report.spaces)[mix], own, "ndcg", "corpus") is not None
