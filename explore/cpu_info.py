"""The CPU's model name and feature flags, read once: encoder speed hangs on them (bf16, AVX-512, AMX)."""
from __future__ import annotations

import platform
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def _cpuinfo_lines() -> tuple[str, ...]:
    try:
        return tuple(Path("/proc/cpuinfo").read_text().splitlines())
    except OSError:  # not Linux: the callers fall back to the platform strings
        return ()


def _first(*keys: str) -> str | None:
    return next((line.split(":", 1)[1].strip() for line in _cpuinfo_lines() if line.startswith(keys)), None)


def cpu_model() -> str:
    return _first("model name") or platform.processor() or platform.machine()


def cpu_flags() -> frozenset[str]:
    """The first core's flags (x86 `flags`, Arm `Features`); empty where /proc/cpuinfo is not readable."""
    return frozenset((_first("flags", "Features") or "").split())
