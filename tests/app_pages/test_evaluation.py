"""Evaluation page: a hint with the command when there is no report, tables and charts when there is."""
import json


def test_no_report_names_the_command(app):
    at = app("app_pages/evaluation.py")
    assert "No evaluation report yet" in at.info[0].value
    assert "python -m training evaluate --corpus fixture" in at.code[0].value


def test_report_tables_and_charts_per_aspect(app, isolated_home):
    directory = isolated_home / "training" / "reports"
    directory.mkdir(parents=True)
    spaces = {name: {f"{pool}/{aspect}/{metric}@10": value for pool in ("test", "corpus")
                     for aspect in ("country", "occupation") for metric in ("precision", "recall", "mrr", "map")}
              for name, value in (("generic", 0.4), ("country", 0.7))}
    (directory / "fixture-s42.json").write_text(json.dumps(
        {"corpus": "fixture", "aspects": ["country", "occupation"], "k": 10,
         "split": {"seed": 42, "train": 96, "test": 24}, "spaces": spaces, "notes": {}}))
    at = app("app_pages/evaluation.py")
    assert [s.value for s in at.subheader][:2] == ["country", "occupation"]
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert charts[0]["data"][0]["x"] == ["generic", "country"] and charts[0]["data"][0]["y"] == [0.4, 0.7]
    at.radio(key="eval_metric").set_value("precision").run()
    assert "P@10" in json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]["title"]["text"]
