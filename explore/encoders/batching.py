"""Encoding in length-sorted batches: the one loop every runner's texts go through (an encoder's `encode`, the
auto backend's measuring, the benchmarks), with its progress bar and a caller's own progress."""
from __future__ import annotations

import sys
from typing import Callable, Sequence

import numpy as np

DEFAULT_BATCH_SIZE = 32
PROGRESS_AFTER_S = 3.0  # shorter encodes draw no bar (queries, the app's small encodes)
# What an encode reports to a caller that draws its own progress (the app): (texts done, texts in all), once
# before the first batch and after each. Passed where `progress` is asked, it also keeps the terminal bar.
EncodeProgress = Callable[[int, int], None]


def length_order(texts: Sequence[str]) -> np.ndarray:
    """Rows longest first, ties in input order: the order texts are batched in. An engine that cuts the rows into
    parts along it, at multiples of the batch size, gives every batch the texts (and padding) a local encode does."""
    return np.argsort([-len(text) for text in texts], kind="stable")


def encode_in_batches(runner, texts: list[str], batch_size: int = DEFAULT_BATCH_SIZE,
                      progress: "bool | EncodeProgress" = True, label: str = "encoding",
                      deadline: float | None = None) -> "np.ndarray | None":
    """Rows of norm 1 in input order; longest texts first so each batch pads little. None once past
    `deadline` (a perf_counter time: how auto stops measuring a backend that is clearly slower)."""
    import time

    import torch
    from tqdm.auto import tqdm

    order = length_order(texts)
    report = progress if callable(progress) else None
    out = None
    if report:
        report(0, len(texts))
    with tqdm(total=len(texts), unit="text", desc=label, delay=PROGRESS_AFTER_S, disable=not progress,
              file=sys.stderr) as bar:
        for start in range(0, len(texts), batch_size):
            rows = order[start:start + batch_size]
            vectors = torch.nn.functional.normalize(runner([texts[i] for i in rows]).float(), dim=1).cpu().numpy()
            if out is None:
                out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            out[rows] = vectors
            bar.update(len(rows))
            if report:
                report(start + len(rows), len(texts))
            if deadline is not None and time.perf_counter() > deadline:
                return None
    return out
