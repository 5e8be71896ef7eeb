"""Replacing a file or a directory so that readers see the old one or the new one, never half of either."""
from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger(__name__)

STAGING_SUFFIX = ".staging"
# A staging directory may belong to a writer at work in another process (the CLI importing while the app
# lists corpora), so only one untouched for this long counts as left behind by a killed writer.
ABANDONED_AFTER_S = 3600
# Spaces staged their writes as `.name-XXXXXXXX` (tempfile's eight characters, no suffix) until issue #25: such
# folders in a data home are staging too, and go the same way once abandoned.
_UNSUFFIXED_STAGING = re.compile(r"\.(.+)-[a-z0-9_]{8}")
_STAGING_WRITER = re.compile(r"\.(\d+)" + re.escape(STAGING_SUFFIX) + "$")  # the writer's process id


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


def remove_non_file(path: Path) -> str | None:
    """When a folder (or a pipe, socket …) sits where a cache file of ours belongs, remove it so the file can be
    written again, and say what it was; None when `path` is a regular file or absent. A folder that cannot be
    removed raises OSError naming it (the caller says so)."""
    path = Path(path)
    if not os.path.lexists(path) or (path.is_file() and not path.is_symlink()):
        return None
    what = "a folder" if path.is_dir() and not path.is_symlink() else "not a regular file"
    if what == "a folder":
        shutil.rmtree(path)
    else:
        path.unlink()
    return what


def staging_directory_for(directory: Path) -> Path:
    """A new hidden directory beside `directory` to write into, then hand to `swap_directory_into_place`. Its name
    carries this process's id, so what a killed writer left (a million-article build leaves 310 MB) is found and
    removed by the next write of the same directory, here."""
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    recover_directory(directory)
    return Path(tempfile.mkdtemp(prefix=f".{directory.name}-", suffix=f".{os.getpid()}{STAGING_SUFFIX}",
                                 dir=directory.parent))


def swap_directory_into_place(staging: Path, directory: Path) -> None:
    """Move a fully written `staging` directory to `directory`, replacing what was there.

    Two renames (directory -> backup, staging -> directory): a kill between them leaves no directory,
    and `recover_directory` puts the backup back."""
    recover_directory(directory)
    backup = None
    if directory.exists():
        backup = _backup_of(directory)
        shutil.rmtree(backup, ignore_errors=True)
        os.replace(directory, backup)
    os.replace(staging, directory)
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def recover_directory(directory: Path) -> None:
    """Undo what a swap killed midway left beside `directory`: a backup comes back when the directory is
    missing and goes when it is not; staging directories untouched for ABANDONED_AFTER_S go."""
    directory = Path(directory)
    backup = _backup_of(directory)
    try:
        if backup.is_dir() and directory.exists():
            shutil.rmtree(backup)
        elif backup.is_dir():
            os.replace(backup, directory)
            log.warning("%s was missing after an interrupted write: restored the copy from before it.", directory)
        if directory.parent.is_dir():
            for entry in directory.parent.iterdir():
                if _staging_owner(entry) == directory.name and _abandoned(entry):
                    shutil.rmtree(entry)
    except OSError as exc:  # a read-only data home: leave the traces, they are hidden anyway
        log.warning("Could not tidy up after an interrupted write of %s: %s", directory, exc)


def recover_directories(parent: Path) -> None:
    """`recover_directory` for each directory whose backup or staging lies in `parent`."""
    parent = Path(parent)
    if parent.is_dir():
        owners = {_owner(entry.name) or _staging_owner(entry) for entry in parent.iterdir()}
        for name in sorted(owner for owner in owners if owner):
            recover_directory(parent / name)


def _backup_of(directory: Path) -> Path:
    return directory.with_name(f".{directory.name}.old")


def _owner(name: str) -> str | None:
    """The directory a hidden backup (`.name.old`) or staging (`.name-XXXXXXXX.staging`) belongs to."""
    if not name.startswith("."):
        return None
    if name.endswith(".old"):
        return name[1:-len(".old")] or None
    if name.endswith(STAGING_SUFFIX) and "-" in name:
        return name[1:].rsplit("-", 1)[0] or None
    return None


def _staging_owner(entry: Path) -> str | None:
    """The directory a staging folder belongs to, whichever way it was named."""
    if entry.name.endswith(STAGING_SUFFIX):
        return _owner(entry.name)
    unsuffixed = _UNSUFFIXED_STAGING.fullmatch(entry.name)
    return unsuffixed.group(1) if unsuffixed and entry.is_dir() else None


def _abandoned(path: Path) -> bool:
    """Left behind: its writer's process is gone (staging named with it), else untouched for ABANDONED_AFTER_S."""
    writer = _STAGING_WRITER.search(path.name)
    if writer is not None:
        return not _process_alive(int(writer.group(1)))
    return time.time() - path.stat().st_mtime > ABANDONED_AFTER_S


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True
