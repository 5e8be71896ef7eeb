"""The seed's neighbour list beside two maps (the Embedding Projector's nearest-points list): the union of its
k nearest articles in each space, with the cosine similarity of each to the seed in every space shown, so a
reader sees which space brings an article close and which keeps it far.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from explore.corpus.model import Article
from explore.neighbours import Neighbourhood
from explore.query import Kind, Query


@dataclass(frozen=True)
class MapNeighbour:
    """One listed article: its cosine to the seed and its rank among the seed's k in each space (in the maps'
    order; rank None: not among that space's k)."""

    id: str
    title: str
    similarities: tuple[float, ...]
    ranks: tuple[int | None, ...]


def neighbour_ids(engine: Neighbourhood, name: str, k: int, seed: Article | None = None,
                  text: str | None = None) -> list[str]:
    """The k nearest articles to a seed article (or, without one, to a free text) in the space `name`."""
    query = Query(Kind.SPACE, name)
    found = engine.neighbours(seed, query, k) if seed is not None else engine.neighbours_for_text(text, query, k)
    return [n.id for n in found]


def map_neighbours(engine: Neighbourhood, names: Sequence[str], neighbours: dict[str, list[str]],
                   seed: Article | None = None, text: str | None = None) -> list[MapNeighbour]:
    """The union of `neighbours` (space name → the seed's k nearest ids in it, nearest first), best-ranked first
    (ties: the first map's order), each with its similarity to the seed in every space of `names`."""
    ranked = {article_id: tuple(neighbours[name].index(article_id) + 1 if article_id in neighbours[name] else None
                                for name in names)
              for ids in (neighbours[name] for name in names) for article_id in ids}
    order = sorted(ranked, key=lambda i: (min(r for r in ranked[i] if r is not None),
                                          [r if r is not None else len(ranked) + 1 for r in ranked[i]]))
    rows = [engine.corpus.position[i] for i in order]
    similarities = []
    for name in names:
        vector = engine.space_vector(seed, name, text)
        similarities.append(engine.spaces[name].similarities(vector, rows) if rows else [])
    return [MapNeighbour(article_id, engine.corpus[article_id].title,
                         tuple(round(float(sims[i]), 3) for sims in similarities), ranked[article_id])
            for i, article_id in enumerate(order)]
