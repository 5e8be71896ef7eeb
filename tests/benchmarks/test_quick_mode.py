"""Benchmarks are not tests; this only keeps every one of them runnable (quick mode, small sizes)."""
import json

import pytest

from benchmarks.__main__ import BENCHMARKS, main

pytestmark = pytest.mark.slow


def test_every_benchmark_runs_in_quick_mode_and_reports_against_its_peer(tmp_path, capsys):
    out = tmp_path / "results.json"
    assert main(["all", "--quick", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert set(result["seconds_per_benchmark"]) == set(BENCHMARKS)
    groups = {row["group"] for row in result["rows"]}
    assert {"corpus", "neighbours", "projection", "app", "training", "study", "scale"} <= groups
    incomplete = [row["metric"] for row in result["rows"]
                  if row["ours"] is None or not row["peer"] or row["ratio"] is None or not row["peer_name"]]
    assert result["rows"] and not incomplete
    assert "| group | metric | ours | peer |" in capsys.readouterr().out
