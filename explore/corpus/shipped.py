"""Built-in corpora shipped already built (assets/corpora/<name>/): a fresh data home copies the build in
(~0.3 s) instead of building it (the vital corpus: ~3 s, mostly its mention links).

A shipped build is used only when it is current: `builder.json` beside it records the fingerprint of the
code, tables and package versions that built it (`BuiltinCorpus.fingerprint`), and the store's own checks
(file sha256, content hash) must hold. Anything else is logged and the corpus is built as before, so a
stale or damaged asset costs seconds, never a wrong corpus. scripts/build_vital_corpus.sh rewrites it.
"""
from __future__ import annotations

import json
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from explore.atomic_files import staging_directory_for, swap_directory_into_place
from explore.corpus.model import Corpus
from explore.corpus.store import load_corpus, save_corpus
from explore.errors import AspectNavError
from explore.settings import ASSETS_DIR

log = logging.getLogger(__name__)

SHIPPED_CORPORA_DIR = ASSETS_DIR / "corpora"
BUILDER_FILE = "builder.json"


@dataclass(frozen=True)
class BuiltinCorpus:
    """A corpus AspectNav can make itself: how to build it, and the fingerprint of what building it reads."""

    build: Callable[[], Corpus]
    fingerprint: Callable[[], str]


def shipped_build(name: str, fingerprint: str, root: Path | None = None) -> Corpus | None:
    """The shipped build of `name` when it exists, is current and loads cleanly; else None (logged why)."""
    directory = Path(root or SHIPPED_CORPORA_DIR) / name
    if not directory.is_dir():
        return None
    try:
        recorded = json.loads((directory / BUILDER_FILE).read_text())["fingerprint"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("Shipped corpus %r has no readable %s (%s): building it instead.", name, BUILDER_FILE, exc)
        return None
    if recorded != fingerprint:
        log.warning("Shipped corpus %r was built from other code or data (fingerprint %s, now %s): building it "
                    "instead; scripts/build_vital_corpus.sh refreshes the shipped copy.", name, recorded, fingerprint)
        return None
    try:
        return load_corpus(directory)
    except AspectNavError as exc:
        log.warning("Shipped corpus %r is unusable (%s): building it instead.", name, exc)
        return None


def copy_shipped(name: str, target: Path, root: Path | None = None) -> None:
    """Copy the shipped store files of `name` into `target`, atomically (faster than writing the Parquet again)."""
    source = Path(root or SHIPPED_CORPORA_DIR) / name
    staging = staging_directory_for(Path(target))
    try:
        for path in source.iterdir():  # builder.json too: the stored copy says which code built it
            if path.is_file():
                shutil.copy2(path, staging / path.name)
        swap_directory_into_place(staging, Path(target))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def ship_build(corpus: Corpus, fingerprint: str, root: Path | None = None) -> Path:
    """Write `corpus` as the shipped build, with the fingerprint it is valid for."""
    directory = save_corpus(corpus, Path(root or SHIPPED_CORPORA_DIR) / corpus.name)
    record_builder(directory, fingerprint)
    return directory


def record_builder(directory: Path, fingerprint: str) -> None:
    """Note beside a stored built-in corpus the fingerprint of the code that built it (`built_by` reads it)."""
    (Path(directory) / BUILDER_FILE).write_text(json.dumps({"fingerprint": fingerprint}, indent=2) + "\n")


def built_by(directory: Path) -> str | None:
    """The fingerprint a stored built-in corpus was built with (None when it has no readable record)."""
    try:
        return json.loads((Path(directory) / BUILDER_FILE).read_text())["fingerprint"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
