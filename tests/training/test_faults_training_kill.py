"""Issue #25, item 5, end to end: `train` in a real process SIGKILLed halfway through writing a checkpoint; the
rerun resumes from the checkpoint before and ends where an uninterrupted run does."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explore.encoders import load_encoder
from training.config import TrainingConfig
from training.pipeline import HEAD_DIR, train

pytestmark = pytest.mark.slow  # a subprocess that imports torch and sentence-transformers' losses
REPO = Path(__file__).resolve().parents[2]
CONFIG = dict(corpus="fixture", aspects=("country",), epochs=3, batch_size=16)
KILLED_AT_THE_SECOND_CHECKPOINT = f"""
import io, os, signal
import torch
from training.config import TrainingConfig
from training.pipeline import train
from tests.fixture_corpora import make_corpus, make_embeddings

real_save = torch.save

def save(obj, target, *args, **kwargs):
    if isinstance(obj, dict) and obj.get("epoch") == 2:  # half of the file's bytes, then SIGKILL
        whole = io.BytesIO()
        real_save(obj, whole)
        with open(target, "wb") as out:
            out.write(whole.getvalue()[: len(whole.getvalue()) // 2])
        os.kill(os.getpid(), signal.SIGKILL)
    real_save(obj, target, *args, **kwargs)

torch.save = save
corpus = make_corpus()
train(TrainingConfig(**{CONFIG!r}), corpus=corpus, generic=make_embeddings(corpus), progress=False, export=False)
"""


def test_a_training_killed_while_writing_a_checkpoint_resumes(fixture_corpus, fixture_embeddings):
    child = subprocess.run([sys.executable, "-c", KILLED_AT_THE_SECOND_CHECKPOINT], cwd=REPO, capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=300)
    assert child.returncode == -signal.SIGKILL, child.stderr[-2000:]

    resumed = train(TrainingConfig(**CONFIG), corpus=fixture_corpus, generic=fixture_embeddings, progress=False,
                    export=False)
    straight = train(TrainingConfig(**CONFIG, run_name="straight"), corpus=fixture_corpus, generic=fixture_embeddings,
                     progress=False, export=False)
    assert [epoch["epoch"] for epoch in resumed.info["history"]] == [1, 2, 3]
    np.testing.assert_allclose(load_encoder(resumed.path / HEAD_DIR).project(fixture_embeddings),
                               load_encoder(straight.path / HEAD_DIR).project(fixture_embeddings), atol=1e-6)
