"""Which torch autocast dtype a precision means on a device: what the torch runner computes in."""
from __future__ import annotations

from explore.encoders.bf16_speed import bf16_pays_off


def choose_autocast_dtype(device: str, precision: str = "auto"):
    """auto: CUDA -> bf16 (fp16 on GPUs without bf16); CPU -> bf16 only where it is measured faster
    (bf16_speed.py), else fp32. Without native bf16 (e.g. AVX2 only) autocast measured ~3.5x *slower* than
    fp32, and with AVX512-BF16 but no AMX, on one machine, 0.68x."""
    import torch

    if precision == "fp32":
        return None
    if precision == "bf16":
        return torch.bfloat16
    if precision == "fp16":
        return torch.float16
    if device.startswith("cuda"):
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return torch.bfloat16 if bf16_pays_off() else None
