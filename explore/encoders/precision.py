"""The compute precision an encoder is asked for: `Precision`, parsed here and nowhere else.

auto: the backend's fastest float precision that matches fp32 (bf16 on CPUs with native bf16 or on
GPUs, else fp32). int8 only on request: it changes neighbours measurably (its overlap is printed).
The default comes from $ASPECTNAV_ENCODER_PRECISION (the CLI's --precision sets it), else `auto`.
"""
from __future__ import annotations

import os
from enum import Enum

from explore.errors import AspectNavError

PRECISION_ENV = "ASPECTNAV_ENCODER_PRECISION"


class Precision(Enum):
    AUTO = "auto"
    FP32 = "fp32"
    BF16 = "bf16"
    FP16 = "fp16"
    INT8 = "int8"

    @classmethod
    def parse(cls, value: "str | Precision | None") -> "Precision":
        """`None` or "" -> the environment's default (else auto); a name -> its member."""
        if isinstance(value, Precision):
            return value
        text = (value or os.environ.get(PRECISION_ENV, "")).strip().lower() or "auto"
        try:
            return cls(text)
        except ValueError:
            raise AspectNavError(f"Unknown precision {text!r}; use one of {', '.join(choices())}.") from None

    def __str__(self) -> str:
        return self.value


def choices() -> list[str]:
    return [str(precision) for precision in Precision]
