"""Encode throughput per backend and precision against plain `SentenceTransformer.encode` fp32, with
quality beside speed: each row's min cosine and nn@10 overlap against that fp32 peer's vectors.

Equal work: the same vital texts, the same batch size, the same threads, interleaved slice by slice
(see `_interleaved`: the machine is shared). One row per backend and precision installed, and one for
`auto`: what the product picks for an encode of 1,000+ texts (the same runner as its own row). Every variant
is measured whatever the CPU (torch bf16 too where it is emulated: the row shows what auto avoids there).
A last row times auto's first use on a new machine (exports and measuring included) against plain fp32 over
the same 1,000 texts, both loading their model: when the one-time cost pays for itself.
Run alone: python -m benchmarks encode --out /tmp/encode.json
"""
from __future__ import annotations

import os
import time

import numpy as np

from benchmarks.common import Row, fresh_data_home

GROUP = "encode"
BATCH_SIZE = 32


def _texts(n: int) -> list[str]:
    from explore.corpus import open_corpus
    from explore.spaces import article_text

    corpus = open_corpus("vital")
    rows = np.random.default_rng(0).choice(len(corpus), n, replace=False)
    return [article_text(corpus.articles[i]) for i in rows]


def _native_bf16() -> str:
    """Every view, so a row can never again claim what the CPU lacks: torch's check and the probe's
    measurement (bf16_speed.py), then the CPU's flags."""
    from explore.cpu_info import cpu_flags
    from explore.encoders.bf16_speed import bf16_summary

    flags = sorted({"avx512_bf16", "amx_bf16"} & cpu_flags())
    return f"{bf16_summary()}; cpu flags: {' '.join(flags) or 'neither avx512_bf16 nor amx_bf16'}"


def variants(encoder) -> list[tuple[str, object]]:
    """(label, runner) for every backend and precision installed, bf16 too where auto would skip it (the row
    shows why); auto's pick is one of them."""
    from explore.encoders import Precision
    from explore.encoders.backend_choice import candidates

    pairs = candidates(Precision.FP32) + candidates(Precision.BF16) + candidates(Precision.INT8)
    return [(f"{backend} {precision}", encoder.runner(backend, precision)) for backend, precision in pairs]


def run(quick: bool = False) -> list[Row]:
    from sentence_transformers import SentenceTransformer

    from explore.encoders import Precision, load_encoder
    from explore.encoders.agreement import min_cosine, neighbour_overlap
    from explore.encoders.backend_choice import AUTO_MIN_TEXTS, choose_backend
    from explore.encoders.batching import encode_in_batches

    n, rounds = (16, 1) if quick else (300, 3)
    texts = _texts(n)
    ours = load_encoder("minilm", precision="auto", backend="auto")
    peer = SentenceTransformer(str(ours.model_dir), device="cpu")  # its own plain fp32 model, always
    runs = dict(variants(ours))
    choice = choose_backend(ours, texts, Precision.AUTO, BATCH_SIZE, announce=False)
    auto_label = f"{choice.backend} {choice.chosen.precision}"  # the pair it picked, by what computed

    def plain(part):
        return peer.encode(part, batch_size=BATCH_SIZE, normalize_embeddings=True, show_progress_bar=False)

    encoders = {"peer": plain, **{label: (lambda part, r=runner: encode_in_batches(r, part, BATCH_SIZE, progress=False))
                                  for label, runner in runs.items()}}
    for encode in encoders.values():  # warm-up: first calls compile kernels (OpenVINO) and allocate
        encode(texts[:2])
    seconds, cpu_seconds, outputs = _interleaved(encoders, texts, rounds)
    reference = outputs["peer"]
    bf16 = _native_bf16()
    rows = []
    for label, runner in runs.items():
        cosine, overlap = min_cosine(outputs[label], reference), neighbour_overlap(outputs[label], reference, 10)
        for name in [label] + (["auto"] if label == auto_label else []):
            rows.append(Row(
                GROUP, f"encode {n} vital texts, {name if name != 'auto' else f'auto (= {runner})'}, texts/s",
                n / seconds[label], n / seconds["peer"], "texts/s", "SentenceTransformer.encode fp32",
                lower_is_better=False,
                spread=f"CPU-time ratio peer/ours {cpu_seconds['peer'] / cpu_seconds[label]:.2f}",
                notes=f"computes in {runner.precision}; vs fp32 over the {n} texts: min cosine {cosine:.6f}, "
                      f"nn@10 overlap {overlap:.3f}; {bf16}; batch {BATCH_SIZE}, {os.cpu_count()} cores, "
                      f"{rounds} interleaved rounds"
                      + ("; what auto picks for encodes of 1,000+ texts (smaller ones run torch)"
                         if name == "auto" else ""),
                extra={"min_cosine": cosine, "nn10_overlap": overlap, "precision": runner.precision,
                       "backend": str(runner.backend)}))
    rows.append(first_use_row(_texts(16 if quick else AUTO_MIN_TEXTS), bf16))
    return rows


