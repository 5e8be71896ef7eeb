"""The `aspectnav` console script: one parser over every command, declared by the project."""
import re
import tomllib
from pathlib import Path

import pytest

import aspectnav_cli

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ["corpus", "spaces", "neighbours", "study", "train", "evaluate", "bench"]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_:
        aspectnav_cli.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: aspectnav")
    assert [name for name in COMMANDS if not re.search(rf"^\s+{name}\b", out, re.M)] == []


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_own_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        aspectnav_cli.main([command, "--help"])
    assert exit_.value.code == 0
    assert "usage:" in capsys.readouterr().out


def test_engine_errors_are_one_line_and_exit_2(capsys):
    assert aspectnav_cli.main(["study", "report", str(ROOT / "no-such-study.db")]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_console_script_is_declared_and_its_module_packaged():
    project = _pyproject()
    assert project["project"]["scripts"]["aspectnav"] == "aspectnav_cli:main"
    assert "aspectnav_cli" in project["tool"]["setuptools"]["py-modules"]
    assert project["build-system"]["build-backend"] == "setuptools.build_meta"


def test_requirements_install_the_declared_dependencies_and_the_project():
    """requirements.txt (the README's one install) = pyproject's dependencies + test extra + `-e .`."""
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    project = _pyproject()["project"]
    assert lines[-1] == "-e ."
    assert sorted(lines[:-1]) == sorted(project["dependencies"] + project["optional-dependencies"]["test"])
