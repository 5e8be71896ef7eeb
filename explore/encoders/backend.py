"""Which runtime runs an encoder's transformer: `EncoderBackend`, parsed here and nowhere else.

torch is always there; openvino and onnx are optional packages (see `install_hint`). `auto` measures
the ones present once per machine and keeps the fastest whose vectors match fp32 (backend_choice.py).
The default comes from $ASPECTNAV_ENCODER_BACKEND (the CLI's --backend sets it), else `auto`.
"""
from __future__ import annotations

import importlib.util
import os
from enum import Enum

from explore.errors import AspectNavError

BACKEND_ENV = "ASPECTNAV_ENCODER_BACKEND"


class EncoderBackend(Enum):
    AUTO = "auto"
    TORCH = "torch"
    OPENVINO = "openvino"
    ONNX = "onnx"

    @classmethod
    def parse(cls, value: "str | EncoderBackend | None") -> "EncoderBackend":
        """`None` or "" -> the environment's default (else auto); a name -> its member."""
        if isinstance(value, EncoderBackend):
            return value
        text = (value or os.environ.get(BACKEND_ENV, "")).strip().lower() or "auto"
        try:
            return cls(text)
        except ValueError:
            raise AspectNavError(f"Unknown encoder backend {text!r}; use one of {', '.join(choices())}.") from None

    def __str__(self) -> str:
        return self.value

    @property
    def modules(self) -> tuple[str, ...]:
        """The importable modules this backend needs beyond torch."""
        return {EncoderBackend.OPENVINO: ("openvino",), EncoderBackend.ONNX: ("onnxruntime", "onnx")}.get(self, ())

    @property
    def install_hint(self) -> str:
        return {EncoderBackend.OPENVINO: "pip install openvino",
                EncoderBackend.ONNX: "pip install -e '.[onnx]'  (onnxruntime and onnx)"}.get(self, "")

    def available(self) -> bool:
        return all(importlib.util.find_spec(module) is not None for module in self.modules)

    def require(self) -> "EncoderBackend":
        """Self, or an error saying what to install."""
        if not self.available():
            raise AspectNavError(f"The {self} encoder backend needs {', '.join(self.modules)}: {self.install_hint}")
        return self


def choices() -> list[str]:
    return [str(backend) for backend in EncoderBackend]


def installed_backends() -> list[EncoderBackend]:
    """The concrete backends whose packages are importable here (torch first)."""
    return [b for b in EncoderBackend if b is not EncoderBackend.AUTO and b.available()]
