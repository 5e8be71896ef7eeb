"""Hand a trained run to the engine: build its space (a head space only projects the generic one)
and save the training record beside it."""
from __future__ import annotations

from pathlib import Path

from explore.corpus.model import Corpus
from explore.spaces import Space, SpaceDefinition, spaces_for
from explore.spaces.store import TRAINING_RECORD_FILE as TRAINING_RECORD
from explore.spaces.store import read_training_record as read_record
from explore.spaces.store import training_record_file
from training.config import TrainingConfig

SPACE_KIND = {"single": "aspect", "union": "union", "intersection": "intersection", "graded": "union"}  # graded: a union space


def export_space(config: TrainingConfig, corpus: Corpus, encoder_dir: Path, progress: bool = True) -> Space:
    """Build `config.space_name` in the data home from `encoder_dir` (an engine head directory or a
    sentence-transformers model directory); `python -m explore spaces ...` and the app then open it."""
    definition = SpaceDefinition(config.space_name, SPACE_KIND[config.combine], f"dir:{Path(encoder_dir).resolve()}",
                                 tuple(config.aspects))
    return spaces_for(corpus, progress=progress).build(definition)


def write_training_record(space: Space, record: dict) -> Path:
    """config, seed, split, metrics, git commit and run directory, next to the space's manifest."""
    path = Path(space.directory_) / TRAINING_RECORD
    path.write_text(training_record_file(record))
    return path


def read_training_record(space: Space) -> dict:
    return read_record(space.directory_)


def trained_split(space: Space) -> str | None:
    """The split fingerprint a trained space was trained on (None for spaces training did not make)."""
    return read_training_record(space).get("split", {}).get("fingerprint")
