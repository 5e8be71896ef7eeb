"""Objective name → loss module: sentence-transformers' losses where they fit, ours where not."""
from __future__ import annotations

from torch import nn

from sentence_transformers.sentence_transformer.losses import (
    MultipleNegativesRankingLoss,
    TripletDistanceMetric,
    TripletLoss,
)

from training.config import TrainingConfig
from training.losses import AspectCSEFalseNegativeLoss, GradedAspectContrastiveLoss
from training.relevance import RelevanceRule


def columns_for(objective: str) -> tuple[str, ...]:
    """Which triplet columns the objective reads: `mnrl` is the pairs-only baseline."""
    return ("anchor", "positive") if objective == "mnrl" else ("anchor", "positive", "negative")


def uses_row_labels(objective: str) -> bool:
    return objective in ("aspectcse-fn", "graded")


def build_loss(config: TrainingConfig, model: nn.Module, rule: RelevanceRule) -> nn.Module:
    """aspectcse: MNRL on triplets with scale 1/temperature is exactly SimCSE's supervised objective."""
    if config.objective in ("aspectcse", "mnrl"):
        return MultipleNegativesRankingLoss(model, scale=1.0 / config.temperature)
    if config.objective == "triplet":
        return TripletLoss(model, distance_metric=TripletDistanceMetric.COSINE, triplet_margin=config.margin)
    if config.objective == "aspectcse-fn":
        return AspectCSEFalseNegativeLoss(model, rule, temperature=config.temperature)
    if config.objective == "graded":
        return GradedAspectContrastiveLoss(model, rule, temperature=config.temperature)
    raise ValueError(f"Unknown objective {config.objective!r}")
