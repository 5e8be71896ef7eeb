"""GPU figures, in one run on one device: encoding and full-mode training, ours against the plain library.

- Encode every vital text at batch 256: ours (the engine's torch runner: length-sorted batches, autocast)
  against plain `SentenceTransformer.encode` at the same precision (bf16 weights; fp32 both), with the
  worst cosine and nn@10 overlap against plain fp32 beside each speed.
- Full-mode training: examples/s of `train_full` (our triplets, checkpoints, bf16) against a plain
  `SentenceTransformerTrainer` with the same loss (MNRL, scale 20 = aspectcse), model, triplets, batch and
  sequence length, bf16 both; peak GPU memory of each side.
Both sides load their model inside the timed part of training (as benchmarks/training_throughput.py);
encoding is timed after a warm-up, best of a few rounds. Without a GPU it returns no rows and says why.
Run alone: python -m benchmarks gpu --out benchmarks/results-gpu.json
"""
from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from benchmarks.common import Row

GROUP = "gpu"
ENCODE_BATCH = 256


def _device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def _device_name() -> str:
    import torch

    return torch.cuda.get_device_name(0) if torch.cuda.is_available() else "CPU"


def _sync() -> None:
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _vital():
    """The shipped vital build as stored: a GPU machine needs neither its data package nor the labellers'."""
    from explore.corpus.shipped import SHIPPED_CORPORA_DIR
    from explore.corpus.store import load_corpus

    return load_corpus(SHIPPED_CORPORA_DIR / "vital")


def _vital_texts() -> list[str]:
    from explore.spaces import article_text

    return [article_text(article) for article in _vital().articles]


def _best_of(encode, texts: list[str], rounds: int) -> tuple[float, np.ndarray]:
    """Seconds of the fastest round (synchronised) and its vectors, after one warm-up batch."""
    encode(texts[:ENCODE_BATCH])
    best, vectors = float("inf"), None
    for _ in range(rounds):
        _sync()
        start = time.perf_counter()
        vectors = encode(texts)
        _sync()
        best = min(best, time.perf_counter() - start)
    return best, vectors


def encode_rows(texts: list[str], rounds: int) -> list[Row]:
    import torch
    from sentence_transformers import SentenceTransformer

    from explore.encoders import Precision, load_encoder
    from explore.encoders.agreement import min_cosine, neighbour_overlap
    from explore.encoders.backend import EncoderBackend
    from explore.encoders.batching import encode_in_batches

    ours = load_encoder("minilm", precision="auto", backend="torch")
    directory = str(ours.model_dir)
    plain = {"fp32": SentenceTransformer(directory, device=_device()),
             "bf16": SentenceTransformer(directory, device=_device(), model_kwargs={"dtype": torch.bfloat16})}

    def plain_encode(precision):
        return lambda part: plain[precision].encode(part, batch_size=ENCODE_BATCH, normalize_embeddings=True,
                                                    convert_to_numpy=True, show_progress_bar=False)

    def our_encode(precision):
        runner = ours.runner(EncoderBackend.TORCH, Precision(precision))
        return lambda part: encode_in_batches(runner, part, ENCODE_BATCH, progress=False)

    timed = {}
    for precision in ("fp32", "bf16"):
        timed[("plain", precision)] = _best_of(plain_encode(precision), texts, rounds)
        timed[("ours", precision)] = _best_of(our_encode(precision), texts, rounds)
    reference = timed[("plain", "fp32")][1].astype(np.float32)
    rows = []
    for precision in ("fp32", "bf16"):
        (ours_s, ours_v), (peer_s, peer_v) = timed[("ours", precision)], timed[("plain", precision)]
        agreement = {who: (min_cosine(v, reference), neighbour_overlap(v, reference, 10))
                     for who, v in (("ours", ours_v), ("plain", np.asarray(peer_v, np.float32)))}
        rows.append(Row(
            GROUP, f"encode all {len(texts):,} vital texts, {precision}, batch {ENCODE_BATCH}, {_device_name()} "
                   f"(texts/s, best of {rounds})",
            len(texts) / ours_s, len(texts) / peer_s, "texts/s", f"SentenceTransformer.encode {precision}",
            lower_is_better=False,
            notes=(f"against plain fp32: ours min cosine {agreement['ours'][0]:.5f}, nn@10 overlap "
                   f"{agreement['ours'][1]:.3f}; plain {precision} {agreement['plain'][0]:.5f} / "
                   f"{agreement['plain'][1]:.3f}; ours = autocast {precision} over fp32 weights, plain bf16 = bf16 "
                   f"weights"),
            extra={"min_cosine": agreement["ours"][0], "nn10_overlap": agreement["ours"][1],
                   "peer_min_cosine": agreement["plain"][0], "peer_nn10_overlap": agreement["plain"][1]}))
    return rows


