"""Whether bf16 is worth computing in on this CPU, measured rather than read from a flag.

AVX512-BF16 in the CPU flags says the instructions exist, not that they are fast: on one of the project's
2-core machines that has the flag (and avx512_fp16, no AMX) a bf16 matmul of MiniLM's feed-forward size runs
at 0.6x fp32, and encoding in bf16 at 0.68x; on another it makes encoding 2.5x faster. So `auto` precision
computes in bf16 only where a probe of that matmul (about 0.1 s, once per process) finds it clearly faster.
"""
from __future__ import annotations

import time
from functools import lru_cache

PROBE_SHAPE = (2048, 384, 1536)  # (tokens, width, feed-forward width): a batch through one MiniLM FFN layer
PROBE_ROUNDS = 5
MIN_SPEEDUP = 1.15  # below this, the rounding is not worth it (and noise on a shared machine could flip it)


def cpu_supports_bf16() -> bool:
    """Native bf16 instructions (AVX512-BF16 or AMX); without them autocast emulates bf16 and is slower."""
    import torch

    checks = [getattr(torch.cpu, name, None) for name in ("_is_avx512_bf16_supported", "_is_amx_tile_supported")]
    return any(check() for check in checks if check is not None)


@lru_cache(maxsize=1)
def bf16_speedup() -> float:
    """fp32 seconds / bf16 seconds of the probe matmul (best of PROBE_ROUNDS each, interleaved); 0.0 on a CPU
    without native bf16 (not measured: emulation is always slower)."""
    if not cpu_supports_bf16():
        return 0.0
    import torch

    rows, width, hidden = PROBE_SHAPE
    generator = torch.Generator().manual_seed(0)
    x, w = torch.randn(rows, width, generator=generator), torch.randn(hidden, width, generator=generator)
    operands = {"fp32": (x, w), "bf16": (x.bfloat16(), w.bfloat16())}
    best = dict.fromkeys(operands, float("inf"))
    with torch.inference_mode():
        for _ in range(PROBE_ROUNDS):
            for name, (a, b) in operands.items():
                start = time.perf_counter()
                torch.nn.functional.linear(a, b)
                best[name] = min(best[name], time.perf_counter() - start)
    return best["fp32"] / best["bf16"]


def bf16_pays_off() -> bool:
    """Native bf16 that the probe measured at least MIN_SPEEDUP times faster than fp32."""
    return bf16_speedup() >= MIN_SPEEDUP


def bf16_summary() -> str:
    """One line for logs and benchmark notes: the flag and the measurement, side by side."""
    if not cpu_supports_bf16():
        return "native bf16 on this CPU: no (auto computes in fp32)"
    speedup = bf16_speedup()
    return (f"native bf16 on this CPU: yes, bf16 matmul {speedup:.2f}x fp32 "
            f"({'auto computes in bf16' if speedup >= MIN_SPEEDUP else 'auto keeps fp32: bf16 is not faster here'})")
