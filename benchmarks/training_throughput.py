"""Training: examples/s of our full-mode loop against a plain SentenceTransformerTrainer with the
same loss (MNRL, scale 20 = aspectcse), model, triplets, batch size and sequence length.

Ours adds what a run needs (our triplet sampling, checkpoints, resume); the gap is its cost.
Also: head mode (frozen generic vectors) in the same units. Run alone: python -m benchmarks training_throughput
"""
from __future__ import annotations

import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks.common import Row
from explore.corpus import open_corpus
from training.config import TrainingConfig
from training.full_trainer import train_full, triplet_dataset
from training.pipeline import prepare


def _plain_trainer(dataset, config: TrainingConfig, output: Path) -> float:
    from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    from training.embeddings import load_sentence_transformer

    start = time.perf_counter()  # both sides include loading the model
    model = load_sentence_transformer()
    model.max_seq_length = config.max_seq_length
    args = SentenceTransformerTrainingArguments(output_dir=str(output), num_train_epochs=1,
                                                per_device_train_batch_size=config.batch_size,
                                                learning_rate=config.learning_rate, report_to="none",
                                                save_strategy="no", disable_tqdm=True, seed=config.seed)
    trainer = SentenceTransformerTrainer(model=model, args=args, train_dataset=dataset,
                                         loss=MultipleNegativesRankingLoss(model, scale=20.0))
    trainer.train()
    return time.perf_counter() - start


def _ours(corpus, triplets, rule, config: TrainingConfig, output: Path) -> float:
    start = time.perf_counter()
    train_full(config, corpus, rule, triplets, output / "checkpoints", output / "model", progress=False)
    return time.perf_counter() - start


def run(quick: bool = False) -> list[Row]:
    corpus = open_corpus("vital")
    n = 32 if quick else 96
    config = TrainingConfig(corpus="vital", aspects=("occupation",), objective="aspectcse", mode="full", epochs=1,
                            batch_size=16, max_seq_length=128, drop_labels_below=2, save_steps=1000)
    _, rule, _, triplets = prepare(config, corpus)
    triplets = replace(triplets, rows=triplets.rows[:n])
    dataset = triplet_dataset(corpus, triplets, config.objective)
    ours_rates, peer_rates = [], []
    for _ in range(1 if quick else 2):
        with tempfile.TemporaryDirectory() as tmp:
            peer_rates.append(n / _plain_trainer(dataset, config, Path(tmp) / "plain"))
            ours_rates.append(n / _ours(corpus, triplets, rule, config, Path(tmp) / "ours"))
    ours, peer = max(ours_rates), max(peer_rates)
    return [Row("training", f"full mode, MiniLM, {n} triplets, batch 16, 128 tokens, CPU (examples/s, best of "
                f"{len(ours_rates)})", ours, peer, "examples/s", "plain SentenceTransformerTrainer", lower_is_better=False,
                spread=f"ours {min(ours_rates):.2f}..{ours:.2f}; peer {min(peer_rates):.2f}..{peer:.2f}",
                notes="both include loading MiniLM; ours also saves the model, the peer saves nothing")]
