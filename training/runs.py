"""A training run's directory: config, seed, split, metrics, git commit and checkpoints side by side."""
from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from explore.errors import AspectNavError
from explore.json_seal import json_plain
from explore.names import check_name
from explore.process_lock import held
from explore.settings import REPO_ROOT, data_home
from training.config import TrainingConfig

CONFIG_FILE = "config.json"
RUN_FILE = "run.json"
METRICS_FILE = "metrics.json"
LOCK_FILE = ".training.lock"  # held while a process trains the run: two would read each other's checkpoints
HOLDER_FILE = ".training.lock.json"  # who holds it, for the message the other one gets


class RunBusyError(AspectNavError):
    """Another process is training this run right now."""


def runs_dir() -> Path:
    return data_home() / "training" / "runs"


def git_commit() -> str:
    """HEAD of the repository, with `+dirty` when the working tree has changes; `unknown` outside git."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10).stdout.strip()

    try:
        commit = git("rev-parse", "--verify", "-q", "HEAD") or "no-commit"
        return commit + ("+dirty" if git("status", "--porcelain") else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> dict:
    import torch

    info = {"platform": platform.platform(), "python": platform.python_version(), "torch": torch.__version__,
            "cpus": __import__("os").cpu_count()}
    if torch.cuda.is_available():
        info["gpu"] = torch.cuda.get_device_name(0)
    return info


class Run:
    """`<data home>/training/runs/<name>/`: created by `start`, completed by `finish`."""

    def __init__(self, path: Path):
        self.path = Path(path)

    @classmethod
    def named(cls, name: str) -> "Run":
        return cls(runs_dir() / check_name(name, "run"))

    @property
    def checkpoints(self) -> Path:
        return self.path / "checkpoints"

    @property
    def config(self) -> TrainingConfig:
        return TrainingConfig.from_dict(json.loads((self.path / CONFIG_FILE).read_text()))

    @property
    def info(self) -> dict:
        path = self.path / RUN_FILE
        return json.loads(path.read_text()) if path.exists() else {}

    @property
    def finished(self) -> bool:
        return bool(self.info.get("finished"))

    @contextmanager
    def lock(self) -> Iterator["Run"]:
        """Hold the run for this process, or raise RunBusyError naming the process that holds it. The OS lets go
        of the lock when its holder dies, killed or not: a stale lock never blocks a rerun."""
        if os.environ.get("RANK", "0") != "0":  # a torchrun/accelerate worker: rank 0 holds the run for them all
            yield self
            return

        def busy(holder: str) -> RunBusyError:
            return RunBusyError(f"Run {self.path.name!r} is being trained by another process ({holder}); wait for it "
                                "to finish, or pass another --run-name.")

        with held(self.path / LOCK_FILE, self.path / HOLDER_FILE, busy):
            yield self

    def reset(self) -> None:
        """Forget checkpoints and records: the next `start` trains from scratch."""
        shutil.rmtree(self.checkpoints, ignore_errors=True)
        (self.path / RUN_FILE).unlink(missing_ok=True)

    def start(self, config: TrainingConfig, extra: dict) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / CONFIG_FILE).write_text(config.to_json())
        info = self.info
        info.update({"seed": config.seed, "git_commit": git_commit(), "machine": machine(), "finished": None,
                     "started": info.get("started") or datetime.now(timezone.utc).isoformat(timespec="seconds"),
                     **extra})
        self._write_info(info)

    def finish(self, extra: dict) -> None:
        info = self.info
        info.update(finished=datetime.now(timezone.utc).isoformat(timespec="seconds"), **extra)
        self._write_info(info)

    def save_metrics(self, metrics: dict) -> None:
        (self.path / METRICS_FILE).write_text(json.dumps(json_plain(metrics), indent=2, default=float))

    def _write_info(self, info: dict) -> None:
        (self.path / RUN_FILE).write_text(json.dumps(json_plain(info), indent=2, default=str))
