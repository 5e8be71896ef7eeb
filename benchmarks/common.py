"""What every benchmark shares: repeated timing with warm-up excluded, and one row format."""
from __future__ import annotations

import os
import platform
import shutil
import statistics
import tempfile
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from explore.cpu_info import cpu_flags, cpu_model


@dataclass(frozen=True)
class Timing:
    """Seconds over repeated runs (warm-up excluded)."""

    median: float
    p95: float
    low: float
    high: float
    runs: int

    @property
    def spread(self) -> str:
        return f"{self.low:.4g}..{self.high:.4g}"


def percentiles_ms(seconds: Sequence[float]) -> tuple[float, float]:
    """p50 and p95 of timings given in seconds, in milliseconds (numpy's linear interpolation)."""
    import numpy as np

    ms = np.asarray(seconds, dtype=float) * 1000
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95))


def timed(fn: Callable[[], object], repeats: int = 5, warmup: int = 1) -> Timing:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return Timing(statistics.median(samples), percentiles_ms(samples)[1] / 1000, min(samples), max(samples),
                  len(samples))


@dataclass
class Row:
    """One line of the results table: ours against the peer, in the same run."""

    group: str
    metric: str
    ours: float | None
    peer: float | None
    unit: str
    peer_name: str
    spread: str = ""
    lower_is_better: bool = True
    notes: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        """ours / peer; below 1 is better when lower is better (times), above 1 otherwise."""
        if self.ours is None or not self.peer:
            return None
        return self.ours / self.peer

    def as_dict(self) -> dict:
        return {**asdict(self), "ratio": self.ratio}


CPU_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8")  # what the encoders' speed hangs on


def cpu_description() -> str:
    """The CPU model and which of CPU_FLAGS it has."""
    flags = cpu_flags()
    present = [flag for flag in CPU_FLAGS if flag in flags]
    return f"{cpu_model()} ({platform.machine()}; flags: {' '.join(present) or 'none of ' + ', '.join(CPU_FLAGS)})"


@dataclass(frozen=True)
class ProcessMemory:
    """This process's memory in GiB, from /proc/self/status: resident now (`rss`), its anonymous and file-backed parts
    (a memory-mapped file's pages are the kernel's to reclaim under pressure), and the peak (VmHWM: not ru_maxrss,
    which on Linux keeps the forking parent's peak across exec)."""

    rss: float
    anon: float
    file: float
    peak: float

    @classmethod
    def now(cls) -> "ProcessMemory":
        with open("/proc/self/status") as status:
            fields_ = dict(line.split(":", 1) for line in status if ":" in line)
        gib = lambda key: int(fields_[key].split()[0]) / 2**20  # noqa: E731 - the file gives kB
        return cls(gib("VmRSS"), gib("RssAnon"), gib("RssFile"), gib("VmHWM"))


def load_average() -> str:
    """The 1/5/15-minute load average: a busy machine explains slow figures."""
    try:
        return "/".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def machine() -> str:
    try:
        import torch

        torch_info = f"torch {torch.__version__}, {torch.get_num_threads()} threads"
        if torch.cuda.is_available():
            torch_info += f", {torch.cuda.get_device_name(0)}"
        else:
            torch_info += ", no GPU"
    except ImportError:
        torch_info = "no torch"
    memory = ""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f", {pages / 2**30:.0f} GiB RAM"
    except (ValueError, OSError):
        pass
    return (f"{cpu_description()}, {os.cpu_count()} cores{memory}, Python {platform.python_version()}, "
            f"{torch_info}; load average at start {load_average()}")


@contextmanager
def environment(**values: str) -> Iterator[None]:
    """These environment variables set while the block runs, and each put back as it was after (unset if it was).
    A benchmark that left $ASPECTNAV_HOME on its deleted scratch folder had the next one write a corpus there."""
    previous = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in previous.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def fresh_data_home(prefix: str = "aspectnav-bench-") -> Iterator[Path]:
    """A new, empty $ASPECTNAV_HOME for this process while the block runs: what a first use on a new machine
    finds (no stored corpus, no encoder exports, no backend choice, no map cache)."""
    from explore.settings import HOME_ENV

    home = tempfile.mkdtemp(prefix=prefix)
    try:
        with environment(**{HOME_ENV: home}):
            yield Path(home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