def first_use_row(texts: list[str], bf16: str) -> Row:
    """auto on a new machine: a fresh encoder on an empty data home exports the other backends, measures them
    on its check set and encodes with the winner (what `encode` does for 1,000+ texts); the peer loads plain
    sentence-transformers and encodes the same texts in fp32. Both start by loading the model."""
    from sentence_transformers import SentenceTransformer

    from explore.encoders import Precision, TransformerEncoder
    from explore.encoders.backend import EncoderBackend
    from explore.encoders.agreement import min_cosine, neighbour_overlap
    from explore.encoders.backend_choice import choose_backend
    from explore.encoders.batching import encode_in_batches
    from explore.encoders.package_weights import package_model_dir
    from explore.encoders.spec import EncoderSpec

    spec = EncoderSpec.parse("minilm")
    model_dir = package_model_dir(spec.name)
    start = time.perf_counter()
    peer = SentenceTransformer(str(model_dir), device="cpu")
    reference = peer.encode(texts, batch_size=BATCH_SIZE, normalize_embeddings=True, show_progress_bar=False)
    peer_s = time.perf_counter() - start
    with fresh_data_home("aspectnav-encode-first-use-"):
        start = time.perf_counter()
        ours = TransformerEncoder(spec, model_dir, precision="auto", backend="auto")  # not the cached one
        choice = choose_backend(ours, texts, Precision.AUTO, BATCH_SIZE, announce=False)
        runner = ours.runner(EncoderBackend(choice.backend), Precision(choice.precision))
        vectors = encode_in_batches(runner, texts, BATCH_SIZE, progress=False)
        ours_s = time.perf_counter() - start
    cosine, overlap = min_cosine(vectors, reference), neighbour_overlap(vectors, reference, 10)
    return Row(GROUP, f"first encode of {len(texts):,} texts with auto on a new machine (exports and measuring "
                      f"included): seconds", ours_s, peer_s, "s", "plain SentenceTransformer fp32, model load included",
               notes=f"auto chose {choice.chosen.backend} {choice.chosen.precision} after measuring "
                     f"{len(choice.measurements)} candidates on {choice.check_texts} texts; vs fp32: min cosine "
                     f"{cosine:.6f}, nn@10 overlap {overlap:.3f}; {bf16}; one run each; later encodes reuse the "
                     f"choice and exports (the rows above)",
               extra={"min_cosine": cosine, "nn10_overlap": overlap, "precision": choice.chosen.precision,
                      "backend": choice.backend})


def _interleaved(encoders: dict, texts: list[str], rounds: int, slice_size: int = 2 * BATCH_SIZE):
    """Seconds per encoder (sum over slices of the best round), CPU seconds likewise, and each one's vectors.

    The texts go in slices of two batches; each slice is encoded by every encoder back to back, the order
    rotating, so each comparison is seconds apart: a shared machine's bursts of load hit all alike."""
    names = list(encoders)
    slices = [texts[i:i + slice_size] for i in range(0, len(texts), slice_size)]
    best = {name: [float("inf")] * len(slices) for name in names}
    best_cpu = {name: [float("inf")] * len(slices) for name in names}
    parts = {name: [None] * len(slices) for name in names}
    for round_ in range(rounds):
        for index, part in enumerate(slices):
            shift = (round_ + index) % len(names)
            for name in names[shift:] + names[:shift]:
                start, start_cpu = time.perf_counter(), time.process_time()
                parts[name][index] = np.asarray(encoders[name](part), dtype=np.float32)
                best[name][index] = min(best[name][index], time.perf_counter() - start)
                best_cpu[name][index] = min(best_cpu[name][index], time.process_time() - start_cpu)
    return ({name: sum(values) for name, values in best.items()},
            {name: sum(values) for name, values in best_cpu.items()},
            {name: np.concatenate(values) for name, values in parts.items()})
