"""One process at a time for a piece of work (training a run, writing a corpus): a lock file the OS lets go when its
holder ends, killed or not (a stale lock never blocks a rerun), and a note of who holds it, so the process refused
is told who it waits for."""
from __future__ import annotations

import json
import os
import platform
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path


@contextmanager
def held(lock_file: Path, holder_file: Path, refuse: Callable[[str], Exception]) -> Iterator[None]:
    """Hold `lock_file` while the block runs, or raise `refuse(who holds it)` at once: another process, or another
    thread of this one (each call opens the lock anew)."""
    from filelock import FileLock, Timeout

    lock_file.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(lock_file, thread_local=False, is_singleton=False)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise refuse(_holder(holder_file)) from None
    try:
        holder_file.write_text(json.dumps({"pid": os.getpid(), "host": platform.node(), "command": " ".join(sys.argv),
                                           "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}))
        yield
    finally:
        holder_file.unlink(missing_ok=True)
        lock.release()


def _holder(holder_file: Path) -> str:
    try:
        holder = json.loads(holder_file.read_text())
        return f"pid {holder['pid']} on {holder['host']} since {holder['since']}: {holder['command']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "it has only just started"
