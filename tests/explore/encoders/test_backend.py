import importlib.util

import pytest

from explore.encoders.backend import BACKEND_ENV, EncoderBackend, choices, installed_backends
from explore.encoders.precision import PRECISION_ENV, Precision
from explore.errors import AspectNavError


@pytest.mark.parametrize("kind", [EncoderBackend, Precision])
def test_every_choice_parses_from_its_own_string(kind):
    for member in kind:
        assert kind.parse(str(member)) is member and kind.parse(member) is member
    assert kind.parse(" AUTO ") is kind.AUTO


def test_unknown_names_are_refused_with_the_choices(monkeypatch):
    with pytest.raises(AspectNavError, match="auto, torch, openvino, onnx"):
        EncoderBackend.parse("tensorrt")
    with pytest.raises(AspectNavError, match="precision 'int4'"):
        Precision.parse("int4")


def test_the_default_comes_from_the_environment_else_auto(monkeypatch):
    monkeypatch.delenv(BACKEND_ENV, raising=False)
    monkeypatch.delenv(PRECISION_ENV, raising=False)
    assert EncoderBackend.parse(None) is EncoderBackend.AUTO and Precision.parse(None) is Precision.AUTO
    monkeypatch.setenv(BACKEND_ENV, "torch")
    monkeypatch.setenv(PRECISION_ENV, "fp32")
    assert EncoderBackend.parse(None) is EncoderBackend.TORCH and Precision.parse("") is Precision.FP32
    assert EncoderBackend.parse("onnx") is EncoderBackend.ONNX  # an explicit name beats the environment


def test_a_backend_whose_packages_are_missing_says_what_to_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a))
    assert not EncoderBackend.ONNX.available() and EncoderBackend.ONNX not in installed_backends()
    with pytest.raises(AspectNavError, match=r"pip install"):
        EncoderBackend.ONNX.require()
    assert EncoderBackend.TORCH.require() is EncoderBackend.TORCH
    assert installed_backends()[0] is EncoderBackend.TORCH and "auto" in choices()