def _plain_trainer_seconds(dataset, config, output: Path) -> float:
    from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    from training.embeddings import load_sentence_transformer
    from training.full_trainer import precision_flags

    start = time.perf_counter()
    model = load_sentence_transformer()
    model.max_seq_length = config.max_seq_length
    args = SentenceTransformerTrainingArguments(output_dir=str(output), num_train_epochs=1,
                                                per_device_train_batch_size=config.batch_size,
                                                learning_rate=config.learning_rate, report_to="none",
                                                save_strategy="no", disable_tqdm=True, seed=config.seed,
                                                **precision_flags())  # bf16 on a GPU, as ours
    SentenceTransformerTrainer(model=model, args=args, train_dataset=dataset,
                               loss=MultipleNegativesRankingLoss(model, scale=20.0)).train()
    return time.perf_counter() - start


def training_rows(n: int, batch_size: int, rounds: int) -> list[Row]:
    import torch

    from training.config import TrainingConfig
    from training.full_trainer import train_full, triplet_dataset
    from training.pipeline import prepare

    corpus = _vital()
    config = TrainingConfig(corpus="vital", aspects=("occupation",), objective="aspectcse", mode="full", epochs=1,
                            batch_size=batch_size, max_seq_length=256, drop_labels_below=2, save_steps=100_000)
    _, rule, _, triplets = prepare(config, corpus)
    triplets = replace(triplets, rows=triplets.rows[:n])
    n = len(triplets.rows)
    dataset = triplet_dataset(corpus, triplets, config.objective)
    rates, peaks = {"ours": [], "plain": []}, {"ours": 0, "plain": 0}
    on_gpu = torch.cuda.is_available()
    for _ in range(rounds):
        for side in ("plain", "ours"):
            if on_gpu:
                torch.cuda.empty_cache()
                torch.cuda.reset_peak_memory_stats()
            with tempfile.TemporaryDirectory() as tmp:
                if side == "plain":
                    seconds = _plain_trainer_seconds(dataset, config, Path(tmp))
                else:
                    start = time.perf_counter()
                    train_full(config, corpus, rule, triplets, Path(tmp) / "checkpoints", Path(tmp) / "model",
                               progress=False)
                    seconds = time.perf_counter() - start
            rates[side].append(n / seconds)
            peaks[side] = max(peaks[side], torch.cuda.max_memory_allocated() if on_gpu else 0)
    ours, peer = max(rates["ours"]), max(rates["plain"])
    gib = {side: peak / 2**30 for side, peak in peaks.items()}
    return [
        Row(GROUP, f"full-mode training, MiniLM, {n:,} vital triplets, batch {batch_size}, 256 tokens, bf16, "
                   f"{_device_name()} (examples/s, best of {rounds})",
            ours, peer, "examples/s", "plain SentenceTransformerTrainer", lower_is_better=False,
            spread=f"ours {min(rates['ours']):.0f}..{ours:.0f}; peer {min(rates['plain']):.0f}..{peer:.0f}",
            notes="both include loading MiniLM; ours also saves the model; same loss (MNRL scale 20), triplets, seed"),
        Row(GROUP, f"full-mode training, peak GPU memory (GiB), same run, batch {batch_size}",
            gib["ours"], gib["plain"], "GiB", "plain SentenceTransformerTrainer",
            notes="torch.cuda.max_memory_allocated over each side's runs"),
    ]


def run(quick: bool = False) -> list[Row]:
    import torch

    if not torch.cuda.is_available():
        print("gpu: no CUDA device here; this benchmark runs on a GPU machine only", file=sys.stderr)
        return []
    texts = _vital_texts()
    if quick:
        return encode_rows(texts[:512], 1) + training_rows(64, 16, 1)
    return encode_rows(texts, 3) + training_rows(4096, 64, 2)  # n: at most; occupation has ~2k triplets
