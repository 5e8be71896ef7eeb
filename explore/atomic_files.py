"""Replacing a file or a directory so that readers see the old one or the new one, never half of either."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def file_written_atomically(path: Path, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside `path` to write; when the block succeeds it replaces `path`,
    and whatever happens the temporary file is gone afterwards."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, staging = tempfile.mkstemp(prefix=f".{path.name}-", suffix=suffix, dir=path.parent)
    os.close(handle)
    try:
        yield Path(staging)
        os.replace(staging, path)
    finally:
        Path(staging).unlink(missing_ok=True)


def swap_directory_into_place(staging: Path, directory: Path) -> None:
    """Move a fully written `staging` directory to `directory`, replacing what was there."""
    backup = None
    if directory.exists():
        backup = directory.with_name(f".{directory.name}.old")
        shutil.rmtree(backup, ignore_errors=True)
        os.replace(directory, backup)
    os.replace(staging, directory)
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)
