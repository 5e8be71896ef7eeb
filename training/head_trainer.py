"""Head mode: train a projection on frozen generic embeddings with the run's objective.

Each epoch draws fresh triplets (seed + epoch), so a resumed run replays exactly what an
uninterrupted one would have done; a checkpoint is written after every epoch.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Callable

import numpy as np
import torch
from tqdm.auto import tqdm

from training.checkpoints import resume_state, save_checkpoint
from training.config import TrainingConfig
from training.head import TrainableHead
from training.objectives import build_loss, columns_for
from training.relevance import RelevanceRule
from training.triplets import TripletSampler

logger = logging.getLogger(__name__)


class HeadTrainer:
    """Fits a `TrainableHead` to `generic` (corpus rows × dim); `fit` returns self, `head_` is the result."""

    def __init__(self, config: TrainingConfig, rule: RelevanceRule, sampler: TripletSampler, generic: np.ndarray,
                 checkpoints: Path, progress: bool = True, on_epoch: Callable[[int, int], None] | None = None):
        self.config = config
        self.rule = rule
        self.sampler = sampler
        self.generic = torch.from_numpy(np.asarray(generic, dtype=np.float32))
        self.checkpoints = checkpoints
        self.progress = progress
        self.on_epoch = on_epoch  # (epochs done, epochs): for a progress bar that is not tqdm's (the app's)

    def fit(self) -> "HeadTrainer":
        # A head's matmuls are tiny: one thread beats two fighting over a shared CPU (measured 35x on 2 cores).
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return self._fit()
        finally:
            torch.set_num_threads(threads)

    def _fit(self) -> "HeadTrainer":
        config = self.config
        torch.manual_seed(config.seed)
        head = TrainableHead(self.generic.shape[1], config.head)
        loss_fn = build_loss(config, head, self.rule)
        optimizer = torch.optim.AdamW(head.parameters(), lr=config.learning_rate, weight_decay=0.0)
        start, history = 0, []
        resumed = resume_state(self.checkpoints)
        if resumed is not None:
            checkpoint, state = resumed
            head.load_state_dict(state["head"])
            optimizer.load_state_dict(state["optimizer"])
            start, history = state["epoch"], state["history"]
            logger.info("Resuming %s from %s (epoch %d of %d)", config.run_name, checkpoint.name, start, config.epochs)
        n_columns = len(columns_for(config.objective))
        for epoch in range(start, config.epochs):
            began = time.perf_counter()
            triplets = self.sampler.sample(seed=config.seed * 1000 + epoch, per_anchor=config.triplets_per_anchor)
            order = np.random.default_rng(config.seed * 1000 + epoch).permutation(len(triplets))
            batches = [order[i:i + config.batch_size] for i in range(0, len(order), config.batch_size)]
            batches = [b for b in batches if len(b) >= 2]  # a lone anchor has no in-batch negative
            head.train()
            total = 0.0
            bar = tqdm(batches, desc=f"{config.run_name} epoch {epoch + 1}/{config.epochs}", disable=not self.progress,
                       leave=False)
            for batch in bar:
                rows = torch.from_numpy(triplets.rows[batch])
                embeddings = [head(self.generic[rows[:, c]]) for c in range(n_columns)]
                loss = loss_fn.compute_loss_from_embeddings(embeddings, rows)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total += loss.item()
                bar.set_postfix(loss=f"{loss.item():.4f}")
            history.append({"epoch": epoch + 1, "loss": total / max(len(batches), 1), "triplets": len(triplets),
                            "seconds": round(time.perf_counter() - began, 2)})
            save_checkpoint({"epoch": epoch + 1, "head": head.state_dict(), "optimizer": optimizer.state_dict(),
                             "history": history}, self.checkpoints, epoch + 1)
            logger.info("epoch %d: loss %.4f", epoch + 1, history[-1]["loss"])
            if self.on_epoch is not None:
                self.on_epoch(epoch + 1, config.epochs)
        self.head_ = head.eval()
        self.history_ = history
        return self
