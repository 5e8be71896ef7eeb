"""Losses sentence-transformers lacks; the others come from `sentence_transformers` itself."""
from training.losses.aspect_cse_false_negative import AspectCSEFalseNegativeLoss

__all__ = ["AspectCSEFalseNegativeLoss"]
