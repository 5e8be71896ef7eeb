"""Issue #25 item 2: the Evaluation page suggested `python -m training evaluate ... --aspects <names>` with the
corpus's aspect names unquoted, so an aspect named `genre $(touch pwned)` ran when the command was pasted.
Every suggested command (app pages, CLI messages, errors) must split back, in a shell, into the intended argv;
the Evaluation page's are checked in tests/app_pages/test_evaluation.py."""
from __future__ import annotations

import shlex
import subprocess

import pytest

from tests.fixture_corpora import fixture_corpus, hostile_corpus

HOSTILE_NAMES = ["genre $(touch pwned)", "x'; touch pwned; echo '", "a`touch pwned`b", "-rf", "new\nline", "it's",
                 '"double" $HOME', *hostile_corpus("127.0.0.1:9").aspect_names]


def intended(*argv: str) -> list[str]:
    return ["python", "-m", *argv]


def builders(name: str) -> list[tuple[str, list[str]]]:
    """Each suggested command, built with `name` wherever a corpus, space or aspect name goes, and its argv."""
    from explore.commands import build_space_command, evaluate_command, import_corpus_command, train_command

    return [
        (build_space_command(name), intended("explore", "spaces", "build", "--corpus", name)),
        (build_space_command(name, name, "ENCODER"),
         intended("explore", "spaces", "build", "--corpus", name, "--name", name, "--encoder", "ENCODER")),
        (import_corpus_command(name), intended("explore", "corpus", "import", "FILE.jsonl", "--name", name, "--force")),
        (train_command(name, name),
         intended("training", "train", "--corpus", name, "--aspects", name, "--drop-labels-below", "2")),
        (evaluate_command(name, [name, "country", "ignored"]),
         intended("training", "evaluate", "--corpus", name, "--spaces", "generic", "--aspects", f"{name},country")),
    ]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_every_suggested_command_splits_back_into_its_argv(name):
    for command, argv in builders(name):
        assert shlex.split(command) == argv, command


def test_a_pasted_command_runs_nothing_in_a_real_shell(tmp_path):
    for command, argv in builders("genre $(touch pwned) `touch pwned`"):
        shown = subprocess.run(["bash", "-c", "python() { printf '%s\\0' python \"$@\"; }; " + command],
                               cwd=tmp_path, capture_output=True, text=True, check=True).stdout
        assert shown.split("\0")[:-1] == argv
    assert not (tmp_path / "pwned").exists()


def test_errors_that_suggest_a_command_quote_the_names(isolated_home):
    from explore.errors import DamagedCorpusError, InvalidNameError, UnknownSpaceError
    from explore.spaces.registry import SpaceRegistry

    message = str(DamagedCorpusError("a$(touch pwned)", "its hash differs"))
    command = message.split("Re-import it (")[1].split(") or rebuild")[0]
    assert shlex.split(command)[-3:] == ["--name", "a$(touch pwned)", "--force"]
    registry = SpaceRegistry(fixture_corpus(), home=isolated_home / "s", shipped=isolated_home / "t")
    with pytest.raises(UnknownSpaceError) as refused:
        registry.definition("mood")
    command = str(refused.value).split("build it with `")[1].rsplit("`.", 1)[0]
    assert shlex.split(command)[-6:] == ["--corpus", "fixture", "--name", "mood", "--encoder", "ENCODER"]
    with pytest.raises(InvalidNameError):  # a hostile space name is refused before any command names it
        registry.definition("x`id`")

