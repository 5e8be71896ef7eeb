import json

from training.report import evaluate_command, find_reports


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
    assert report.secondary_rows() == [{"space": "generic", "country AgTS": 0.2, "country overlap": 1.0}]
    assert "python -m training evaluate --corpus vital" in evaluate_command("vital", ["country"])
