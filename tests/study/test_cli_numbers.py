"""`study simulate` and `study preregister` refuse numbers that would freeze nonsense or end in a traceback:
an alpha outside (0, 1) or not a number, a negative or huge seed, a 20-digit number of participants or runs."""
from __future__ import annotations

import pytest

from explore.cli import main
from study.synthetic import TINY_DESIGN, write_tiny_study

POWER = {"mean_rank": {"links": 7, "generic": 6.5, "aspect": 6, "union": 5.5}}


@pytest.mark.parametrize("flag, value, message", [
    ("--alpha", "2", "--alpha: a significance level between 0 and 1 (e.g. 0.05), not '2'"),
    ("--alpha", "nan", "--alpha: a significance level between 0 and 1 (e.g. 0.05), not 'nan'"),
    ("--alpha", "-1", "--alpha: a significance level between 0 and 1"),
    ("--alpha", "0", "--alpha: a significance level between 0 and 1"),
    ("--alpha", "inf", "--alpha: a significance level between 0 and 1"),
    ("--seed", "-1", "--seed: a whole number from 0 to 4294967295, not '-1'"),
    ("--seed", "1" * 30, "--seed: a whole number from 0 to 4294967295"),
    ("--participants", "1" * 20, "--participants: each number of participants must be from 2 to 100,000"),
    ("--runs", "1" * 20, "--runs: a whole number of simulated studies from 10 to 100,000"),
    ("--runs", "x", "--runs: a whole number of simulated studies from 10 to 100,000"),
])
@pytest.mark.parametrize("command", ["preregister", "simulate"])
def test_a_nonsense_number_is_refused_with_what_is_allowed(tmp_path, capsys, command, flag, value, message):
    path = str(write_tiny_study(tmp_path, **TINY_DESIGN, power=POWER))
    with pytest.raises(SystemExit) as exit_:
        main(["study", command, path, "--out" if command == "preregister" else "--runs",
              str(tmp_path / "bundle") if command == "preregister" else "10", flag, value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "bundle").exists()
