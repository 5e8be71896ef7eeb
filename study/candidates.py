"""The candidates of one task: the first k of each source, merged, credited and shuffled.

Sources stay behind a `CandidateProvider` so that the flow, the store and the analysis can be
tested without building spaces; `EngineProvider` (in engine_provider.py) runs the real engine.
"""
from __future__ import annotations

import random
from typing import Protocol

from explore.corpus.snippet import snippet
from explore.corpus.model import Corpus
from study.definition import Source, Task
from study.records import Candidate


class CandidateProvider(Protocol):
    def propose(self, seed_id: str, source: Source, k: int) -> list[str]:
        """Up to `k` article ids, best first, that `source` proposes after `seed_id`."""


def candidates_for(task: Task, provider: CandidateProvider, corpus: Corpus, shuffle_seed: int) -> list[Candidate]:
    """The first `task.candidates_per_source` of each source; an article two sources propose is
    shown once and credited to both; a check task's article (the attention item's instructed article, the
    gold task's decoy) joins the list credited to the check; the list is shuffled with `shuffle_seed`
    (stored per participant)."""
    credited: dict[str, list[str]] = {}
    for source in task.sources:
        proposed = [i for i in provider.propose(task.seed, source, task.candidates_per_source + 1) if i != task.seed]
        for article_id in proposed[: task.candidates_per_source]:
            credited.setdefault(article_id, []).append(source.label)
    if task.check is not None:
        credited.setdefault(task.check.article, []).append(task.check.source_label)
    candidates = [
        Candidate(i, corpus[i].title, snippet(corpus[i].text), tuple(labels)) for i, labels in credited.items()
    ]
    random.Random(f"{shuffle_seed}:{task.id}").shuffle(candidates)
    return candidates
