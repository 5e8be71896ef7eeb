"""The pool a reader-relevance judgement is made on: seeds drawn by stratum, and the top of every column Explore
draws for each, pooled so that a judge sees (seed, candidate) pairs without the column that proposed them.

Why pooling: a column is judged on what it shows, and a pair judged once serves every column that shows it, so the
columns are compared on the same judgements (the TREC way). The columns that proposed a candidate are kept beside
the pool, never in the judges' sheets.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from explore.corpus.model import Article, Corpus
from explore.mix import default_mix
from explore.neighbours import Neighbourhood

# What a reader tries: people, places, events and periods, concepts, objects; each a group of vital topics. A
# seed's stratum is read off its topic, its own or (the list's top levels) the inferred one.
VITAL_STRATA: Mapping[str, tuple[str, ...]] = {
    "people": ("People",),
    "places": ("Geography",),
    "events and periods": ("History",),
    "concepts": ("Philosophy and religion", "Society and social sciences", "Mathematics", "Arts"),
    "objects": ("Biology and health sciences", "Physical sciences", "Technology", "Everyday life"),
}
POOL_DEPTH = 5  # the top 5 a reader sees first in every column
# Pooled deeper too: the generic and links candidates a column may re-rank from ("relevant first").
DEEPER: Mapping[str, int] = {"generic": 15, "links": 10}


@dataclass(frozen=True)
class SeedDraw:
    """How seeds are drawn: `per_stratum` from each stratum, `top_level` of them from the articles a source leaves
    without a topic of its own (the famous ones readers try first), the titles in `excluded` never."""

    strata: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(VITAL_STRATA))
    per_stratum: int = 16
    top_level: int = 4
    seed: int = 36
    excluded: tuple[str, ...] = ()


def stratum_of(article: Article, strata: Mapping[str, tuple[str, ...]]) -> str | None:
    topics = article.labels("topic", inferred=True)
    return next((name for name, group in strata.items() if any(t in group for t in topics)), None)


def draw_seeds(corpus: Corpus, draw: SeedDraw) -> list[tuple[str, str]]:
    """(stratum, article id) of each drawn seed, stratum by stratum; the same draw gives the same seeds."""
    rng = np.random.default_rng(draw.seed)
    excluded = {title.casefold() for title in draw.excluded}
    seeds = []
    for name in draw.strata:
        members = [a for a in corpus.articles if stratum_of(a, draw.strata) == name
                   and a.title.casefold() not in excluded]
        top = [a.id for a in members if not a.labels("topic")]
        rest = [a.id for a in members if a.labels("topic")]
        n_top = min(draw.top_level, len(top))
        picked = list(rng.choice(top, n_top, replace=False)) if n_top else []
        picked += list(rng.choice(rest, min(draw.per_stratum - n_top, len(rest)), replace=False))
        seeds += [(name, str(article_id)) for article_id in picked]
    return seeds


def column_tops(engine: Neighbourhood, seed: Article, depth: int = POOL_DEPTH, mix_for=default_mix,
                baselines: bool = False) -> dict[str, list[str]]:
    """Column name (its query's spelling, `your mix` for the seed's mix, by default its default mix) → the ids of
    its top `depth`, for every column Explore draws for `seed`; with `baselines`, also the columns a reader may add
    (Wikipedia's Read more: `engine.baseline_queries()`)."""
    blend = mix_for(engine, seed)
    tops = {}
    for query in engine.query_kinds(blend, seed=seed) + (engine.baseline_queries() if baselines else []):
        name = "your mix" if blend is not None and query.blend == blend else str(query)
        tops[name] = [n.id for n in engine.neighbours(seed, query, depth)]
    return tops


def blind_order(seed_id: str, candidate_ids: Sequence[str]) -> list[str]:
    """The candidates in an order that tells nothing of column or rank: by a hash of (seed, candidate)."""
    return sorted(dict.fromkeys(candidate_ids), key=lambda c: hashlib.sha256(f"{seed_id}\t{c}".encode()).hexdigest())


def excerpt(text: str, limit: int) -> str:
    """`text` cut at a word boundary before `limit` characters, marked with an ellipsis when cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"
