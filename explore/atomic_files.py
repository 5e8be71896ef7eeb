"""Replacing a directory so that readers see the old one or the new one, never half of either."""
from __future__ import annotations

import os
import shutil
from pathlib import Path


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
