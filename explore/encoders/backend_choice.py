"""`--backend auto`: measure the backends present once per machine, keep the fastest that matches fp32.

On a check set (up to CHECK_TEXTS of the texts being encoded) each candidate (backend, precision) is
timed and compared with torch fp32, the reference: a candidate counts only with nn@10 overlap >=
MIN_OVERLAP and min cosine >= MIN_COSINE (see agreement.py). The decision is cached in
`<home>/encoders/backend_choice.json`, keyed by the model's architecture (not its weights: a fine-tune
reuses it), the CPU, the threads, package versions and precision, so it is measured again only when
one of those changes. int8 is never a candidate: asked for with
`--precision int8`, it is measured the same way and its overlap printed, whatever it is.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from explore.atomic_files import file_written_atomically
from explore.cpu_info import cpu_flags
from explore.encoders.agreement import min_cosine, neighbour_overlap
from explore.encoders.backend import EncoderBackend, installed_backends
from explore.encoders.batching import encode_in_batches
from explore.encoders.bf16_speed import bf16_pays_off
from explore.settings import data_home
from explore.encoders.precision import Precision

log = logging.getLogger(__name__)
AUTO_MIN_TEXTS = 1000  # smaller encodes (queries, tests) run on torch with no measuring
CHECK_TEXTS = 200
MIN_OVERLAP = 0.99
MIN_COSINE = 0.999
GIVE_UP_AFTER = 3.0  # a candidate this many times slower than the fastest so far is stopped early
CACHE_FILE = "backend_choice.json"
ARCHITECTURE_SKIP = {"tokenizer.json", "vocab.json"}  # large, and the same for every fine-tune of a model
VERSIONED_PACKAGES = ("torch", "sentence-transformers", "transformers", "openvino", "onnxruntime")


@dataclass
class Measurement:
    backend: str
    asked: str  # the precision asked of the backend (auto, fp32, ...)
    precision: str  # the precision it computed in
    texts_per_s: float | None
    min_cosine: float | None
    overlap: float | None  # nn@10 overlap with torch fp32 on the check set
    kept: bool
    why: str = ""

    def __str__(self) -> str:
        if self.texts_per_s is None:
            return f"{self.backend} {self.precision}: {self.why}"
        quality = f"nn@10 overlap {self.overlap:.3f}, min cosine {self.min_cosine:.5f}"
        return f"{self.backend} {self.precision}: {self.texts_per_s:.1f} texts/s, {quality}" + (
            f" ({self.why})" if self.why else "")


@dataclass
class BackendChoice:
    backend: str
    precision: str  # asked of the backend, e.g. "auto" for OpenVINO's own default
    measurements: list[Measurement] = field(default_factory=list)
    check_texts: int = 0
    measured: str = ""

    @property
    def chosen(self) -> Measurement:
        return next(m for m in self.measurements if m.backend == self.backend and m.asked == self.precision)

    def summary(self) -> str:
        others = "; ".join(str(m) for m in self.measurements if m is not self.chosen)
        return f"encoder backend: {self.chosen} on {self.check_texts} check texts" + (
            f" (also measured: {others})" if others else "")

    @classmethod
    def from_dict(cls, data: dict) -> "BackendChoice":
        return cls(data["backend"], data["precision"], [Measurement(**m) for m in data["measurements"]],
                   data.get("check_texts", 0), data.get("measured", ""))


def candidates(precision: Precision, backends: list[EncoderBackend] | None = None,
               bf16_fast: bool | None = None) -> list[tuple[EncoderBackend, Precision]]:
    """The (backend, precision) pairs worth measuring for a requested precision, torch fp32 first. Where
    bf16 is not faster (`bf16_fast` None: measured on this CPU, bf16_speed.py) auto leaves out torch bf16
    and OpenVINO's auto (fp32 there, the same as its fp32 pair)."""
    present = set(backends if backends is not None else installed_backends())
    if bf16_fast is None:
        bf16_fast = bf16_pays_off()
    auto = [(EncoderBackend.TORCH, Precision.FP32), (EncoderBackend.TORCH, Precision.BF16),
            (EncoderBackend.OPENVINO, Precision.AUTO), (EncoderBackend.OPENVINO, Precision.FP32),
            (EncoderBackend.ONNX, Precision.FP32)]
    if not bf16_fast:
        auto = [pair for pair in auto if pair not in {(EncoderBackend.TORCH, Precision.BF16),
                                                      (EncoderBackend.OPENVINO, Precision.AUTO)}]
    wanted = {
        Precision.AUTO: auto,
        Precision.FP32: [(EncoderBackend.TORCH, Precision.FP32), (EncoderBackend.OPENVINO, Precision.FP32),
                         (EncoderBackend.ONNX, Precision.FP32)],
        Precision.BF16: [(EncoderBackend.TORCH, Precision.BF16), (EncoderBackend.OPENVINO, Precision.BF16)],
        Precision.FP16: [(EncoderBackend.TORCH, Precision.FP16), (EncoderBackend.OPENVINO, Precision.FP16)],
        Precision.INT8: [(EncoderBackend.ONNX, Precision.INT8)],
    }[precision]
    return [(backend, asked) for backend, asked in wanted if backend in present]


