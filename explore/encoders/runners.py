"""Runners: one batch of texts -> sentence embeddings, on one backend at one precision.

Each runs sentence-transformers' own tokenisation (`model.preprocess`) and its modules after the
transformer (pooling, normalisation); only the transformer itself runs on the chosen backend.
`precision` names what actually computed (e.g. OpenVINO's `auto` is bf16 on a CPU with native bf16).
"""
from __future__ import annotations

from explore.encoders.autocast import choose_autocast_dtype
from explore.encoders.backend import EncoderBackend
from explore.encoders.exported import input_names, onnx_model, openvino_model
from explore.encoders.precision import Precision
from explore.errors import AspectNavError


DTYPE_NAMES = {"None": "fp32", "torch.bfloat16": "bf16", "torch.float16": "fp16"}  # autocast dtype -> name


class Runner:
    backend: EncoderBackend
    precision: str  # the compute precision in effect: fp32, bf16, fp16 or int8

    def __call__(self, texts: list[str]):
        """(len(texts), dim) float32 torch tensor, not yet normalised."""
        raise NotImplementedError

    def __str__(self) -> str:
        return f"{self.backend} {self.precision}"


class TorchRunner(Runner):
    """sentence-transformers' forward under torch.autocast (fp32: no autocast at all)."""

    backend = EncoderBackend.TORCH

    def __init__(self, model, precision: Precision):
        if precision is Precision.INT8:
            raise AspectNavError("int8 runs on the onnx backend: --backend onnx --precision int8 (or --backend auto).")
        self.model = model
        self.autocast_dtype = choose_autocast_dtype(str(model.device), str(precision))
        self.precision = DTYPE_NAMES.get(str(self.autocast_dtype), str(self.autocast_dtype))

    def __call__(self, texts: list[str]):
        import torch
        from sentence_transformers.util import batch_to_device

        model, dtype = self.model, self.autocast_dtype
        with torch.inference_mode(), torch.autocast(model.device.type, dtype=dtype or torch.float32,
                                                    enabled=dtype is not None):
            features = batch_to_device(model.preprocess(texts), model.device)
            return model(features)["sentence_embedding"].float()


class _ExportedRunner(Runner):
    """Tokenise, run the exported transformer, then the model's own later modules (pooling...)."""

    def __init__(self, model):
        self.model = model
        self.names = input_names(model)

    def token_embeddings(self, arrays: list):
        raise NotImplementedError

    def __call__(self, texts: list[str]):
        import torch

        features = self.model.preprocess(texts)
        hidden = self.token_embeddings([features[name].numpy() for name in self.names])
        features["token_embeddings"] = torch.from_numpy(hidden).float()
        with torch.inference_mode():
            for module in list(self.model)[1:]:
                features = module(features)
        return features["sentence_embedding"].float()


OPENVINO_HINTS = {Precision.FP32: "f32", Precision.BF16: "bf16", Precision.FP16: "f16"}


class OpenVINORunner(_ExportedRunner):
    """OpenVINO on the CPU. auto: the plugin's own inference precision (bf16 where the CPU has it natively)
    where bf16 is measured faster (bf16_speed.py), else fp32."""

    backend = EncoderBackend.OPENVINO

    def __init__(self, model, fingerprint: str, precision: Precision):
        import openvino

        if precision is Precision.INT8:
            raise AspectNavError("int8 runs on the onnx backend: --backend onnx --precision int8 (or --backend auto).")
        super().__init__(model)
        from explore.encoders.bf16_speed import bf16_pays_off

        config = {"PERFORMANCE_HINT": "LATENCY"}
        if precision is Precision.AUTO and not bf16_pays_off():
            precision = Precision.FP32  # the plugin would pick bf16 from the flag, slower on such a CPU
        if precision in OPENVINO_HINTS:
            config["INFERENCE_PRECISION_HINT"] = OPENVINO_HINTS[precision]
        self.compiled = openvino.Core().compile_model(openvino_model(model, fingerprint), "CPU", config)
        self.request = self.compiled.create_infer_request()
        used = self.compiled.get_property("INFERENCE_PRECISION_HINT").to_string()
        self.precision = {"f32": "fp32", "bf16": "bf16", "f16": "fp16"}.get(used, used)

    def token_embeddings(self, arrays: list):
        return self.request.infer(arrays)[self.compiled.output(0)].copy()


class ONNXRunner(_ExportedRunner):
    """onnxruntime on the CPU, fp32 or int8 (dynamic quantisation of the fp32 export)."""

    backend = EncoderBackend.ONNX

    def __init__(self, model, fingerprint: str, precision: Precision):
        import onnxruntime

        if precision in (Precision.BF16, Precision.FP16):
            raise AspectNavError(f"The onnx backend runs fp32 or int8, not {precision}; "
                                 f"use --backend openvino or torch for {precision}.")
        super().__init__(model)
        int8 = precision is Precision.INT8
        self.session = onnxruntime.InferenceSession(str(onnx_model(model, fingerprint, int8=int8)),
                                                    providers=["CPUExecutionProvider"])
        self.precision = "int8" if int8 else "fp32"

    def token_embeddings(self, arrays: list):
        return self.session.run(None, dict(zip(self.names, arrays)))[0]


def make_runner(model, fingerprint: str, backend: EncoderBackend, precision: Precision) -> Runner:
    if backend is EncoderBackend.TORCH:
        return TorchRunner(model, precision)
    backend.require()
    if backend is EncoderBackend.OPENVINO:
        return OpenVINORunner(model, fingerprint, precision)
    if backend is EncoderBackend.ONNX:
        return ONNXRunner(model, fingerprint, precision)
    raise ValueError(f"{backend} is not a concrete backend")
