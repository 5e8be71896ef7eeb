"""Full mode on a tiny slice: the sentence-transformers trainer fine-tunes MiniLM with our loss."""
import pytest

from explore.spaces import spaces_for
from training.config import TrainingConfig
from training.export import read_training_record
from training.checkpoints import last_complete_trainer_checkpoint as last_checkpoint
from training.pipeline import MODEL_DIR, train

pytestmark = pytest.mark.slow  # fine-tunes MiniLM for a few steps (tens of seconds on 2 CPU cores)


def test_full_mode_trains_with_row_labels_and_builds_a_space(fixture_corpus):
    config = TrainingConfig(corpus="fixture", aspects=("country", "occupation"), combine="union",
                            objective="aspectcse-fn", mode="full", epochs=1, batch_size=8, max_seq_length=32, save_steps=2)
    run = train(config, corpus=fixture_corpus, progress=False)
    assert (run.path / MODEL_DIR / "config.json").exists()
    assert last_checkpoint(run.checkpoints) is not None  # the trainer's final checkpoint: what a resume starts from
    space = spaces_for(fixture_corpus).open(config.space_name)
    assert space.embeddings_.shape == (len(fixture_corpus), 384)
    assert read_training_record(space)["config"]["mode"] == "full"


def test_interrupted_full_run_resumes_from_its_last_checkpoint(fixture_corpus, monkeypatch):
    from sentence_transformers import SentenceTransformerTrainer

    config = TrainingConfig(corpus="fixture", aspects=("country",), mode="full", epochs=1, batch_size=8,
                            max_seq_length=32, save_steps=2)
    steps, interrupt = [], [True]
    original = SentenceTransformerTrainer.training_step

    def interrupting_step(self, *args, **kwargs):
        steps.append(self.state.global_step)
        if interrupt[0] and len(steps) == 4:
            raise Interrupted
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SentenceTransformerTrainer, "training_step", interrupting_step)
    with pytest.raises(Interrupted):
        train(config, corpus=fixture_corpus, progress=False, export=False)
    assert last_checkpoint(train_checkpoints(config)).endswith("checkpoint-2")
    steps.clear()
    interrupt[0] = False
    run = train(config, corpus=fixture_corpus, progress=False, export=False)
    assert steps[0] == 2  # continued after the checkpoint instead of starting over
    assert run.finished


class Interrupted(Exception):
    """Stands for a kill mid-training (pytest reserves KeyboardInterrupt for itself)."""


def train_checkpoints(config):
    from training.runs import Run

    return Run.named(config.run_name).checkpoints
