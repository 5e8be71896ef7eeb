"""What a reader sees for one seed with these settings, as one typed value: the columns Explore draws (each with its
cards as the engine ranked them, what its cards are ranked up for sharing, and why it is empty when it is), the mix
*your mix* ranks by, and why each column that is not drawn is absent.

The engine answers the whole question here, once per page run (`seed_view`); the app only draws the answer
(app_views/columns.py, app_views/explore_panel/). Before, the panel asked the engine a dozen small facts and walked
through three modules called "mix" to do so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from explore.corpus.model import Article
from explore.errors import AspectNavError
from explore.mix import absent_aspect_spaces, has_links, mixable_spaces, shown_mix, weight_names
from explore.neighbours import Neighbour, Neighbourhood, seed_has_aspect
from explore.query import LINKS, Blend, Kind, Query


@dataclass(frozen=True)
class ViewSettings:
    """The reader's settings: cards per column, the mix they chose (None: the seed's default), Read more shown."""

    k: int = 5
    blend: Blend | None = None
    read_more: bool = False


@dataclass(frozen=True)
class ColumnView:
    """One column: its query, its cards best first, the aspects a labelled column ranks its cards up for sharing
    (none for links, Read more, generic and the mix), and in words why it has no cards (`problem`) or what was left
    out of it (`hidden_links`: mentions hidden as common words; `read_more_note`)."""

    query: Query
    cards: tuple[Neighbour, ...] = ()
    aspects: tuple[str, ...] = ()
    problem: str = ""
    hidden_links: tuple[str, ...] = ()
    read_more_note: str = ""


@dataclass(frozen=True)
class Absences:
    """Why the columns not drawn are absent, each as the queries it concerns: spaces built on an aspect the seed has
    no label of (`lacking`, with those aspects), spaces few of whose cards would share the seed's label (`echoing`,
    with their aspects), spaces under the judged bar (`not_drawn`: query → worth reading as a share of generic's),
    and the columns a free-text seed cannot have (`need_article`)."""

    lacking: tuple[Query, ...] = ()
    lacking_aspects: tuple[str, ...] = ()
    echoing: tuple[Query, ...] = ()
    echoing_aspects: tuple[str, ...] = ()
    not_drawn: Mapping[Query, float] = field(default_factory=dict)
    need_article: tuple[Query, ...] = ()


@dataclass(frozen=True)
class SeedView:
    """The answer: the seed (an article, or None for free `text`), the settings, the mix (None: nothing to mix), what
    the mix can weigh, the columns in reading order and the absences."""

    seed: Article | None
    text: str | None
    settings: ViewSettings
    mix: Blend | None
    mixable: tuple[str, ...]
    weighable: tuple[str, ...]
    links_weighable: bool
    columns: tuple[ColumnView, ...]
    absent: Absences


def seed_view(engine: Neighbourhood, seed: Article | None, text: str | None = None,
              settings: ViewSettings = ViewSettings()) -> SeedView:
    """Everything Explore shows for `seed` (or, with no article, the free `text`). A column that cannot answer is
    kept, empty, with the engine's reason, instead of failing the view."""
    mix = shown_mix(engine, seed, settings.blend)
    columns = tuple(_column(engine, query, seed, text, settings.k)
                    for query in _queries(engine, seed, mix, settings.read_more))
    return SeedView(seed, None if seed is not None else text, settings, mix, tuple(mixable_spaces(engine)),
                    tuple(weight_names(engine)) if engine.spaces else (), seed is not None and has_links(engine),
                    columns, absences(engine, seed, settings.read_more))


def _queries(engine: Neighbourhood, seed: Article | None, mix: Blend | None, read_more: bool) -> list[Query]:
    """Links (and Read more, when asked) and generic, the mix, then the spaces: for an article seed only those whose
    aspects it has (Neighbourhood.query_kinds); a free-text seed keeps every space and has neither links nor Read
    more."""
    queries = engine.query_kinds(for_text=seed is None, seed=seed)
    if read_more and seed is not None:
        links = sum(q.kind is Kind.LINKS for q in queries)
        queries = queries[:links] + engine.baseline_queries() + queries[links:]
    first = sum(q.kind in (Kind.LINKS, Kind.MORELIKE, Kind.GENERIC) for q in queries)
    return queries[:first] + ([Query.blended(mix)] if engine.spaces and mix is not None else []) + queries[first:]


def _column(engine: Neighbourhood, query: Query, seed: Article | None, text: str | None, k: int) -> ColumnView:
    try:
        cards = engine.neighbours(seed, query, k) if seed is not None else engine.neighbours_for_text(text, query, k)
    except AspectNavError as error:
        return ColumnView(query, problem=str(error))
    aspects = _promised_aspects(engine, query) if seed is not None else ()
    hidden = engine.links_of(seed).hidden if query == LINKS and seed is not None else ()
    note = engine.read_more(seed, len(cards) or 1).left_out if query.kind is Kind.MORELIKE else ""
    return ColumnView(query, tuple(cards), aspects, hidden_links=hidden, read_more_note=note)


def _promised_aspects(engine: Neighbourhood, query: Query) -> tuple[str, ...]:
    """The aspects a labelled column (aspect, union, intersection) ranks its cards up for sharing; none otherwise."""
    if query.kind not in (Kind.ASPECT, Kind.UNION, Kind.INTERSECTION):
        return ()
    (name,) = engine.resolve(query)
    return tuple(engine.spaces[name].aspects)


def absences(engine: Neighbourhood, seed: Article | None, read_more: bool = False) -> Absences:
    """Why each column Explore does not draw for `seed` is absent (see `Absences`)."""
    if seed is None:
        need = ([LINKS] if LINKS in engine.available_queries() else []) + \
            (engine.baseline_queries() if read_more else [])
        return Absences(need_article=tuple(need))
    never = engine.spaces_not_drawn()  # said once, in their own sentence
    lacking = [name for name in absent_aspect_spaces(engine, seed) if name not in never]
    echoing = [name for name in mixable_spaces(engine) if name in engine.spaces_not_worth_drawing(seed)
               and name not in never]
    undrawn = [name for name in mixable_spaces(engine) if name in never
               and all(seed_has_aspect(seed, aspect) for aspect in engine.spaces[name].aspects)]
    return Absences(
        lacking=tuple(engine.query_for(name) for name in lacking),
        lacking_aspects=tuple(dict.fromkeys(a for name in lacking for a in engine.spaces[name].aspects
                                            if not seed_has_aspect(seed, a))),
        echoing=tuple(engine.query_for(name) for name in echoing),
        echoing_aspects=tuple(dict.fromkeys(a for name in echoing for a in engine.spaces[name].aspects)),
        not_drawn={engine.query_for(name): never[name] for name in undrawn})
