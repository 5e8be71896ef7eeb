"""The load test's own participants through a real `streamlit run`: every submitted answer is stored."""
import pytest

from benchmarks.study_load import run

pytestmark = pytest.mark.slow


def test_simultaneous_participants_through_the_web_server_lose_no_answer():
    rows = run(quick=True, ladder=[4])
    load = rows[0].extra
    assert (load["participants"], load["finished"]) == (4, 4)
    assert load["submitted"] == load["stored"] == 4 * 2  # the quick study has 2 tasks
    assert rows[0].ours > 0 and rows[0].peer > 0
    assert rows[-1].metric.startswith("participants served")
