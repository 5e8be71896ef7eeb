"""Candidates from the real engine: explore.neighbours.Neighbourhood behind CandidateProvider."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from explore.corpus.model import Corpus
from explore.neighbours import Neighbourhood
from explore.query import Query
from study.definition import Source


class EngineProvider:
    """Asks the engine for each source's top k; the engine's kinds and space names bound what a
    study file may name (checked on load by `check_study`)."""

    def __init__(self, neighbourhood):
        self.neighbourhood = neighbourhood

    def known_spaces(self) -> list[str]:
        return list(self.neighbourhood.spaces)

    def resolve(self, query: Query) -> dict[str, float]:
        """The spaces `query` ranks by; refuses unknown or ambiguous queries (see Neighbourhood.resolve)."""
        return self.neighbourhood.resolve(query)

    def remoteness(self, seed_id: str) -> dict[str, float] | None:
        """Article id → the share of the corpus nearer `seed_id` in the generic space (0 = nearest, 1 =
        farthest); None without a generic space. A gold task's decoy must be far (study.check_tasks)."""
        similarities = self.neighbourhood.generic_similarities(self.neighbourhood.corpus[seed_id])
        if similarities is None:
            return None
        order = np.argsort(-similarities, kind="stable")
        share = np.empty(len(order))
        share[order] = np.arange(len(order)) / max(1, len(order) - 1)
        ids = [article.id for article in self.neighbourhood.corpus.articles]
        return dict(zip(ids, share.tolist()))

    def propose(self, seed_id: str, source: Source, k: int) -> list[str]:
        seed = self.neighbourhood.corpus[seed_id]  # an Article: never re-resolved as a title
        return [n.id for n in self.neighbourhood.neighbours(seed, source.query, k)]


def engine_provider(corpus: Corpus, engine_loader: Callable | None = None) -> EngineProvider:
    """Every space of `corpus`, opened (and built on first use) by the engine. The app passes its
    cached engine as `engine_loader`, so the study and the explore pages share one copy in memory."""
    return EngineProvider(engine_loader(corpus) if engine_loader else Neighbourhood.open(corpus, progress=False))

