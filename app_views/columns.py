"""The explore view's columns for one seed — Wikipedia links, generic, each aspect space, union,
intersection and a custom blend — as cards; and what the maps need from the same engine.
The only module the app uses to ask the neighbour engine (explore/neighbours.py).
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np

from app_views.cards import Card, card_for
from app_views.markdown import code_span, escape_markdown, map_hover
from explore.corpus.model import Article, Corpus
from explore.errors import AspectNavError
from explore.maps import MapPoints, ProjectionParams, Sample, map_points, project_sample, select_sample
from explore.neighbours import Neighbourhood
from explore.query import LINKS, Blend, Kind, Query

@dataclass
class Column:
    query: Query
    heading: str
    cards: list[Card] = field(default_factory=list)
    note: str = ""  # what the column approximates, or why it is empty


def column_heading(query: Query) -> str:
    if query.kind is Kind.ASPECT:
        return f"{query.name} space"
    if query.kind is Kind.BLEND:
        mix = " + ".join(f"{weight:g} {name}" for name, weight in query.blend.weights)
        return f"custom blend: {mix}"
    if query.name:
        return f"{query.kind} space {query.name}"
    return {Kind.LINKS: "Wikipedia links", Kind.GENERIC: "generic", Kind.UNION: "union space (any aspect)",
            Kind.INTERSECTION: "intersection space (all aspects)"}.get(query.kind, str(query))


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
    return [n.id for n in engine.neighbours(seed, Query(Kind.SPACE, name), k)]


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
    """The points of one space's map: t-SNE of the sample (cached on disk), seed and neighbours marked,
    with hover labels that show the corpus's text as text."""
    coords, method, cached = project_sample(space_key(engine, name), space_vectors(engine, name), plan.sample, params)
    points = map_points(engine.corpus, plan.sample, coords, colour_aspect, seed.id if seed else None,
                        plan.neighbours[name], method, cached)
    return replace(points, hover=[map_hover(engine.corpus[article_id]) for article_id in points.ids])


def missing_spaces_hint(corpus: Corpus, engine: Neighbourhood | None) -> str:
    """Which of the corpus's aspects have no space yet, and the commands that build one (Markdown)."""
    have = {a for space in (engine.spaces.values() if engine else ()) for a in space.aspects}
    missing = [a for a in corpus.aspect_names if a not in have]
    if not missing:
        return ""
    example = shlex.quote(missing[0])
    train = f"python -m training train --corpus {corpus.name} --aspects {example} --combine single --mode head"
    build = (f"python -m explore spaces build --corpus {corpus.name} --name {example} --kind aspect "
             f"--encoder <the run's head directory>")
    return (f"No space yet for aspect{'s' if len(missing) > 1 else ''} {escape_markdown(', '.join(missing))}. "
            f"Train one with {code_span(train)}, then add it with {code_span(build)}.")


def _column(corpus: Corpus, query: Query, heading: str, results, seed: Article | None) -> Column:
    cards = [card_for(corpus[r.id], seed, r.score, r.shared) for r in results]
    note = ""
    if query == LINKS:
        if corpus.provenance.links == "mentions":
            note = "Titles mentioned in the lead: an approximation of the lead's hyperlinks."
        if not cards:
            note = "This article links to no other article of the corpus."
    return Column(query, heading, cards, note)


def explore_columns(corpus: Corpus, engine: Neighbourhood | None, seed: Article | None, text: str | None, k: int,
                    blend: Blend | None = None) -> list[Column]:
    """One column per query for an article seed (or a free-text seed), plus a custom blend column
    when `blend` is given. A query that cannot answer yields an empty column whose note says why,
    instead of failing the whole view."""
    engine = engine if engine is not None else Neighbourhood(corpus, {})  # no spaces: links still answer
    queries = engine.available_queries() + ([Query.blended(blend)] if engine.spaces and blend is not None else [])
    columns = []
    for query in queries:
        heading = column_heading(query)
        if seed is None and query == LINKS:
            columns.append(Column(query, heading, note="Links need an article seed."))
            continue
        try:
            if seed is not None:
                results = engine.neighbours(seed, query, k)
            else:
                results = engine.neighbours_for_text(text, query, k)
        except AspectNavError as error:
            columns.append(Column(query, heading, note=str(error)))
            continue
        columns.append(_column(corpus, query, heading, results, seed))
    return columns
