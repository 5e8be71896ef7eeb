"""How the analysis scores and resamples: the unranked policy and the bootstrap, one setting for the rankings
(study.analysis) and the questionnaire (study.questionnaire_analysis)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AnalysisConfig:
    unranked: str | float = "last"  # "last" | "mid" | a number
    bootstrap_samples: int = 2000
    confidence: float = 0.95
    random_seed: int = 0  # the bootstrap is reproducible: same data → same intervals
