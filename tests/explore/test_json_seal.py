"""A sealed record holds only what JSON can write back: NaN and infinities (numpy's too) become null, so a
metric that could not be computed never costs the record it sits in."""
from __future__ import annotations

import json
import math

import numpy as np

from explore.json_seal import SEAL_KEY, seal_problem, sealed
from explore.spaces.store import TRAINING_RECORD_FILE, read_training_record, training_record_file


def test_non_finite_numbers_are_sealed_as_null():
    record = sealed({"metrics": {"agts": math.nan, "overlap": np.float32("inf"), "ndcg": np.float64(0.5),
                                 "per_aspect": [-math.inf, 1]}})
    text = json.dumps(record, allow_nan=False)  # raises on NaN: what a strict reader would refuse
    assert json.loads(text)["metrics"] == {"agts": None, "overlap": None, "ndcg": 0.5, "per_aspect": [None, 1]}
    assert seal_problem(json.loads(text), frozenset({"metrics"})) is None and SEAL_KEY in record


def test_a_small_corpus_training_record_with_nan_metrics_is_written_and_read_back(tmp_path):
    """A 30-article corpus leaves Spearman-based metrics undefined (NaN): the record is still kept."""
    record = {"config": {"space_name": "small"}, "split": {"fingerprint": "abc"},
              "metrics": {"test/agts": float("nan"), "test/ndcg@10": 0.25, "test/overlap": float("-inf")}}
    (tmp_path / TRAINING_RECORD_FILE).write_text(training_record_file(record))
    assert read_training_record(tmp_path)["metrics"] == {"test/agts": None, "test/ndcg@10": 0.25,
                                                         "test/overlap": None}
