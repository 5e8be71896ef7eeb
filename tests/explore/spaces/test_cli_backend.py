"""`spaces build --backend/--precision`: listed in --help, checked before any work, handed to the encoders."""
import importlib.util

import pytest

from explore.cli import main
from explore.encoders.backend import BACKEND_ENV
from explore.encoders.precision import PRECISION_ENV


@pytest.fixture(autouse=True)
def restored_settings(monkeypatch):
    monkeypatch.setenv(BACKEND_ENV, "auto")  # recorded, so whatever the CLI sets is taken back after the test
    monkeypatch.setenv(PRECISION_ENV, "auto")


def test_help_lists_every_backend_and_precision(capsys):
    with pytest.raises(SystemExit):
        main(["spaces", "build", "--help"])
    out = capsys.readouterr().out
    assert "{auto,torch,openvino,onnx}" in out and "{auto,fp32,bf16,fp16,int8}" in out
    assert "--index {auto,hnsw,quantized,ivfpq}" in out


def test_a_backend_without_its_packages_is_an_error_naming_the_install(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a))
    assert main(["spaces", "build", "--backend", "onnx", "--corpus", "none-such"]) == 2
    assert "pip install" in capsys.readouterr().err


def test_int8_on_torch_is_refused(capsys):
    assert main(["spaces", "build", "--backend", "torch", "--precision", "int8", "--corpus", "none-such"]) == 2
    assert "int8 runs on the onnx backend" in capsys.readouterr().err


def test_the_flags_reach_every_encoder_this_process_loads(monkeypatch):
    import os

    from explore.encoders import EncoderBackend, Precision
    from explore.spaces.cli import _use_encoder_settings

    _use_encoder_settings("torch", "fp32")
    assert (os.environ[BACKEND_ENV], os.environ[PRECISION_ENV]) == ("torch", "fp32")
    assert (EncoderBackend.parse(None), Precision.parse(None)) == (EncoderBackend.TORCH, Precision.FP32)
