"""Where `python -m benchmarks` writes: only a full run may replace the reported results.json."""
from benchmarks.__main__ import _default_out


def test_only_a_full_run_replaces_the_reported_results():
    assert _default_out(quick=False, whole=True) == "results.json"
    assert _default_out(quick=False, whole=False) == "results-some.json"
    assert _default_out(quick=True, whole=True) == "results-quick.json"
    assert _default_out(quick=True, whole=False) == "results-quick.json"
