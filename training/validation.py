"""Checks that turn bad training input into a clear error before any training starts."""
from __future__ import annotations

import numpy as np
from pydantic import TypeAdapter, ValidationError

from explore.corpus.model import Corpus
from explore.errors import AspectNavError
from explore.names import check_name
from explore.schema import Refusal, refusals
from training.config import CHOICES, TrainingConfig
from training.splits import ArticleSplit

_SCHEMA = TypeAdapter(TrainingConfig)  # the annotations of TrainingConfig: choices and bounds


class TrainingInputError(AspectNavError):
    """The corpus, aspects or settings cannot produce a training run; the message says why."""


def check_config(config: TrainingConfig) -> None:
    """Settings that are wrong whatever the corpus: the names (each a folder or part of one), each field against
    its type, then how they combine."""
    check_name(config.corpus, "corpus")
    for aspect in config.aspects:
        check_name(aspect, "aspect")
    check_name(config.space_name, "space")
    check_name(config.run_name, "run")
    try:
        _SCHEMA.validate_python(config)
    except ValidationError as error:
        raise TrainingInputError(" ".join(map(_sentence, refusals(error)))) from None
    if not config.aspects:
        raise TrainingInputError("No aspect given: pass --aspects, e.g. --aspects country,occupation.")
    if len(set(config.aspects)) != len(config.aspects):
        raise TrainingInputError(f"Aspect listed twice in {','.join(config.aspects)}.")
    if config.combine == "single" and len(config.aspects) != 1:
        raise TrainingInputError("combine=single trains one aspect per run; got " + ",".join(config.aspects) + ".")
    if config.combine != "single" and len(config.aspects) < 2:
        raise TrainingInputError(f"combine={config.combine} needs at least two aspects; got {config.aspects[0]}.")
    if config.batch_size < 2 and config.objective != "triplet":
        raise TrainingInputError("In-batch negatives need batch_size >= 2.")


def _sentence(refusal: Refusal) -> str:
    """Unknown objective 'simcse'; choose one of ... / epochs must be greater than or equal to 1; got 0."""
    if refusal.field in CHOICES:
        return f"Unknown {refusal.field} {refusal.got!r}; choose one of {', '.join(CHOICES[refusal.field])}."
    return f"{refusal.field} must be {refusal.expected}; got {refusal.got!r}."


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
