"""Graded multi-aspect contrastive loss: sharing more of the anchor's aspects makes a stronger positive."""
from __future__ import annotations

import torch
from torch import Tensor
from torch.nn import functional as F

from training.losses.row_labelled import RowLabelledLoss


class GradedAspectContrastiveLoss(RowLabelledLoss):
    """Supervised contrastive loss over every in-batch candidate, one level per number of shared aspects.

    The grade of candidate j for anchor i is how many of the rule's aspects they share (0..A). For each
    level L = 1..A the candidates of grade ≥ L are positives and those of grade < L negatives; each positive
    p contributes −log(exp(s_ip) / (exp(s_ip) + Σ_{n: grade < L} exp(s_in))). Summed over levels, a
    shares-both candidate is pulled above shares-one candidates (level 2) and both above the rest (level 1).
    Candidates of grade ≥ L never sit in a level-L denominator, so an in-batch article that shares the
    anchor's labels is not pushed away (the false-negative handling of `AspectCSEFalseNegativeLoss`).
    With one aspect it is multi-positive SupCon with false negatives masked.

    Args:
        model: the module producing embeddings (a SentenceTransformer, or a head in head mode).
        rule: its aspects grade the pairs (`RelevanceRule.grades`); its combine is not used here.
        temperature: softmax temperature; 0.05 as in SimCSE/AspectCSE (scale 20).

    Inputs:
        (anchor, positive, negative) texts, and `label` = the three corpus rows of each triplet, shape
        (batch, 3). Candidates are every positive and negative in the batch, as in
        `AspectCSEFalseNegativeLoss`; an anchor's own positive counts as grade ≥ 1.

    Relations:
        Equals `AspectCSEFalseNegativeLoss` when each anchor's only relevant candidate is its own positive
        (tested).

    Example:
        loss = GradedAspectContrastiveLoss(head, RelevanceRule(index, ("country", "occupation"), "graded"))
    """

    def grade_matrix(self, labels: Tensor) -> Tensor:
        """grade[i, j]: aspects anchor i shares with candidate j (positives, then negatives); the anchor's
        own positive has at least grade 1."""
        rows = labels.detach().cpu().numpy()
        grade = torch.from_numpy(self.rule.grades(rows[:, 0], rows[:, 1:].T.reshape(-1)))
        own = torch.arange(len(rows))
        grade[own, own] = grade[own, own].clamp(min=1)
        return grade.to(labels.device)

    def compute_loss_from_embeddings(self, embeddings: list[Tensor], labels: Tensor) -> Tensor:
        anchors = F.normalize(embeddings[0], dim=-1)
        candidates = F.normalize(torch.cat(embeddings[1:], dim=0), dim=-1)
        scores = anchors @ candidates.T / self.temperature
        grade = self.grade_matrix(labels)
        total, terms = scores.new_zeros(()), 0
        for level in range(1, int(grade.max().item()) + 1):
            positive = grade >= level
            negative = grade < level
            # log Σ_n exp(s_in) per anchor, then log(exp(s_ip) + that) per positive
            negatives = torch.logsumexp(scores.masked_fill(~negative, float("-inf")), dim=1, keepdim=True)
            per_pair = torch.logaddexp(scores, negatives) - scores
            count = positive.sum(dim=1)
            has = count > 0
            if not has.any():
                continue
            per_anchor = (per_pair * positive).sum(dim=1)[has] / count[has]
            total = total + per_anchor.mean()
            terms += 1
        return total / max(terms, 1)
