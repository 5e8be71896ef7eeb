"""Explore's columns on the judged seeds: what each shows (served now, or as frozen in a pool file) and its figures.

The column names are those the pool records (training/judgement_pool.py): `links`, `morelike` (Wikipedia's Read
more, a column readers add), `generic`, `aspect:<name>`, `union`, `intersection`, `your mix`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping, Sequence

from explore.corpus.model import Article
from explore.mix import default_mix
from explore.neighbours import LABELLED_KINDS, Neighbourhood
from explore.query import Kind, Query
from training.judgement_pool import column_tops
from training.judgements import Judgements
from training.worth_reading import K, AspectRule, ColumnFigures, column_figures

YOUR_MIX = "your mix"
BASELINES = ("links", "morelike", "generic")
COLUMN_ORDER = ("links", "morelike", "generic", YOUR_MIX)

Lists = dict[str, dict[str, list[str]]]  # column → seed id → candidate ids, best first


def labelled_aspects(engine: Neighbourhood) -> tuple[str, ...]:
    """The aspects the engine's trained spaces are about, in a stable order."""
    return tuple(dict.fromkeys(a for s in engine.spaces.values() if s.kind in LABELLED_KINDS for a in s.aspects))


def rule_for(engine: Neighbourhood, column: str):
    """Which labels `column` is about, per seed: its space's aspects, or (links, generic, a mix) the seed's own."""
    if column in (YOUR_MIX, *BASELINES):
        aspects = labelled_aspects(engine)
        return lambda seed: AspectRule(tuple(a for a in aspects if seed.labels(a)))
    query = Query.parse(column)
    (name,) = engine.resolve(query)
    rule = AspectRule(tuple(engine.spaces[name].aspects), every=query.kind is Kind.INTERSECTION)
    return lambda seed: rule


def served_lists(engine: Neighbourhood, seeds: Sequence[str], k: int = K, mix_for=default_mix,
                 baselines: bool = True) -> Lists:
    """What Explore draws now for each seed: column → seed → its top k (`mix_for(engine, seed)`: the mix); with
    `baselines`, also the columns a reader may add (Wikipedia's Read more), the row every column is compared to."""
    lists: Lists = {}
    for seed_id in seeds:
        for column, ids in column_tops(engine, engine.corpus[seed_id], k, mix_for, baselines).items():
            lists.setdefault(column, {})[seed_id] = ids
    return lists


def frozen_lists(pool_path: Path | str, k: int = K) -> Lists:
    """The columns as the pool file froze them (the release they were judged on)."""
    lists: Lists = {}
    for entry in json.loads(Path(pool_path).read_text(encoding="utf-8"))["seeds"]:
        for column, ids in entry["columns"].items():
            lists.setdefault(column, {})[entry["seed"]] = list(ids)[:k]
    return lists


def ordered(columns: Sequence[str]) -> list[str]:
    """Baselines and the mix first, then the spaces in their order."""
    first = [c for c in COLUMN_ORDER if c in columns]
    return first + [c for c in columns if c not in first]


def figures_of(engine: Neighbourhood, judgements: Judgements, lists: Lists, k: int = K) -> dict[str, ColumnFigures]:
    return {column: column_figures(judgements, engine.corpus, column, lists[column], rule_for(engine, column), k)
            for column in ordered(list(lists))}


def seed_is_top_level(article: Article) -> bool:
    """A seed the source files at its top levels (no topic of its own): the famous ones readers try first."""
    return not article.labels("topic")


def generic_relative(figures: Mapping[str, ColumnFigures], column: str, key: str = "precision") -> float | None:
    """`column`'s figure as a share of generic's on the same seeds (the seeds it is drawn for)."""
    own = figures[column].summary()
    base = figures["generic"].summary(figures[column].per_seed)
    if own[key] is None or not base[key]:
        return None
    return own[key] / base[key]
