"""A space for one aspect a corpus has but no space covers, trained on demand (the app's Evaluation page or
`aspectnav train`): head mode on the frozen generic space, seconds to a minute on a 2-core CPU."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from explore.corpus.model import Corpus
from explore.errors import AspectNavError
from training.config import Head, TrainingConfig

# One training at a time per process: two maintainers pressing "Train" would share a CPU and a run folder.
TRAINING_LOCK = threading.Lock()


def aspects_without_space(corpus: Corpus, spaces: Iterable) -> list[str]:
    """The corpus's aspects that no space (single or multi-aspect) covers, in the corpus's order."""
    covered = {aspect for space in spaces for aspect in space.aspects}
    return [aspect for aspect in corpus.aspect_names if aspect not in covered]


def on_demand_config(corpus: Corpus, aspect: str, head: Head = "linear", taken: Iterable[str] = ()) -> TrainingConfig:
    """The shipped single-aspect recipe (scripts/build_vital_spaces.sh): the space is named after the aspect
    (`aspect:<name>` finds it), or `<aspect>-space` when a space already has that name."""
    name = aspect if aspect not in set(taken) else f"{aspect}-space"
    return TrainingConfig(corpus=corpus.name, aspects=(aspect,), head=head, drop_labels_below=2, space_name=name,
                          run_name=f"{corpus.name}-{name}-{head}")


class TrainingBusyError(AspectNavError):
    """Another on-demand training holds this process's lock."""


@dataclass(frozen=True)
class TrainedSpace:
    name: str
    aspect: str
    mrr: float  # test-pool MRR@10 on its aspect
    seconds: float

    def summary(self) -> str:
        return (f"Space {self.name!r} for aspect {self.aspect!r} is ready (trained in {self.seconds:.0f} s; MRR@10 on "
                f"held-out articles {self.mrr:.3f}).")


def train_aspect_space(corpus: Corpus, aspect: str, head: Head = "linear", taken: Iterable[str] = (),
                       on_step: Callable[[float, str], None] | None = None) -> TrainedSpace:
    """Train and build the space (retrained from scratch if a run of that name exists); raises
    TrainingInputError on input that cannot train, and TrainingBusyError when another training runs here."""
    from training.pipeline import train

    config = on_demand_config(corpus, aspect, head, taken)
    if not TRAINING_LOCK.acquire(blocking=False):
        raise TrainingBusyError("Another space is being trained on this server; try again when it has finished.")
    try:
        began = time.perf_counter()
        run = train(config, corpus=corpus, progress=False, force=True, on_step=on_step)
    finally:
        TRAINING_LOCK.release()
    metrics = run.info.get("primary_metric", {})
    return TrainedSpace(config.space_name, aspect, float(next(iter(metrics.values()), float("nan"))),
                        time.perf_counter() - began)
