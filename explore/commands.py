"""The commands AspectNav suggests (in the app, CLI messages and errors): each is an argv quoted by
`shell_command`, so a corpus, space or aspect name from a file cannot become shell code when pasted."""
from __future__ import annotations

import shlex
from collections.abc import Sequence


def shell_command(*argv: str) -> str:
    """`argv` as one line a POSIX shell splits back into exactly these arguments."""
    return shlex.join(map(str, argv))


def build_space_command(corpus: str, name: str | None = None, encoder: str | None = None) -> str:
    """`python -m explore spaces build`: the corpus's default spaces, or the space `name` (with `encoder`)."""
    return shell_command("python", "-m", "explore", "spaces", "build", "--corpus", corpus,
                         *(("--name", name) if name is not None else ()),
                         *(("--encoder", encoder) if encoder is not None else ()))


def import_corpus_command(name: str, file: str = "FILE.jsonl") -> str:
    """Re-import (replace) the corpus `name` from a JSONL file."""
    return shell_command("python", "-m", "explore", "corpus", "import", file, "--name", name, "--force")


def train_command(corpus: str, aspect: str) -> str:
    """Train (and build) the space of one aspect, keeping labels carried by two articles or more."""
    return shell_command("python", "-m", "training", "train", "--corpus", corpus, "--aspects", aspect,
                         "--drop-labels-below", "2")


def evaluate_command(corpus: str, aspects: Sequence[str]) -> str:
    """Evaluate the generic space on (up to) the first two of `aspects`."""
    return shell_command("python", "-m", "training", "evaluate", "--corpus", corpus, "--spaces", "generic",
                         "--aspects", ",".join(aspects[:2]) or "ASPECT")
