"""Exported copies of an encoder's transformer for the other backends, kept in the data home.

`<home>/encoders/<model fingerprint>/openvino/model.xml` (OpenVINO IR, fp32 weights),
`.../onnx/model.onnx` and `.../onnx-int8/model.onnx` (dynamic int8 quantisation: no calibration data).
Each is exported once, offline, from the loaded sentence-transformers model (only its first module:
tokenisation before it and pooling after it stay sentence-transformers' own), and written atomically.
"""
from __future__ import annotations

import logging
import warnings
from pathlib import Path

from explore.atomic_files import staging_directory_for, swap_directory_into_place
from explore.settings import data_home

log = logging.getLogger(__name__)
ONNX_OPSET = 17


def export_dir(fingerprint: str, kind: str) -> Path:
    return data_home() / "encoders" / fingerprint / kind


def input_names(model) -> list[str]:
    """The tensors the model's first module takes (e.g. input_ids, token_type_ids, attention_mask)."""
    import torch

    features = model.preprocess(["an example", "a longer example text"])
    return [name for name, value in features.items() if isinstance(value, torch.Tensor)]


def openvino_model(model, fingerprint: str) -> Path:
    """The OpenVINO IR of the model's transformer, exported on first use."""
    target = export_dir(fingerprint, "openvino")
    if not (target / "model.xml").is_file():
        import openvino

        def write(staging: Path) -> None:
            converted = openvino.convert_model(_token_embeddings_module(model), example_input=_example(model))
            # fp32 weights: the precision is chosen when compiling (INFERENCE_PRECISION_HINT), not here.
            openvino.save_model(converted, staging / "model.xml", compress_to_fp16=False)

        _write_atomically(target, write, "OpenVINO")
    return target / "model.xml"


def onnx_model(model, fingerprint: str, int8: bool = False) -> Path:
    """The ONNX export of the model's transformer (or its dynamic int8 quantisation), made on first use."""
    target = export_dir(fingerprint, "onnx-int8" if int8 else "onnx")
    if not (target / "model.onnx").is_file():
        if int8:
            source = onnx_model(model, fingerprint)

            def write(staging: Path) -> None:
                from onnxruntime.quantization import QuantType, quantize_dynamic

                quantize_dynamic(source, staging / "model.onnx", weight_type=QuantType.QInt8, per_channel=True)
        else:
            def write(staging: Path) -> None:
                import torch

                names = input_names(model)
                axes = {name: {0: "batch", 1: "tokens"} for name in [*names, "token_embeddings"]}
                torch.onnx.export(_token_embeddings_module(model), _example(model), str(staging / "model.onnx"),
                                  input_names=names, output_names=["token_embeddings"], dynamic_axes=axes,
                                  opset_version=ONNX_OPSET, dynamo=False)

        _write_atomically(target, write, "int8 ONNX" if int8 else "ONNX")
    return target / "model.onnx"


def _write_atomically(target: Path, write, what: str) -> None:
    log.info("Exporting the encoder to %s -> %s (once)", what, target)
    staging = staging_directory_for(target)
    try:
        with warnings.catch_warnings():  # the tracers' warnings are about graphs we do not export (loss, cache)
            warnings.simplefilter("ignore")
            write(staging)
        swap_directory_into_place(staging, target)
    finally:
        import shutil

        shutil.rmtree(staging, ignore_errors=True)


def _example(model) -> tuple:
    features = model.preprocess(["an example", "a longer example text"])
    return tuple(features[name] for name in input_names(model))


def _token_embeddings_module(model):
    """The model's first module as a plain tensors-in, token-embeddings-out module (what exporters trace)."""
    import torch

    names = input_names(model)
    first = model[0]

    class TokenEmbeddings(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.first = first

        def forward(self, *tensors):
            return self.first(dict(zip(names, tensors)))["token_embeddings"]

    return TokenEmbeddings().eval()
