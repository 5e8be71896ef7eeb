"""What our in-batch losses share: the model, the relevance rule that reads the triplets' corpus rows, a temperature."""
from __future__ import annotations

from typing import Any, Iterable

from torch import Tensor, nn

from training.relevance import RelevanceRule


class RowLabelledLoss(nn.Module):
    """A loss whose `labels` are each triplet's corpus rows, so `rule` can say which in-batch pairs are related.
    Subclasses write `compute_loss_from_embeddings(embeddings, labels)` (head mode calls it directly)."""

    def __init__(self, model: nn.Module, rule: RelevanceRule, temperature: float = 0.05):
        super().__init__()
        self.model = model
        self.rule = rule
        self.temperature = temperature

    def forward(self, sentence_features: Iterable[dict[str, Tensor]], labels: Tensor) -> Tensor:
        embeddings = [self.model(features)["sentence_embedding"] for features in sentence_features]
        return self.compute_loss_from_embeddings(embeddings, labels)

    def compute_loss_from_embeddings(self, embeddings: list[Tensor], labels: Tensor) -> Tensor:
        raise NotImplementedError

    def get_config_dict(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "aspects": list(self.rule.aspects), "combine": self.rule.combine}
