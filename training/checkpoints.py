"""Checkpoints a kill cannot spoil: each written atomically, and on resume the newest one that is complete.

A kill while `torch.save` writes leaves only a hidden temporary beside the checkpoints (removed on the next
resume), never a truncated `epoch-NNN.pt`; a damaged one (from an older version, or the disk) is logged,
removed and the one before it used. The caller holds the run's lock (`Run.lock`), so no other process is
writing the temporaries it removes.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from explore.atomic_files import file_written_atomically

logger = logging.getLogger(__name__)
CHECKPOINT = "epoch-{:03d}.pt"
KEEP_CHECKPOINTS = 2
_UNFINISHED = ".epoch-*.tmp"  # file_written_atomically's temporaries of a checkpoint
TRAINER_CHECKPOINT, TRAINER_STATE = "checkpoint", "trainer_state.json"  # transformers' names (Trainer._save_checkpoint)


def save_checkpoint(state: dict, directory: Path, epoch: int) -> Path:
    """Write `state` as epoch `epoch`'s checkpoint; keep the newest KEEP_CHECKPOINTS."""
    import torch

    path = Path(directory) / CHECKPOINT.format(epoch)
    with file_written_atomically(path, suffix=".tmp") as staging:
        torch.save(state, staging)
    for old in sorted(path.parent.glob("epoch-*.pt"))[:-KEEP_CHECKPOINTS]:
        old.unlink()
    return path


def resume_state(directory: Path) -> tuple[Path, dict] | None:
    """(path, state) of the newest checkpoint that loads whole, or None: train from the start."""
    import torch

    directory = Path(directory)
    if not directory.is_dir():
        return None
    for unfinished in directory.glob(_UNFINISHED):
        unfinished.unlink(missing_ok=True)
    for path in sorted(directory.glob("epoch-*.pt"), reverse=True):
        try:
            state = torch.load(path, map_location="cpu", weights_only=False)
            state["epoch"], state["head"], state["optimizer"], state["history"]  # noqa: B018 - all there?
            return path, state
        except Exception as exc:  # noqa: BLE001 - whatever a damaged file makes torch raise, it cannot resume a run
            logger.warning("Checkpoint %s is damaged (%s: %s): removed; resuming from the one before it.", path,
                           type(exc).__name__, str(exc)[:200])
            path.unlink(missing_ok=True)
    return None


def last_complete_trainer_checkpoint(directory: Path) -> str | None:
    """The newest `checkpoint-N` folder of transformers' trainer that was written to the end (its
    `trainer_state.json`, written last, reads): a kill mid-save leaves a folder it cannot resume from."""
    directory = Path(directory)
    found = [p for p in directory.glob(f"{TRAINER_CHECKPOINT}-*") if p.is_dir() and p.name.split("-")[-1].isdigit()]
    for folder in sorted(found, key=lambda p: int(p.name.split("-")[-1]), reverse=True):
        try:
            json.loads((folder / TRAINER_STATE).read_text())
            return str(folder)
        except (OSError, ValueError) as exc:
            logger.warning("Checkpoint %s is incomplete (%s): skipped; resuming from the one before it.", folder,
                           type(exc).__name__)
    return None
