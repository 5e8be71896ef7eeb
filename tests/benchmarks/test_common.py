"""The benchmarks' shared helpers: an environment change stays inside its block, a fresh data home goes after it."""
import os

import pytest

from benchmarks.common import environment, fresh_data_home


def test_an_environment_change_is_taken_back_after_its_block_even_when_it_raises(monkeypatch):
    monkeypatch.setenv("ASPECTNAV_HOME", "/the/user/home")
    monkeypatch.delenv("ASPECTNAV_MAP_ROWS", raising=False)
    with pytest.raises(RuntimeError), environment(ASPECTNAV_HOME="/scratch", ASPECTNAV_MAP_ROWS="50000"):
        assert (os.environ["ASPECTNAV_HOME"], os.environ["ASPECTNAV_MAP_ROWS"]) == ("/scratch", "50000")
        raise RuntimeError("a benchmark failed")
    assert os.environ["ASPECTNAV_HOME"] == "/the/user/home"
    assert "ASPECTNAV_MAP_ROWS" not in os.environ  # unset before: unset again, not left as ""


def test_a_fresh_data_home_is_empty_and_gone_after_its_block(monkeypatch):
    monkeypatch.setenv("ASPECTNAV_HOME", "/the/user/home")
    with fresh_data_home() as home:
        assert os.environ["ASPECTNAV_HOME"] == str(home) and not any(home.iterdir())
        (home / "corpora").mkdir()
    assert not home.exists() and os.environ["ASPECTNAV_HOME"] == "/the/user/home"
