"""Checks that turn bad training input into a clear error before any training starts."""
from __future__ import annotations

import numpy as np

from explore.corpus.model import Corpus
from explore.errors import AspectNavError
from training.config import HEADS, MODES, OBJECTIVES, SAMPLINGS, TrainingConfig
from training.relevance import COMBINES
from training.splits import ArticleSplit


CHOICES = {"combine": COMBINES, "objective": OBJECTIVES, "mode": MODES, "sampling": SAMPLINGS, "head": HEADS}


class TrainingInputError(AspectNavError):
    """The corpus, aspects or settings cannot produce a training run; the message says why."""


def check_config(config: TrainingConfig) -> None:
    """Settings that are wrong whatever the corpus."""
    for name, allowed in CHOICES.items():
        if getattr(config, name) not in allowed:
            raise TrainingInputError(f"Unknown {name} {getattr(config, name)!r}; choose one of {', '.join(allowed)}.")
    if not config.aspects:
        raise TrainingInputError("No aspect given: pass --aspects, e.g. --aspects country,occupation.")
    if len(set(config.aspects)) != len(config.aspects):
        raise TrainingInputError(f"Aspect listed twice in {','.join(config.aspects)}.")
    if config.combine == "single" and len(config.aspects) != 1:
        raise TrainingInputError("combine=single trains one aspect per run; got " + ",".join(config.aspects) + ".")
    if config.combine != "single" and len(config.aspects) < 2:
        raise TrainingInputError(f"combine={config.combine} needs at least two aspects; got {config.aspects[0]}.")
    if not 0 < config.test_fraction < 1:
        raise TrainingInputError(f"test_fraction must lie strictly between 0 and 1; got {config.test_fraction}.")
    if config.temperature <= 0:
        raise TrainingInputError(f"temperature must be positive; got {config.temperature}.")
    for name in ("epochs", "batch_size", "triplets_per_anchor", "save_steps"):
        if getattr(config, name) < 1:
            raise TrainingInputError(f"{name} must be at least 1; got {getattr(config, name)}.")
    if config.batch_size < 2 and config.objective != "triplet":
        raise TrainingInputError("In-batch negatives need batch_size >= 2.")


def check_corpus(corpus: Corpus, config: TrainingConfig, split: ArticleSplit) -> None:
    """Aspects that exist and carry at least two labels, no singleton label, both split halves usable."""
    known = corpus.aspect_names
    kept: dict[str, set[str]] = {}  # labels that training counts (those below --drop-labels-below are absent)
    for aspect in config.aspects:
        if aspect not in known:
            raise TrainingInputError(
                f"Corpus {corpus.name!r} has no aspect {aspect!r}. Its aspects: {', '.join(known) or 'none'}.")
        counts = corpus.label_counts(aspect)
        if config.drop_labels_below:
            counts = {label: n for label, n in counts.items() if n >= config.drop_labels_below}
        kept[aspect] = set(counts)
        if len(counts) < 2:
            raise TrainingInputError(
                f"Aspect {aspect!r} has {len(counts)} label(s); contrastive training needs at least 2.")
        single = sorted(label for label, n in counts.items() if n < 2)
        if single:
            shown = ", ".join(single[:5]) + (f" and {len(single) - 5} more" if len(single) > 5 else "")
            raise TrainingInputError(
                f"Aspect {aspect!r}: {len(single)} label(s) carried by a single article ({shown}); no positive can "
                "share them. Fix the labels or pass --drop-labels-below 2 to treat them as absent.")
    for half, rows in (("train", split.train), ("test", split.test)):
        for aspect in config.aspects:
            labelled = sum(1 for row in rows if kept[aspect].intersection(corpus.articles[row].labels(aspect)))
            if labelled == 0:
                raise TrainingInputError(
                    f"The {half} split ({len(rows)} articles, seed {split.seed}, test fraction {split.test_fraction}) "
                    f"has no article labelled with {aspect!r}; use a bigger corpus or another test fraction.")


def check_triplets(rows: np.ndarray, config: TrainingConfig) -> None:
    if len(rows) == 0:
        raise TrainingInputError(
            f"No training triplet for {config.combine} of {','.join(config.aspects)}: no training article has a "
            "positive (another training article sharing its labels).")
    if len(rows) < 2 and config.objective != "triplet":
        raise TrainingInputError("Only one training triplet; in-batch negatives need at least two.")
