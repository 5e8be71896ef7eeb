"""The effect a study is planned to detect: the mean rank each source is expected to get.

Declared in the study file (`power:`) or given to `study simulate` (`--means`, or `--pilot` with a
pilot's database). It is planning, not data: participants never see it and the analysis never reads
it, so it is left out of the study's fingerprint and may change after participants started.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PlannedEffect(BaseModel):
    """`mean_rank`: source label → expected mean rank (lower = preferred; as `study report` computes it
    with unranked candidates counted last); `participant_sd`: how much participants differ in how much
    they prefer one source (in the utility units of the simulation; 0 = all alike)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mean_rank: dict[str, float] = Field(min_length=2, description="a mapping of source label to expected mean rank")
    participant_sd: float = Field(0.5, ge=0, description="a number of at least 0")
    source: str = Field("the study file", description="where the figures come from, for the printed table")

    def describe(self) -> str:
        ranks = ", ".join(f"{label} {rank:.2f}" for label, rank in self.mean_rank.items())
        return f"mean rank {ranks} (from {self.source}); participant spread {self.participant_sd:g}"
