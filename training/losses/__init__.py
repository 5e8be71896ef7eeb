"""Losses sentence-transformers lacks; the others come from `sentence_transformers` itself."""
from training.losses.aspect_cse_false_negative import AspectCSEFalseNegativeLoss
from training.losses.graded_aspect_contrastive import GradedAspectContrastiveLoss

__all__ = ["AspectCSEFalseNegativeLoss", "GradedAspectContrastiveLoss"]
