"""auto's decision logic with stand-in runners: which backend wins, what is ruled out, what is cached."""
import json

import numpy as np
import pytest

from explore.encoders import backend_choice
from explore.encoders.backend import EncoderBackend
from explore.encoders.backend_choice import BackendChoice, candidates, check_set, choose_backend
from explore.encoders.precision import Precision

TORCH, OPENVINO, ONNX = EncoderBackend.TORCH, EncoderBackend.OPENVINO, EncoderBackend.ONNX
TEXTS = [f"text {i}" for i in range(40)]
BASE = np.random.default_rng(0).normal(size=(len(TEXTS), 24)).astype(np.float32)


class StandIn:
    """A runner whose vectors are the reference plus `noise`, and whose pass takes `seconds`."""

    def __init__(self, backend, precision, seconds, noise=0.0):
        self.backend, self.precision, self.seconds = backend, precision, seconds
        rng = np.random.default_rng(abs(hash((str(backend), precision))) % 2**32)
        vectors = BASE + noise * rng.normal(size=BASE.shape).astype(np.float32)
        self.vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def __call__(self, texts):
        import torch

        return torch.from_numpy(self.vectors[[TEXTS.index(t) for t in texts]])


class StandInEncoder:
    fingerprint = "standin0000000000"

    def __init__(self, runners):
        self.runners = runners
        self.built = []

    def runner(self, backend, precision):
        self.built.append((backend, precision))
        return self.runners[(backend, precision)]


@pytest.fixture
def timed_by_stand_in(monkeypatch):
    """Each stand-in's pass 'takes' its own `seconds`; no test depends on the real clock."""
    def timed(runner, texts, batch_size, give_up_s):
        from explore.encoders.batching import encode_in_batches

        if give_up_s is not None and runner.seconds > give_up_s:
            return None, runner.seconds
        return encode_in_batches(runner, texts, batch_size, progress=False), runner.seconds

    monkeypatch.setattr(backend_choice, "_timed_encode", timed)
    monkeypatch.setattr(backend_choice, "candidates",
                        lambda precision: candidates(precision, [TORCH, OPENVINO, ONNX], bf16_fast=True))


def _encoder(openvino_noise=0.0, onnx_seconds=3.0):
    return StandInEncoder({
        (TORCH, Precision.FP32): StandIn(TORCH, "fp32", 4.0),
        (TORCH, Precision.BF16): StandIn(TORCH, "bf16", 20.0, noise=0.001),  # emulated bf16: far slower
        (OPENVINO, Precision.AUTO): StandIn(OPENVINO, "bf16", 1.0, noise=openvino_noise),
        (OPENVINO, Precision.FP32): StandIn(OPENVINO, "fp32", 2.0),
        (ONNX, Precision.FP32): StandIn(ONNX, "fp32", onnx_seconds),
        (ONNX, Precision.INT8): StandIn(ONNX, "int8", 0.5, noise=0.3),
    })


def test_auto_keeps_the_fastest_backend_that_matches_fp32(timed_by_stand_in):
    choice = choose_backend(_encoder(), TEXTS, Precision.AUTO, batch_size=8, announce=False)
    assert (choice.backend, choice.precision) == ("openvino", "auto")
    by_name = {(m.backend, m.asked): m for m in choice.measurements}
    assert by_name[("torch", "bf16")].why.startswith("stopped")  # too slow to finish measuring
    assert by_name[("openvino", "auto")].overlap == 1.0 and by_name[("openvino", "auto")].precision == "bf16"
    assert "openvino bf16" in choice.summary() and "nn@10 overlap 1.000" in choice.summary()


def test_a_fast_backend_that_moves_neighbours_is_ruled_out(timed_by_stand_in):
    choice = choose_backend(_encoder(openvino_noise=0.5), TEXTS, Precision.AUTO, batch_size=8, announce=False)
    assert (choice.backend, choice.precision) == ("openvino", "fp32")
    rejected = next(m for m in choice.measurements if m.asked == "auto")
    assert not rejected.kept and rejected.overlap < 0.99


def test_the_decision_is_measured_once_and_read_back(timed_by_stand_in, isolated_home, capsys):
    first = choose_backend(_encoder(), TEXTS, Precision.AUTO, batch_size=8, announce=False)
    cache = isolated_home / "encoders" / "backend_choice.json"
    assert len(json.loads(cache.read_text())) == 1
    again = _encoder()
    second = choose_backend(again, TEXTS, Precision.AUTO, batch_size=8, announce=True)
    assert again.built == [] and second == first  # nothing built, nothing measured
    assert "encoder backend: openvino bf16" in capsys.readouterr().err
    choose_backend(_encoder(), TEXTS, Precision.FP32, batch_size=8, announce=False)  # another key
    assert len(json.loads(cache.read_text())) == 2


def test_int8_is_measured_and_reported_but_never_filtered(timed_by_stand_in):
    choice = choose_backend(_encoder(), TEXTS, Precision.INT8, batch_size=8, announce=False)
    assert (choice.backend, choice.chosen.precision) == ("onnx", "int8")
    assert choice.chosen.overlap < 0.99 and "int8" in choice.summary()


def test_candidates_follow_the_precision_and_the_installed_backends():
    assert candidates(Precision.FP32, [TORCH]) == [(TORCH, Precision.FP32)]
    assert candidates(Precision.BF16, [TORCH, OPENVINO]) == [(TORCH, Precision.BF16), (OPENVINO, Precision.BF16)]
    assert candidates(Precision.INT8, [TORCH, OPENVINO]) == []
    assert candidates(Precision.AUTO, [TORCH])[0] == (TORCH, Precision.FP32)


def test_where_bf16_is_not_faster_auto_measures_neither_bf16_nor_a_second_openvino_fp32():
    every = [TORCH, OPENVINO, ONNX]
    assert candidates(Precision.AUTO, every, bf16_fast=True) == [
        (TORCH, Precision.FP32), (TORCH, Precision.BF16), (OPENVINO, Precision.AUTO), (OPENVINO, Precision.FP32),
        (ONNX, Precision.FP32)]
    assert candidates(Precision.AUTO, every, bf16_fast=False) == [
        (TORCH, Precision.FP32), (OPENVINO, Precision.FP32), (ONNX, Precision.FP32)]
    # asked for by name, bf16 is still measured (and printed) on any CPU
    assert candidates(Precision.BF16, every, bf16_fast=False) == [(TORCH, Precision.BF16), (OPENVINO, Precision.BF16)]


def test_the_check_set_spreads_over_all_the_texts():
    picked = check_set([str(i) for i in range(1000)], 10)
    assert len(picked) == 10 and picked[0] == "0" and picked[-1] == "999"
    assert check_set(["a", "b"], 10) == ["a", "b"]
    assert BackendChoice.from_dict(json.loads(json.dumps({"backend": "torch", "precision": "fp32",
                                                          "measurements": []}))).backend == "torch"


def test_a_fine_tune_shares_the_decision_but_another_architecture_does_not(tmp_path):
    from types import SimpleNamespace

    from explore.encoders.backend_choice import architecture_of

    def model(name, config, weights):
        directory = tmp_path / name
        directory.mkdir()
        (directory / "config.json").write_text(config)
        (directory / "model.safetensors").write_bytes(weights)
        return SimpleNamespace(model_dir=directory, fingerprint=name)

    base, tuned = model("base", '{"layers": 6}', b"a"), model("tuned", '{"layers": 6}', b"b")
    assert architecture_of(base) == architecture_of(tuned) != architecture_of(model("big", '{"layers": 12}', b"a"))
