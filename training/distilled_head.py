"""A projection head distilled onto a full-mode space: generic vectors in, that space's vectors out.

A full-mode space answers a seed article from the vectors its fine-tuned encoder wrote; free text (and an article the
corpus lacks) needs an encoder too, and the fine-tuned one is 43 MiB per space. The distilled head (the engine's head
format, a few MB) is fitted on the training articles' pairs (generic vector, full-mode vector) so that free text is
placed near the articles the full encoder would have placed it near; `neighbour_overlap` measures that.
"""
from __future__ import annotations

import numpy as np
import torch
from torch.nn import functional as F

from training.head import TrainableHead


class DistilledHead:
    """Fit a `TrainableHead` (starting at the identity) so that head(generic) ≈ target, row by row.

    Objective: in-batch InfoNCE between head(x_i) and the targets y_j (temperature `temperature`: each projected row
    must be nearer its own target than the batch's other targets, which is what a neighbour list needs) plus the
    cosine distance 1 − cos(head(x_i), y_i) (keeps the scale of similarities). Rows are L2-normalised vectors.

        head = DistilledHead(kind="linear", seed=42).fit(generic[train_rows], full[train_rows]).head_
    """

    def __init__(self, kind: str = "linear", epochs: int = 10, batch_size: int = 256, learning_rate: float = 1e-3,
                 temperature: float = 0.05, seed: int = 42):
        self.kind = kind
        self.epochs = epochs
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.temperature = temperature
        self.seed = seed

    def fit(self, inputs: np.ndarray, targets: np.ndarray) -> "DistilledHead":
        if len(inputs) != len(targets):
            raise ValueError(f"{len(inputs)} inputs for {len(targets)} targets")
        generator = torch.Generator().manual_seed(self.seed)
        torch.manual_seed(self.seed)
        x = F.normalize(torch.from_numpy(np.asarray(inputs, dtype=np.float32)), dim=1)
        y = F.normalize(torch.from_numpy(np.asarray(targets, dtype=np.float32)), dim=1)
        head = TrainableHead(x.shape[1], self.kind)
        optimiser = torch.optim.AdamW(head.parameters(), lr=self.learning_rate, weight_decay=0.0)
        self.history_ = []
        for _ in range(self.epochs):
            head.train()
            order = torch.randperm(len(x), generator=generator)
            total = 0.0
            for start in range(0, len(x), self.batch_size):
                rows = order[start:start + self.batch_size]
                projected, wanted = head(x[rows]), y[rows]
                logits = projected @ wanted.T / self.temperature
                loss = F.cross_entropy(logits, torch.arange(len(rows))) + (1 - (projected * wanted).sum(1)).mean()
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                total += loss.item() * len(rows)
            self.history_.append(total / len(x))
        head.eval()
        self.head_ = head
        return self

    def transform(self, inputs: np.ndarray) -> np.ndarray:
        return self.head_.transform(inputs)


def neighbour_overlap(placed: np.ndarray, reference: np.ndarray, corpus: np.ndarray, k: int = 10,
                      exclude: np.ndarray | None = None, reference_corpus: np.ndarray | None = None) -> float:
    """Mean share of the k nearest corpus rows of `placed[i]` that are among the k nearest of `reference[i]` (both
    searched in `corpus`, or the reference in `reference_corpus`; rows L2-normalised). `exclude[i]`: a corpus row
    left out of both lists (the query's own article, when the queries are articles)."""
    def top(queries: np.ndarray, searched: np.ndarray) -> np.ndarray:
        scores = np.asarray(queries, dtype=np.float32) @ np.asarray(searched, dtype=np.float32).T
        if exclude is not None:
            scores[np.arange(len(scores)), exclude] = -np.inf
        return np.argpartition(-scores, k, axis=1)[:, :k]

    mine, theirs = top(placed, corpus), top(reference, corpus if reference_corpus is None else reference_corpus)
    return float(np.mean([len(set(a) & set(b)) / k for a, b in zip(mine, theirs)]))
