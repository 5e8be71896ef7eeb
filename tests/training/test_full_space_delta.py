"""A full-mode space shipped with its fine-tuned encoder as a low-rank weight delta (training/full_spaces.py): packed
where it trained, shipped anywhere, free text placed where the fine-tuned encoder places it, the figure recorded."""
import json

import numpy as np
import pytest

from explore.encoders import load_encoder
from explore.settings import data_home
from explore.spaces.store import load_space, read_manifest, read_training_record
from training.config import TrainingConfig
from training.full_spaces import pack_full_vectors, read_packed, ship_full_space
from training.pipeline import train

pytestmark = pytest.mark.slow  # fine-tunes MiniLM for a few steps (tens of seconds on 2 CPU cores)

QUERIES = ["a painter from France", "Person 3", "an object"]


def test_a_packed_delta_ships_as_the_space_s_free_text_encoder(fixture_corpus, tmp_path):
    config = TrainingConfig(corpus="fixture", aspects=("country",), mode="full", epochs=1, batch_size=8,
                            max_seq_length=32, save_steps=100, learning_rate=1e-4)
    train(config, corpus=fixture_corpus, progress=False)
    name = config.space_name
    home_space = data_home() / "spaces" / fixture_corpus.name / name
    pack_full_vectors(data_home(), fixture_corpus, [name], tmp_path / "packed")
    delta = tmp_path / "packed" / f"delta-{name}"
    assert json.loads((delta / "delta.json").read_text())["rank"] == 32
    full_corpus, full_queries = read_packed(tmp_path / "packed" / f"{name}.npz")
    record = json.loads((tmp_path / "packed" / f"training-{name}.json").read_text())
    record = record.get("training_record", record)
    manifest = read_manifest(home_space)
    figures = ship_full_space(fixture_corpus, name, manifest["kind"], tuple(manifest["aspects"]), record, full_corpus,
                              full_queries, None, None, tmp_path / "shipped", source=manifest, delta=delta)
    assert "weight delta" in figures["free_text_encoder"]
    assert figures["nn@10_test_queries"] >= 0.9 and figures[next(k for k in figures if k.endswith("_held_out"))] >= 0.9
    assert "before" not in figures  # nothing was shipped there before
    shipped = load_space(tmp_path / "shipped" / name, fixture_corpus)  # the encoder checks out against the manifest
    assert read_training_record(shipped.directory_)["shipped"] == figures
    assert (tmp_path / "shipped" / name / "encoder" / "delta.json").is_file()
    tuned = load_encoder(manifest["encoder"], precision="fp32", base_dir=home_space).encode(QUERIES, progress=False)
    placed = load_encoder(f"dir:{tmp_path / 'shipped' / name / 'encoder'}", precision="fp32").encode(QUERIES,
                                                                                                     progress=False)
    base = load_encoder("minilm", precision="fp32").encode(QUERIES, progress=False)
    assert np.min(np.sum(tuned * placed, axis=1)) > 0.995
    assert np.mean(np.sum(tuned * base, axis=1)) < np.mean(np.sum(tuned * placed, axis=1)) - 0.001  # it moved
    again = ship_full_space(fixture_corpus, name, manifest["kind"], tuple(manifest["aspects"]), record, full_corpus,
                            full_queries, None, None, tmp_path / "shipped", source=manifest, delta=delta)
    assert again["before"]["nn@10_test_queries"] == figures["nn@10_test_queries"]  # the replaced space's figures kept
