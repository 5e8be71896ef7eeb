"""The explore view's columns for one seed — Wikipedia links, generic, each aspect space, union,
intersection and a custom blend — as cards; and what the maps need from the same engine.
The only module the app uses to ask the neighbour engine (explore/neighbours.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from explore.cards import Card, card_for
from explore.corpus.model import Article, Corpus
from explore.errors import AspectNavError
from explore.maps import MapPoints, ProjectionParams, Sample, map_points, project_sample, select_sample
from explore.neighbours import BLEND, LINKS, Neighbourhood

CUSTOM = "custom"
_ORDER = ("links", "generic", "aspect", "union", "intersection")


@dataclass
class Column:
    kind: str
    heading: str
    cards: list[Card] = field(default_factory=list)
    note: str = ""  # what the column approximates, or why it is empty


def open_engine(corpus: Corpus) -> Neighbourhood:
    """Every space of the corpus, opened once (shipped fp16 assets first; see explore/spaces)."""
    return Neighbourhood.open(corpus, progress=False)


def column_heading(kind: str) -> str:
    prefix, _, name = kind.partition(":")
    if prefix == "aspect":
        return f"{name} space"
    if prefix in ("union", "intersection") and name:
        return f"{prefix} space {name}"
    return {LINKS: "Wikipedia links", "generic": "generic", "union": "union space (any aspect)",
            "intersection": "intersection space (all aspects)", CUSTOM: "custom blend"}.get(kind, kind)


def column_kinds(engine: Neighbourhood) -> list[str]:
    """Kinds shown as columns, in reading order: links, generic, aspects, union, intersection."""
    kinds = [kind for kind in engine.available_kinds() if kind != BLEND]
    rank = {prefix: i for i, prefix in enumerate(_ORDER)}
    return sorted(kinds, key=lambda kind: rank.get(kind.partition(":")[0], len(_ORDER)))


def map_spaces(engine: Neighbourhood) -> list[str]:
    """Space names a map can show, generic first."""
    return sorted(engine.spaces, key=lambda name: (engine.spaces[name].kind != "generic", name))


def space_label(engine: Neighbourhood, name: str) -> str:
    kind = engine.spaces[name].kind
    return name if kind == name else f"{name} ({kind})"


def blendable_spaces(engine: Neighbourhood) -> list[str]:
    """Space names a blend can weigh (aspect spaces first, generic last)."""
    return sorted(engine.spaces, key=lambda name: (engine.spaces[name].kind == "generic", name))


def space_vectors(engine: Neighbourhood, name: str) -> np.ndarray:
    return engine.spaces[name].embeddings_


def space_key(engine: Neighbourhood, name: str) -> str:
    """Changes whenever the space's vectors may change: name, corpus content and encoder."""
    space = engine.spaces[name]
    return f"{space.corpus_name_}/{space.name}/{space.corpus_hash_}/{space.encoder_fingerprint_}"


def neighbour_ids(engine: Neighbourhood, seed: Article, name: str, k: int) -> list[str]:
    """The seed's k neighbours in the space called `name`."""
    return [n.id for n in engine.neighbours(seed, f"space:{name}", k)]


@dataclass(frozen=True)
class MapPlan:
    """What two side-by-side maps share: one sample, which always holds the seed and its neighbours."""

    sample: Sample
    neighbours: dict[str, list[str]]  # space name -> the seed's k neighbour ids in it


def map_plan(engine: Neighbourhood, seed: Article | None, names: Sequence[str], k: int, size: int) -> MapPlan:
    corpus = engine.corpus
    neighbours = {name: neighbour_ids(engine, seed, name, k) if seed else [] for name in names}
    required = ([corpus.position[seed.id]] if seed else []) + [corpus.position[i] for ids in neighbours.values()
                                                                for i in ids]
    return MapPlan(select_sample(len(corpus), int(size), required), neighbours)


def map_side(engine: Neighbourhood, plan: MapPlan, name: str, seed: Article | None, colour_aspect: str | None,
             params: ProjectionParams = ProjectionParams()) -> MapPoints:
    """The points of one space's map: t-SNE of the sample (cached on disk), seed and neighbours marked."""
    coords, method, cached = project_sample(space_key(engine, name), space_vectors(engine, name), plan.sample, params)
    return map_points(engine.corpus, plan.sample, coords, colour_aspect, seed.id if seed else None,
                      plan.neighbours[name], method, cached)


def missing_spaces_hint(corpus: Corpus, engine: Neighbourhood | None) -> str:
    """Which of the corpus's aspects have no space yet, and the commands that build one."""
    have = {a for space in (engine.spaces.values() if engine else ()) for a in space.aspects}
    missing = [a for a in corpus.aspect_names if a not in have]
    if not missing:
        return ""
    example = missing[0]
    return (f"No space yet for aspect{'s' if len(missing) > 1 else ''} {', '.join(missing)}. Train one with "
            f"`python -m training train --corpus {corpus.name} --aspects {example} --combine single --mode head`, "
            f"then add it with `python -m explore spaces build --corpus {corpus.name} --name {example} "
            f"--kind aspect --encoder <the run's head directory>`.")


def _column(corpus: Corpus, kind: str, heading: str, results, seed: Article | None) -> Column:
    cards = [card_for(corpus[r.id], seed, r.score, r.shared) for r in results]
    note = ""
    if kind == LINKS:
        if corpus.provenance.links == "mentions":
            note = "Titles mentioned in the lead: an approximation of the lead's hyperlinks."
        if not cards:
            note = "This article links to no other article of the corpus."
    return Column(kind, heading, cards, note)


def explore_columns(corpus: Corpus, engine: Neighbourhood | None, seed: Article | None, text: str | None, k: int,
                    blend: Mapping[str, float] | None = None) -> list[Column]:
    """One column per kind for an article seed (or a free-text seed), plus a custom blend column
    when `blend` has a positive weight. A kind that cannot answer yields an empty column whose
    note says why, instead of failing the whole view."""
    engine = engine if engine is not None else Neighbourhood(corpus, {})  # no spaces: links still answer
    requests = [(kind, column_heading(kind), None) for kind in column_kinds(engine)]
    if engine.spaces and blend and any(w > 0 for w in blend.values()):
        mix = " + ".join(f"{w:g} {name}" for name, w in blend.items() if w > 0)
        requests.append((BLEND, f"{column_heading(CUSTOM)}: {mix}", dict(blend)))
    columns = []
    for kind, heading, weights in requests:
        if seed is None and kind == LINKS:
            columns.append(Column(kind, heading, note="Links need an article seed."))
            continue
        try:
            if seed is not None:
                results = engine.neighbours(seed, kind, k, weights)
            else:
                results = engine.neighbours_for_text(text, kind, k, weights)
        except AspectNavError as error:
            columns.append(Column(CUSTOM if kind == BLEND else kind, heading, note=str(error)))
            continue
        columns.append(_column(corpus, CUSTOM if kind == BLEND else kind, heading, results, seed))
    return columns

