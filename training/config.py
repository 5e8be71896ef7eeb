"""Training settings as data: one dataclass, every field with a default and a help string.

The annotations are the schema: choices are Literal types and bounds pydantic `Field`s, so
`training.validation.check_config` refuses a bad value naming the field and what it allows.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

from pydantic import ConfigDict, Field

from training.relevance import Combine

Objective = Literal["aspectcse", "mnrl", "triplet", "aspectcse-fn", "graded"]
Mode = Literal["head", "full"]
Sampling = Literal["aspect-first", "pooled"]
Head = Literal["linear", "mlp"]
AtLeastZero = Annotated[int, Field(ge=0)]
AtLeastOne = Annotated[int, Field(ge=1)]
Positive = Annotated[float, Field(gt=0)]
Fraction = Annotated[float, Field(gt=0, lt=1)]  # strictly inside: both halves of a split need articles
Share = Annotated[float, Field(ge=0, le=1)]

# Defaults that depend on the mode: a head on frozen embeddings takes big batches and a big step.
MODE_DEFAULTS = {
    "head": {"epochs": 10, "batch_size": 128, "learning_rate": 1e-3},
    "full": {"epochs": 1, "batch_size": 16, "learning_rate": 5e-5},
}


def _field(default: Any, help: str, **kwargs):
    return field(default=default, metadata={"help": help}, **kwargs)


@dataclass
class TrainingConfig:
    corpus: str = _field("vital", "Corpus name (see `python -m explore corpus list`).")
    aspects: tuple[str, ...] = _field((), "Aspect names; one for `single`, two or more for union/intersection.")
    combine: Combine = _field("single", "single | union (positive shares any aspect) | intersection (all aspects) | "
                                        "graded (any aspect; sharing more ranks higher; pair with objective graded).")
    sampling: Sampling = _field("aspect-first", "Union positives: `aspect-first` draws an aspect uniformly, then a "
                                                "positive sharing its label; `pooled` draws from everyone sharing any "
                                                "label.")
    objective: Objective = _field("aspectcse", "aspectcse | mnrl (pairs only) | triplet (margin) | aspectcse-fn "
                                               "(ours: shared labels leave the denominator) | graded (ours: every "
                                               "in-batch candidate, ranked by how many aspects it shares).")
    mode: Mode = _field("head", "head: projection on frozen generic embeddings; full: fine-tune the encoder.")
    head: Head = _field("linear", "Head mode: `linear` (d×d) or `mlp` (one ReLU layer of width 2d); both start "
                                  "as the identity.")
    temperature: Positive = _field(0.05, "InfoNCE temperature (aspectcse, mnrl, aspectcse-fn); scale = 1/temperature.")
    margin: float = _field(0.25, "Triplet margin on cosine distance (objective triplet).")
    seed: int = _field(42, "Seeds the split, the triplet sampling, the batches and the initialisation.")
    test_fraction: Fraction = _field(0.2, "Share of articles held out for evaluation (split by article).")
    triplets_per_anchor: AtLeastOne = _field(1, "Triplets sampled per labelled training article per epoch.")
    unlabelled_negatives: Share = _field(0.1, "Share of negatives drawn from articles without the aspect.")
    drop_labels_below: AtLeastZero = _field(0, "Treat labels carried by fewer articles as absent (0: a singleton "
                                               "label is an error).")
    epochs: AtLeastOne | None = _field(None, "Epochs (default: 10 head, 1 full).")
    batch_size: AtLeastOne | None = _field(None, "Triplets per batch (default: 128 head, 16 full).")
    learning_rate: Positive | None = _field(None, "Learning rate (default: 1e-3 head, 5e-5 full).")
    max_seq_length: AtLeastOne = _field(256, "Tokens per article in full mode.")
    save_steps: AtLeastOne = _field(200, "Full mode: checkpoint every N optimizer steps (head mode: every epoch).")
    space_name: str = _field("", "Name of the engine space the run produces (default: derived, e.g. `country`, "
                                 "`union-country-occupation`, `country-mnrl-full`).")
    run_name: str = _field("", "Run directory under <data home>/training/runs (default: <corpus>-<space name>).")

    # How pydantic checks a config (training.validation): no "3" for 3, and an existing config is re-checked.
    __pydantic_config__ = ConfigDict(strict=True, revalidate_instances="always")

    def __post_init__(self) -> None:
        self.aspects = tuple(self.aspects)
        for key, value in MODE_DEFAULTS.get(self.mode, {}).items():
            if getattr(self, key) is None:
                setattr(self, key, value)
        self.space_name = self.space_name or self.default_space_name()
        self.run_name = self.run_name or f"{self.corpus}-{self.space_name}"

    def default_space_name(self) -> str:
        """The aspects, prefixed by the combination; settings other than the defaults as suffixes."""
        name = "-".join(self.aspects) if self.combine == "single" else "-".join((self.combine, *self.aspects))
        suffixes = [self.sampling if self.combine == "union" and self.sampling != "aspect-first" else "",
                    self.objective if self.objective != "aspectcse" else "",
                    self.mode if self.mode != "head" else "", self.head if self.head != "linear" else "",
                    f"s{self.seed}" if self.seed != 42 else ""]
        return "-".join([name, *filter(None, suffixes)])

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict) -> "TrainingConfig":
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def same_training(self, other: "TrainingConfig") -> bool:
        """Whether a checkpoint of `other` can be resumed by this config (everything but the name)."""
        mine, theirs = self.to_dict(), other.to_dict()
        for key in ("run_name", "space_name"):
            mine.pop(key), theirs.pop(key)
        return mine == theirs


# Field name → its allowed values, for the CLI's `choices` and the refusal of an unknown value.
CHOICES: dict[str, tuple[str, ...]] = {
    name: get_args(hint) for name, hint in get_type_hints(TrainingConfig).items() if get_origin(hint) is Literal
}