def choose_backend(encoder, texts: list[str], precision: Precision, batch_size: int,
                   announce: bool = True) -> BackendChoice:
    """The cached decision for this machine, or a new measurement on a check set of `texts`;
    `announce` prints its summary line (backend, texts/s, overlap) to stderr either way."""
    key = cache_key(architecture_of(encoder), precision)
    cache_path = data_home() / "encoders" / CACHE_FILE
    cached = _read_cache(cache_path)
    if key in cached:
        choice = BackendChoice.from_dict(cached[key])
        if announce:
            print(f"{choice.summary()} [measured {choice.measured}]", file=sys.stderr, flush=True)
        return choice
    pairs = candidates(precision)
    if not pairs:
        from explore.errors import AspectNavError

        raise AspectNavError(f"No installed backend runs {precision}: {EncoderBackend.ONNX.install_hint}")
    choice = measure(encoder, check_set(texts), pairs, batch_size, filter_quality=precision is not Precision.INT8,
                     announce=announce)
    cached[key] = asdict(choice)
    try:
        with file_written_atomically(cache_path) as staging:
            staging.write_text(json.dumps(cached, indent=2))
    except OSError as exc:  # a read-only home: measured again next time, nothing worse
        log.warning("Could not cache the encoder backend choice: %s", exc)
    log.info(choice.summary())
    if announce:
        print(choice.summary(), file=sys.stderr, flush=True)
    return choice


def measure(encoder, texts: list[str], pairs: list[tuple[EncoderBackend, Precision]], batch_size: int,
            filter_quality: bool = True, announce: bool = False) -> BackendChoice:
    """Time each pair on `texts` against torch fp32; the fastest kept pair wins (fp32 is always kept).
    `announce` says on stderr which pair is being measured: exports and compiles take seconds each."""
    def say(step: str) -> None:
        if announce:
            print(f"choosing the encoder backend (once per machine): {step}", file=sys.stderr, flush=True)

    say(f"torch fp32, the reference, on {len(texts)} check texts")
    reference_runner = encoder.runner(EncoderBackend.TORCH, Precision.FP32)
    reference, reference_s = _timed_encode(reference_runner, texts, batch_size, None)
    measurements, best_s = [], None
    for number, (backend, asked) in enumerate(pairs, start=1):
        say(f"{backend} {asked} ({number} of {len(pairs)})")
        if (backend, asked) == (EncoderBackend.TORCH, Precision.FP32):
            runner, vectors, seconds = reference_runner, reference, reference_s
        else:
            try:
                runner = encoder.runner(backend, asked)
                vectors, seconds = _timed_encode(runner, texts, batch_size,
                                                 GIVE_UP_AFTER * best_s if best_s else None)
            except Exception as exc:  # an export or a compile that fails here only rules the backend out
                log.warning("Encoder backend %s %s failed: %s", backend, asked, exc)
                measurements.append(Measurement(str(backend), str(asked), str(asked), None, None, None, False,
                                                f"failed: {exc.__class__.__name__}: {exc}"[:300]))
                continue
        if vectors is None:
            measurements.append(Measurement(str(backend), str(asked), runner.precision, None, None, None, False,
                                            f"stopped: over {GIVE_UP_AFTER:g}x slower than the fastest"))
            continue
        cosine, overlap = min_cosine(vectors, reference), neighbour_overlap(vectors, reference, 10)
        good = not filter_quality or (overlap >= MIN_OVERLAP and cosine >= MIN_COSINE)
        measurements.append(Measurement(str(backend), str(asked), runner.precision, round(len(texts) / seconds, 2),
                                        round(cosine, 6), round(overlap, 4), good,
                                        "" if good else f"below nn@10 overlap {MIN_OVERLAP} or cosine {MIN_COSINE}"))
        if good:
            best_s = min(best_s or seconds, seconds)
    kept = [m for m in measurements if m.kept] or [m for m in measurements if m.texts_per_s]
    best = max(kept, key=lambda m: m.texts_per_s)
    return BackendChoice(best.backend, best.asked, measurements, len(texts),
                         datetime.now(timezone.utc).isoformat(timespec="seconds"))


def check_set(texts: list[str], size: int = CHECK_TEXTS) -> list[str]:
    """An even spread of the texts (every length, not only the first articles)."""
    if len(texts) <= size:
        return list(texts)
    return [texts[i] for i in np.linspace(0, len(texts) - 1, size).astype(int)]


def architecture_of(encoder) -> str:
    """A digest of the model's configuration files, not its weights: speed and agreement depend on the
    architecture, so a freshly fine-tuned copy (each training run makes one) reuses the decision."""
    directory = getattr(encoder, "model_dir", None)
    files = sorted(Path(directory).rglob("*.json")) if directory else []
    digest = hashlib.sha256()
    for path in files:
        if path.name not in ARCHITECTURE_SKIP:
            digest.update(path.relative_to(directory).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()[:16] if files else encoder.fingerprint


def cache_key(architecture: str, precision: Precision) -> str:
    """What the decision depends on: the model's architecture, the CPU, the threads, the package versions,
    the precision, and whether bf16 is measured faster here (which candidates are tried)."""
    import torch

    versions = {}
    for package in VERSIONED_PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    identity = {"model": architecture, "precision": str(precision), "machine": platform.machine(),
                "cpu": _cpu_flags(), "capability": torch.backends.cpu.get_cpu_capability(),
                "threads": torch.get_num_threads(), "cores": os.cpu_count(), "versions": versions,
                "bf16_fast": bf16_pays_off()}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def _cpu_flags() -> str:
    flags = cpu_flags()
    return hashlib.sha256(" ".join(sorted(flags)).encode()).hexdigest()[:16] if flags else platform.processor()


def _read_cache(path) -> dict:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _timed_encode(runner, texts: list[str], batch_size: int, give_up_s: float | None):
    """(vectors, seconds) of one warm pass, or (None, seconds) once past `give_up_s`."""
    runner(texts[:2])  # warm-up: first-call compilation is not throughput
    start = time.perf_counter()
    vectors = encode_in_batches(runner, texts, batch_size, progress=False,
                                deadline=start + give_up_s if give_up_s else None)
    return vectors, time.perf_counter() - start
