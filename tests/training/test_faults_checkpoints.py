"""Issue #25, item 5: a kill while a checkpoint is written, a damaged checkpoint, and a second process training the
same run (real files, real child processes)."""
import io
import logging
import os
import signal

import pytest
import torch

from training.checkpoints import last_complete_trainer_checkpoint, resume_state, save_checkpoint
from training.config import TrainingConfig
from training.head import TrainableHead
from training.pipeline import train
from training.runs import Run, RunBusyError


def state(epoch: int) -> dict:
    torch.manual_seed(epoch)
    head = TrainableHead(32, "linear")
    optimizer = torch.optim.AdamW(head.parameters())
    return {"epoch": epoch, "head": head.state_dict(), "optimizer": optimizer.state_dict(), "history": [epoch]}


def save_killed_halfway(directory, epoch: int) -> None:
    """Save a checkpoint in a child process SIGKILLed when half of the file's bytes are written."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        real_save = torch.save

        def half_then_killed(obj, target, *args, **kwargs):
            whole = io.BytesIO()
            real_save(obj, whole, *args, **kwargs)
            with open(target, "wb") as out:
                out.write(whole.getvalue()[: len(whole.getvalue()) // 2])
            os.kill(os.getpid(), signal.SIGKILL)

        try:
            torch.save = half_then_killed
            save_checkpoint(state(epoch), directory, epoch)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == -signal.SIGKILL


def test_a_kill_while_a_checkpoint_is_written_leaves_the_one_before(tmp_path):
    save_checkpoint(state(1), tmp_path, 1)
    save_killed_halfway(tmp_path, 2)
    assert not (tmp_path / "epoch-002.pt").exists()
    path, resumed = resume_state(tmp_path)
    assert path.name == "epoch-001.pt" and resumed["history"] == [1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["epoch-001.pt"]  # the killed write's temporary went


def test_a_damaged_checkpoint_is_logged_removed_and_the_one_before_used(tmp_path, caplog):
    """What a kill left with the code before #25: a truncated file at the checkpoint's own name."""
    save_checkpoint(state(1), tmp_path, 1)
    damaged = save_checkpoint(state(2), tmp_path, 2)
    damaged.write_bytes(damaged.read_bytes()[:1000])
    with caplog.at_level(logging.WARNING, logger="training.checkpoints"):
        path, resumed = resume_state(tmp_path)
    assert path.name == "epoch-001.pt" and resumed["epoch"] == 1
    assert "epoch-002.pt is damaged" in caplog.text and not damaged.exists()


def test_an_incomplete_trainer_checkpoint_is_skipped(tmp_path, caplog):
    for step, finished in ((10, True), (20, False)):  # the trainer writes trainer_state.json last
        (tmp_path / f"checkpoint-{step}").mkdir()
        (tmp_path / f"checkpoint-{step}" / "model.safetensors").write_bytes(b"weights")
        if finished:
            (tmp_path / f"checkpoint-{step}" / "trainer_state.json").write_text("{}")
    with caplog.at_level(logging.WARNING, logger="training.checkpoints"):
        assert last_complete_trainer_checkpoint(tmp_path) == str(tmp_path / "checkpoint-10")
    assert "checkpoint-20 is incomplete" in caplog.text


def test_a_second_training_of_a_run_is_refused_naming_the_first(fixture_corpus, fixture_embeddings):
    config = TrainingConfig(corpus="fixture", aspects=("country",), epochs=1, batch_size=16)
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the other `training train`: holds the run until killed
        try:
            with Run.named(config.run_name).lock():
                os.write(ready_write, b"1")
                signal.pause()
        finally:
            os._exit(1)
    try:
        os.read(ready_read, 1)
        with pytest.raises(RunBusyError, match=rf"Run '{config.run_name}' is being trained by another process "
                                               rf"\(pid {pid} on "):
            train(config, corpus=fixture_corpus, generic=fixture_embeddings, progress=False, export=False)
    finally:
        os.kill(pid, signal.SIGKILL)  # killed, it lets go of the run: a rerun is not blocked by a stale lock
        os.waitpid(pid, 0)
    with Run.named(config.run_name).lock():
        pass
