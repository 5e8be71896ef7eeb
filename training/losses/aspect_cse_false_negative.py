"""AspectCSE with false-negative masking: in-batch items sharing the anchor's label leave the denominator."""
from __future__ import annotations

import torch
from torch import Tensor
from torch.nn import functional as F

from training.losses.row_labelled import RowLabelledLoss


class AspectCSEFalseNegativeLoss(RowLabelledLoss):
    """Supervised SimCSE (InfoNCE with a hard negative) that does not push apart articles sharing a label.

    For anchor i the candidates are every positive and every negative in the batch; the loss is
    cross-entropy of cos(anchor_i, positive_i) / temperature against them. Plain AspectCSE
    (`MultipleNegativesRankingLoss` on triplets) treats another anchor's positive as a negative even
    when it shares anchor i's label; with few labels (topics, countries) that happens in most
    batches and pulls same-label articles apart. Here such candidates (relevant to anchor i under
    `rule`) are masked out of the denominator; anchor i's own positive always stays.

    Args:
        model: the module producing embeddings (a SentenceTransformer, or a head in head mode).
        rule: decides which corpus rows are relevant to which (aspect(s) and single/union/intersection).
        temperature: softmax temperature; 0.05 as in SimCSE/AspectCSE (scale 20).

    Inputs:
        (anchor, positive, negative) texts, and `label` = the three corpus rows (anchor_row,
        positive_row, negative_row) of each triplet, shape (batch, 3).

    Relations:
        Equals sentence-transformers' `MultipleNegativesRankingLoss(model, scale=1/temperature)` when no
        in-batch candidate is relevant to another anchor (tested).

    Example:
        loss = AspectCSEFalseNegativeLoss(model, RelevanceRule(LabelIndex(corpus, ["topic"]), ("topic",)))
    """

    def false_negative_mask(self, labels: Tensor) -> Tensor:
        """mask[i, j]: candidate j (positives, then negatives) is relevant to anchor i and is not its positive."""
        rows = labels.detach().cpu().numpy()
        anchors, candidates = rows[:, 0], rows[:, 1:].T.reshape(-1)
        mask = torch.from_numpy(self.rule.matrix(anchors, candidates))
        mask[torch.arange(len(anchors)), torch.arange(len(anchors))] = False
        return mask.to(labels.device)

    def compute_loss_from_embeddings(self, embeddings: list[Tensor], labels: Tensor) -> Tensor:
        anchors, candidates = embeddings[0], torch.cat(embeddings[1:], dim=0)
        scores = F.normalize(anchors, dim=-1) @ F.normalize(candidates, dim=-1).T / self.temperature
        scores = scores.masked_fill(self.false_negative_mask(labels), float("-inf"))
        target = torch.arange(len(anchors), device=scores.device)
        return F.cross_entropy(scores, target)
