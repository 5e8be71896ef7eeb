"""Named corpora under the data home; a built-in one (the embedded "vital") comes from its shipped build
on first use (explore/corpus/shipped.py), or is built when that is stale, and is replaced when damaged."""
from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from explore.atomic_files import recover_directories, recover_directory
from explore.corpus.model import Corpus
from explore.corpus.shipped import BuiltinCorpus, built_by, copy_shipped, record_builder, shipped_build
from explore.corpus.store import load_corpus, save_corpus
from explore.corpus.stored_layout import CARD_FILE
from explore.errors import AspectNavError, CorpusBusyError, DamagedCorpusError, UnknownCorpusError
from explore.names import check_name, is_name
from explore.process_lock import held
from explore.settings import corpora_dir, data_home

log = logging.getLogger(__name__)



def _builtin_builders() -> dict[str, BuiltinCorpus]:
    from explore.corpus.vital import build_vital_corpus, vital_fingerprint

    return {"vital": BuiltinCorpus(build_vital_corpus, vital_fingerprint)}


def is_builtin(name: str) -> bool:
    """Whether `name` is a corpus AspectNav builds itself (the embedded "vital"): a command that changes a corpus
    writes such a one only under another name, or the next upgrade would silently build it again over the change."""
    return name in _builtin_builders()


def corpus_path(name: str) -> Path:
    return corpora_dir() / check_name(name, "corpus")


def store_corpus(corpus: Corpus) -> Path:
    """Store `corpus` under its name, in the layout it has (a columnar one, relabelled or not, is written columnar
    again, a batch at a time); a built-in corpus keeps the record of the code that built it (an aspect attached to it
    is not a reason to build it again)."""
    from explore.corpus.relabelled import is_columnar  # numpy and pyarrow: only when a corpus is stored

    path = corpus_path(corpus.name)
    builder = built_by(path)
    if is_columnar(corpus):
        from explore.corpus.columnar_store import in_batches, save_columnar

        save_columnar(corpus.name, corpus.provenance, in_batches(corpus), path, incoming=corpus.incoming_counts)
    else:
        save_corpus(corpus, path)
    if builder is not None:
        record_builder(path, builder)
    return path


def corpus_busy_error(name: str, holder: str) -> CorpusBusyError:
    return CorpusBusyError(f"Corpus {name!r} is busy: another command is writing it ({holder}). Nothing was changed; "
                           "run it again once that has finished.")


@contextmanager
def writing_corpus(name: str) -> Iterator[None]:
    """Hold corpus `name` for writing while the block runs, or raise CorpusBusyError at once: two commands that read
    or check a corpus and then store it (an import over its name, an attached aspect) would otherwise both report
    success while the later store silently replaced the earlier."""
    locks = data_home() / "locks"
    name = check_name(name, "corpus")
    with held(locks / f"corpus-{name}.lock", locks / f"corpus-{name}.holder.json",
              lambda holder: corpus_busy_error(name, holder)):
        yield


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
    stored = {p.name for p in root.iterdir() if is_name(p.name) and (p / CARD_FILE).exists()} \
        if root.is_dir() else set()
    return sorted(stored | set(_builtin_builders()))


def open_corpus(name: str) -> Corpus:
    """Load a stored corpus; a built-in one that is missing, damaged or outdated is (re)built."""
    path = corpus_path(name)
    recover_directory(path)
    builders = _builtin_builders()
    builtin = builders.get(name)
    fingerprint = builtin.fingerprint() if builtin else None
    if (path / CARD_FILE).exists():
        # A built-in corpus stored by an older AspectNav (other labels, aliases, links) is built again: an upgrade
        # must reach the readers' data homes, not only fresh ones.
        stored_by = built_by(path) if builtin else fingerprint
        if stored_by != fingerprint:
            log.warning("Built-in corpus %r was stored by other code (fingerprint %s, now %s): replacing it with "
                        "the current build.", name, stored_by, fingerprint)
        else:
            try:
                return load_corpus(path)
            except AspectNavError as exc:
                if builtin is None:
                    raise
                problem = exc.problem if isinstance(exc, DamagedCorpusError) else str(exc)
                log.warning("Built-in corpus %r is damaged or outdated (%s): rebuilding it from its package.",
                            name, problem)
    if builtin is not None:
        corpus = shipped_build(name, fingerprint)
        if corpus is not None:
            copy_shipped(name, path)
            return corpus
        corpus = builtin.build()
        record_builder(store_corpus(corpus), fingerprint)
        return corpus
    raise UnknownCorpusError(f"No corpus named {name!r}. Available: {', '.join(list_corpora())}.")
