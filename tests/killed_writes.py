"""Run a write in a child process that is SIGKILLed at a chosen point of its directory swap (no cleanup, no finally)."""
from __future__ import annotations

import os
import signal
from typing import Callable

from explore import atomic_files

# Where the child dies: staging written but nothing renamed yet; the old copy renamed aside (`.name.old`) but the new
# one not landed; the new one landed but the old copy not yet removed.
BEFORE_THE_SWAP, OLD_COPY_ASIDE, NEW_COPY_LANDED = "before the swap", "old copy aside", "new copy landed"


def write_killed(write: Callable[[], object], when: str) -> None:
    """Fork; the child runs `write` and is SIGKILLed `when` its swap gets there (only the child's os.replace is
    wrapped)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        real_replace = os.replace

        def replace(source, target):
            hidden = [os.path.basename(str(path)).startswith(".") for path in (source, target)]
            landing = hidden == [True, False]  # staging -> directory, the second rename
            if (when == BEFORE_THE_SWAP) or (landing and when == OLD_COPY_ASIDE):
                os.kill(os.getpid(), signal.SIGKILL)
            real_replace(source, target)
            if landing and when == NEW_COPY_LANDED:
                os.kill(os.getpid(), signal.SIGKILL)

        try:
            atomic_files.os.replace = replace
            write()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == -signal.SIGKILL, f"the child was meant to die {when}"
