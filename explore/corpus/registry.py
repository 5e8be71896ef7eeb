"""Named corpora under the data home; a built-in one (the embedded "vital") comes from its shipped build
on first use (explore/corpus/shipped.py), or is built when that is stale, and is replaced when damaged."""
from __future__ import annotations

import logging
import re
from pathlib import Path

from explore.atomic_files import recover_directories, recover_directory
from explore.corpus.model import Corpus
from explore.corpus.shipped import BuiltinCorpus, copy_shipped, shipped_build
from explore.corpus.store import CARD_FILE, load_corpus, save_corpus
from explore.errors import AspectNavError, DamagedCorpusError, UnknownCorpusError
from explore.settings import corpora_dir

log = logging.getLogger(__name__)

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _builtin_builders() -> dict[str, BuiltinCorpus]:
    from explore.corpus.vital import build_vital_corpus, vital_fingerprint

    return {"vital": BuiltinCorpus(build_vital_corpus, vital_fingerprint)}


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


def corpus_stamp(name: str) -> int | None:
    """When the stored corpus last changed (its card's mtime, ns; None if not stored): a long-running app
    compares it with the stamp of the copy it holds, so an aspect attached meanwhile shows up."""
    try:
        return (corpus_path(name) / CARD_FILE).stat().st_mtime_ns
    except OSError:
        return None


def list_corpora() -> list[str]:
    """Stored and built-in corpora. Hidden backups and staging folders of a write are never corpora."""
    root = corpora_dir()
    recover_directories(root)
    stored = {p.name for p in root.iterdir() if _NAME.match(p.name) and (p / CARD_FILE).exists()} \
        if root.is_dir() else set()
    return sorted(stored | set(_builtin_builders()))


def open_corpus(name: str) -> Corpus:
    """Load a stored corpus; a built-in one that is missing, damaged or outdated is (re)built."""
    path = corpus_path(name)
    recover_directory(path)
    builders = _builtin_builders()
    if (path / CARD_FILE).exists():
        try:
            return load_corpus(path)
        except AspectNavError as exc:
            if name not in builders:
                raise
            problem = exc.problem if isinstance(exc, DamagedCorpusError) else str(exc)
            log.warning("Built-in corpus %r is damaged or outdated (%s): rebuilding it from its package.",
                        name, problem)
    if name in builders:
        builtin = builders[name]
        corpus = shipped_build(name, builtin.fingerprint())
        if corpus is not None:
            copy_shipped(name, path)
            return corpus
        corpus = builtin.build()
        store_corpus(corpus)
        return corpus
    raise UnknownCorpusError(f"No corpus named {name!r}. Available: {', '.join(list_corpora())}.")
