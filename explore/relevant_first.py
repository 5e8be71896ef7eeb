"""Columns that are relevant first, then the aspect: how an aspect, union, intersection or mix column is served.

A space trained to put articles of one label together says nothing of whether two of them are worth reading
together: with 11 topics, *Tomato* is as "Biology" as *RNA* is, for *DNA*. So a served column takes its candidates
from what is related to the seed at all (its N nearest articles in the generic space, and the articles it links to)
and ranks them there:

    score(a) = sum over the column's spaces s of w_s * (cos_s(seed, a) + λ * shared_s(seed, a))
               + w_links * [seed links to a],       a in generic top-N(seed) ∪ links(seed)

where a labelled column's own weights are (1 - g) for its space and g for generic, and shared_s is the share of
space s's aspects whose label the candidate shares with the seed (inferred labels count: they are what a card
shows). Within the related pool, the articles that share the seed's label are ranked up and similarity orders
them: the column is about its aspect, and what it shows is about the seed. A mix (blend) weighs generic itself
(explore/mix.py) and ranks the same pool the same way. N, g and λ were chosen on judged seeds
(assets/judgements/, docs/training.md "Relevant first").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from explore.corpus.model import Article
from explore.query import Kind
from explore.ranking import LINKS_COMPONENT
from explore.spaces.space import Space


@dataclass(frozen=True)
class Serving:
    """How one kind of column is served: its candidates are the seed's `pool_size` nearest articles in the generic
    space plus its links; a labelled column gives `generic_share` of its score to generic similarity (a mix weighs
    generic itself, so its share is 0 here); a shared label ranks a card up by `label_weight` (λ) times its weight."""

    pool_size: int
    generic_share: float = 0.0
    label_weight: float = 1.0


# Chosen on the judged seeds by the column score, cross-validated over seeds (docs/training.md, "Relevant first";
# scripts/choose_columns.py prints the grid and the choice).
SERVING: Mapping[Kind, Serving] = {
    Kind.ASPECT: Serving(200, 0.6, 1.0),
    Kind.UNION: Serving(60, 0.8, 1.0),
    Kind.INTERSECTION: Serving(200, 0.6, 2.0),
    Kind.BLEND: Serving(30, 0.0, 2.0),
}


# Labelled spaces a corpus does not draw as Explore columns: on its judged seeds their served cards were less worth
# reading than generic's by more than the bar (worth-reading P@5 under 0.9 x generic's; space -> that ratio,
# assets/reports/vital-judged.md). They still weigh in the reader's mix, colour the maps and serve studies.
NOT_DRAWN: Mapping[str, Mapping[str, float]] = {}


# A corpus's aspect spaces served otherwise than every aspect column (corpus → space → its serving), chosen for that
# space on the corpus's judged seeds, cross-validated over seeds (scripts/choose_space_serving.py,
# assets/reports/vital-space-serving-choice.json; docs/training.md, "Relevant first"). vital's kind and century
# label hundreds of articles each: served as every aspect column is, their cards were worth reading 0.80 and 0.88
# times as often as generic's; ranked mostly by overall similarity (90%), with a shared label ranking a card up, they
# are drawn.
BY_SPACE: Mapping[str, Mapping[str, Serving]] = {"vital": {"kind": Serving(30, 0.9, 1.0),
                                                           "century": Serving(100, 0.9, 2.0)}}


@dataclass(frozen=True)
class RelevantFirst:
    """The serving of each kind of column that is served relevant first (the labelled spaces and the reader's mix;
    generic, links and a raw `space:<name>`, what evaluation of a space's own quality asks, are served as they are),
    and of the aspect spaces of a corpus served otherwise (`by_space`: corpus → space name → serving)."""

    serving: Mapping[Kind, Serving] = field(default_factory=lambda: dict(SERVING))
    by_space: Mapping[str, Mapping[str, Serving]] = field(default_factory=lambda: dict(BY_SPACE))

    def serves(self, kind: Kind) -> bool:
        return kind in self.serving

    def serving_for(self, kind: Kind, mix: Mapping[str, float], corpus: str = "") -> Serving:
        """How a column of `kind` ranking by `mix` is served: an aspect column of a space its corpus serves
        otherwise by that space's serving, every other by its kind's."""
        if kind is Kind.ASPECT and len(mix) == 1:
            (name,) = mix
            own = self.by_space.get(corpus, {}).get(name)
            if own is not None:
                return own
        return self.serving[kind]

    def served_mix(self, kind: Kind, mix: Mapping[str, float], generic: str, corpus: str = "") -> dict[str, float]:
        """`mix` (space → weight, summing to 1) with the column's generic share added: what the column ranks by."""
        share = float(self.serving_for(kind, mix, corpus).generic_share)
        if not share:
            return dict(mix)
        served = {name: (1 - share) * weight for name, weight in mix.items()}
        served[generic] = served.get(generic, 0.0) + share
        return served


def relevant_pool(generic_rows: np.ndarray, linked_rows: Sequence[int], seed_row: int | None) -> np.ndarray:
    """Sorted candidate rows: the generic neighbours and the links, the seed left out."""
    rows = np.union1d(np.asarray(generic_rows, dtype=np.int64), np.asarray(list(linked_rows), dtype=np.int64))
    return rows[rows != seed_row] if seed_row is not None else rows


def shared_share(seed: Article, candidates: Sequence[Article], aspects: Sequence[str]) -> np.ndarray:
    """Per candidate, the share of `aspects` whose label (own or inferred) it shares with `seed`."""
    if not aspects:
        return np.zeros(len(candidates))
    wanted = [set(seed.labels(a, inferred=True)) for a in aspects]
    return np.array([sum(bool(w & set(c.labels(a, inferred=True))) for a, w in zip(aspects, wanted)) / len(aspects)
                     for c in candidates])


def pool_similarity(spaces: Mapping[str, Space], mix: Mapping[str, float], vectors: Mapping[str, np.ndarray],
                    pool: np.ndarray, linked: Sequence[int]) -> np.ndarray:
    """Every pool row's weighted similarity to the seed (the links' weight for a linked row): what a card shows."""
    scores = np.zeros(len(pool))
    for name, weight in mix.items():
        if name == LINKS_COMPONENT:
            scores += weight * np.isin(pool, np.asarray(list(linked), dtype=np.int64))
        else:
            scores += weight * spaces[name].similarities(vectors[name], pool)
    return scores


def shared_term(mix: Mapping[str, float], shared: Mapping[str, np.ndarray]) -> np.ndarray:
    """Σ_s w_s · shared_s over the pool (`shared`: space name → shared_share): what λ weighs in the order."""
    return sum(weight * shared[name] for name, weight in mix.items() if name != LINKS_COMPONENT)
