"""Named corpora under the data home; built-in ones (the embedded "vital") build on first use."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from explore.corpus.model import Corpus
from explore.corpus.store import CARD_FILE, load_corpus, save_corpus
from explore.errors import AspectNavError, UnknownCorpusError
from explore.settings import corpora_dir

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _builtin_builders() -> dict[str, Callable[[], Corpus]]:
    from explore.corpus.vital import build_vital_corpus

    return {"vital": build_vital_corpus}


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise AspectNavError(
            f"Invalid corpus name {name!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit."
        )
    return name


def corpus_path(name: str) -> Path:
    return corpora_dir() / check_name(name)


def store_corpus(corpus: Corpus) -> Path:
    return save_corpus(corpus, corpus_path(corpus.name))


def list_corpora() -> list[str]:
    stored = {p.name for p in corpora_dir().glob("*") if (p / CARD_FILE).exists()} if corpora_dir().exists() else set()
    return sorted(stored | set(_builtin_builders()))


def open_corpus(name: str) -> Corpus:
    """Load a stored corpus; a built-in one that is missing or unreadable is (re)built."""
    path = corpus_path(name)
    builders = _builtin_builders()
    if (path / CARD_FILE).exists():
        try:
            return load_corpus(path)
        except AspectNavError:
            if name not in builders:
                raise
    if name in builders:
        corpus = builders[name]()
        store_corpus(corpus)
        return corpus
    raise UnknownCorpusError(f"No corpus named {name!r}. Available: {', '.join(list_corpora())}.")
