"""The explore view's columns for one seed — Wikipedia links, generic, the reader's mix, the aspect
spaces the seed has, union, intersection — as cards that say why; and what the maps need from the
same engine.
The only module the app uses to ask the neighbour engine (explore/neighbours.py).
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import numpy as np

from app_views.cards import Card, card_for
from app_views.markdown import map_hover
from app_views.rich_line import RichLine, code, emphasis, plain, strong, to_markdown
from explore.commands import train_command
from explore.corpus.model import Article, Corpus
from explore.errors import AspectNavError
from explore.links_column import hidden_note
from explore.maps import (MapParams, MapPoints, Projection, ProjectionParams, Sample, map_points, project_samples,
                          projection, projection_key, select_sample, top_overlap)
from explore.map_neighbours import neighbour_ids
from explore.map_placement import placed_by_neighbours
from explore.mix import TEXT_GENERIC_SHARE
from explore.neighbours import Neighbourhood, seed_has_aspect
from explore.seed_view import Absences, ColumnView, SeedView, absences
from explore.query import LINKS, MORELIKE, Blend, Kind, Query
from explore.spaces.store import TRAINING_RECORD_FILE, read_training_record
from explore.ranking import LINKS_COMPONENT

READ_MORE = "Wikipedia's Read more"
READ_MORE_DESCRIPTION = ("What Wikipedia shows under an article today: the most distinctive words of its title and "
                         "text searched with BM25 (more-like-this), articles more linked-to ranked up. A baseline: no "
                         "aspect, no embedding; each card gives its place by text match alone.")
TEXT_MIX_NOTE = (f"Free text has no labels to pick spaces by: generic counts {TEXT_GENERIC_SHARE:.0%}, the aspect "
                 "spaces share the rest.")


@dataclass
class Column:
    query: Query
    heading: str
    cards: list[Card] = field(default_factory=list)
    note: str = ""  # what the column approximates, or why it is empty
    description: str = ""  # what the column is, in one plain sentence
    label: str = ""  # its short name, in a card's "also in" note


def column_heading(query: Query, corpus: Corpus | None = None) -> str:
    """A column's heading; the links column is "Wikipedia links" only for a corpus of Wikipedia text."""
    if query.kind is Kind.LINKS and corpus is not None and not corpus.from_wikipedia:
        return "Links"
    if query.kind is Kind.MORELIKE:
        return READ_MORE if corpus is None or corpus.from_wikipedia else "Read more (more like this)"
    if query.kind is Kind.ASPECT:
        return f"{query.name} space"
    if query.kind is Kind.BLEND:
        return "your mix"
    if query.name:
        return f"{query.kind} space {query.name}"
    return {Kind.LINKS: "Wikipedia links", Kind.GENERIC: "generic", Kind.UNION: "union space",
            Kind.INTERSECTION: "intersection space"}.get(query.kind, str(query))


def column_label(query: Query) -> str:
    """The column's name in a card's "also in" note."""
    if query.kind is Kind.BLEND:
        return "your mix"
    if query.kind is Kind.MORELIKE:
        return "Read more"
    return query.name if query.kind is Kind.ASPECT else str(query).replace(":", " ")


def _either(names: list[str], word: str = "or") -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def mix_description(blend: Blend, relevant_first: bool = False) -> str:
    """The mix in words: each part's share of the score (and, served relevant first, where its cards come from)."""
    parts = [("linked from this article" if name == LINKS_COMPONENT else f"{name} similarity", weight)
             for name, weight in blend.normalised().items()]
    where = " Cards come from the articles related to the seed, ranked up for each label they share with it." \
        if relevant_first else ""
    return "Your mix: " + " + ".join(f"{weight:.0%} {what}" for what, weight in parts) + "." + where + \
        " Change it above."


def _relevant_first(engine: Neighbourhood, kind: Kind, mix: Mapping[str, float] | None = None) -> float | None:
    """The generic share a column of `kind` ranking by `mix` is served with relevant first, None when it is served
    as it is."""
    policy = engine.relevant_first
    if policy is None or not policy.serves(kind) or not any(s.kind == "generic" for s in engine.spaces.values()):
        return None
    return policy.serving_for(kind, mix or {}, engine.corpus.name).generic_share


def column_description(engine: Neighbourhood, query: Query) -> str:
    """What a column is, in one sentence a new reader understands."""
    if query.kind is Kind.LINKS:
        return engine.links_description()
    if query.kind is Kind.MORELIKE:
        return READ_MORE_DESCRIPTION
    if query.kind is Kind.BLEND:
        return mix_description(query.blend, _relevant_first(engine, Kind.BLEND) is not None)
    try:
        (name,) = engine.resolve(query)
    except AspectNavError:
        return ""
    space = engine.spaces[name]
    aspects = list(space.aspects)
    if space.kind == "generic":
        return "Similar overall: the whole lead in one embedding, no aspect singled out."
    share = _relevant_first(engine, query.kind, {name: 1.0})
    if share is not None:
        return _served_description(space, aspects, share)
    if space.kind == "aspect":
        return f"Similar in {_either(aspects)}: trained to put articles with the same {_either(aspects)} label close."
    if space.kind == "union":
        if _trained_graded(space):
            return (f"Similar in any of {_either(aspects)}, sharing more of them ranked first: trained to put "
                    f"articles sharing {_either(aspects, 'and')} closest, then those sharing one.")
        return f"Similar in any of {_either(aspects)}: trained to put articles sharing a label of either close."
    if space.kind == "intersection":
        return (f"Similar in {_either(aspects, 'and')} at once: trained to put articles sharing a label of each "
                "close.")
    return f"The {space.kind} space {name}."


def _served_description(space, aspects: list[str], generic_share: float) -> str:
    """A labelled column served relevant first, in one sentence: where its cards come from and how they are ordered."""
    if len(aspects) == 1:
        up = f"ranked up when they share its {aspects[0]} label"
    else:
        up = f"ranked up for each of its {_either(aspects, 'and')} labels they share"
    return (f"Articles related to the seed (its nearest and its links), {up}; ordered {1 - generic_share:.0%} by "
            f"the {space.name} space, {generic_share:.0%} by overall similarity.")


def _trained_graded(space) -> bool:
    """Whether a union space was trained with the graded objective: its training record, read again only when
    the record changed (a page run asks on every rerun)."""
    try:
        stamp = (Path(space.directory_) / TRAINING_RECORD_FILE).stat().st_mtime_ns
    except (OSError, TypeError):
        stamp = None
    return _graded_record(str(space.directory_), stamp)


@functools.lru_cache(maxsize=64)
def _graded_record(directory: str, stamp: int | None) -> bool:
    try:
        return read_training_record(Path(directory)).get("config", {}).get("combine") == "graded"
    except AspectNavError:  # damaged since the space was opened: the registry leaves it out on the next open
        return False


def left_out_runs(absent: Absences, seed: Article | None, corpus: Corpus) -> RichLine:
    """One line for the columns left out (explore/seed_view.py's `Absences`): the spaces built on an aspect the seed
    has no label of, those that would only repeat generic, those under the judged bar, or the links column (and Read
    more, when the reader asked for it) for a free-text seed. Empty when none is."""
    if seed is None:
        needs = absent.need_article
        if not needs:
            return ()
        one = len(needs) == 1
        what = ["Links" if query.kind is Kind.LINKS else "Read more" for query in needs]
        return (plain(f"{_either(what, 'and')} need{'s' * (one and what[0] != 'Links')} an article seed, so the "
                      f"{_either([column_heading(query, corpus) for query in needs], 'and')} "
                      f"{'column is' if one else 'columns are'} left out."),)
    runs: RichLine = ()
    if absent.lacking:
        runs += (emphasis(seed.title), plain(f" has no {_either(list(absent.lacking_aspects))} label, so the "
                                             f"{_spaces_are(absent.lacking)} left out."))
    if absent.echoing:
        runs += (((plain(" "),) if runs else ()) + (plain("Few articles close to "), emphasis(seed.title),
                 plain(f" share its {_either(list(absent.echoing_aspects), 'and')}, so the "
                       f"{_spaces_are(absent.echoing)} left out: they would only repeat generic's articles.")))
    if absent.not_drawn:
        undrawn = list(absent.not_drawn)
        ratios = " and ".join(f"{absent.not_drawn[query]:.2f}" for query in undrawn)
        one = len(undrawn) == 1
        runs += (((plain(" "),) if runs else ()) + (plain(
            f"The {_spaces_are(undrawn)} not drawn as {'a column' if one else 'columns'}: on judged seeds "
            f"{'its' if one else 'their'} cards were worth reading {ratios} times as often as generic's; "
            f"{'it still weighs' if one else 'they still weigh'} in your mix."),))
    return runs


def _spaces_are(queries) -> str:
    spaces = [column_label(query) for query in queries]
    return f"{_either(spaces, 'and')} {'space is' if len(spaces) == 1 else 'spaces are'}"


def left_out_line(engine: Neighbourhood, seed: Article | None, read_more: bool = False) -> str:
    """left_out_runs as Markdown, for `seed` in `engine`."""
    return to_markdown(left_out_runs(absences(engine, seed, read_more), seed, engine.corpus))


MAP_KIND_ORDER = {"generic": 0, "aspect": 1, "union": 2, "intersection": 3}


def map_spaces(engine: Neighbourhood) -> list[str]:
    """Space names a map can show, the default pair first: generic, then the spaces Explore draws as columns before
    those under the judged bar, single-aspect spaces before combined ones, and among them the one that tells the
    most labels apart first (vital's country, 236 labels, then kind, field, occupation, century, topic): its map has
    the most structure to set beside generic's."""
    never = engine.spaces_not_drawn()
    labels = {name: sum(len(engine.corpus.label_counts(aspect)) for aspect in engine.spaces[name].aspects)
              for name in engine.spaces}
    return sorted(engine.spaces, key=lambda name: (name in never, MAP_KIND_ORDER.get(engine.spaces[name].kind, 4),
                                                   -labels[name], name))


def space_label(engine: Neighbourhood, name: str) -> str:
    kind = engine.spaces[name].kind
    return name if kind == name else f"{name} ({kind})"


def space_vectors(engine: Neighbourhood, name: str) -> np.ndarray:
    return engine.spaces[name].embeddings_


def space_key(engine: Neighbourhood, name: str) -> str:
    """Changes whenever the space's vectors may change: name, corpus content and encoder."""
    return projection_key(engine.spaces[name])


@dataclass(frozen=True)
class MapPlan:
    """What two side-by-side maps share: one sample, which always holds the seed and its neighbours (of the seed
    article, or of the free `text` when there is no article)."""

    sample: Sample
    neighbours: dict[str, list[str]]  # space name -> the seed's k neighbour ids in it
    text: str | None = None


def map_plan(engine: Neighbourhood, seed: Article | None, names: Sequence[str], k: int, size: int,
             text: str | None = None) -> MapPlan:
    """The maps' sample and the seed's neighbours in each space; a free `text` (no seed article) is encoded by
    each space's encoder (errors as Neighbourhood.neighbours_for_text raises them)."""
    corpus = engine.corpus
    text = None if seed is not None else text
    neighbours = {name: neighbour_ids(engine, name, k, seed, text) if seed or text else [] for name in names}
    required = ([corpus.position[seed.id]] if seed else []) + [corpus.position[i] for ids in neighbours.values()
                                                                for i in ids]
    return MapPlan(select_sample(len(corpus), int(size), required), neighbours, text)


OVERLAP_AT = 10


def map_overlap(engine: Neighbourhood, seed: Article, names: Sequence[str], n: int = OVERLAP_AT) -> RichLine:
    """One line: how far the two spaces agree on the seed's n nearest articles (Jaccard@n)."""
    first, second = (neighbour_ids(engine, name, n, seed) for name in names)
    shared = len(set(first) & set(second))
    return (strong(f"Top-{n} overlap (Jaccard@{n}): {top_overlap(first, second):.2f}"), plain(f" — {shared} of "),
            emphasis(seed.title), plain(f"'s {n} nearest articles are the same in both spaces (1: the same {n}; 0: "
                                        "none in common)."))


def map_projections(engine: Neighbourhood, plan: MapPlan, names: Sequence[str],
                    params: MapParams = ProjectionParams(), on_wait=None) -> list[Projection]:
    """The maps (t-SNE or UMAP, by `params`) of the plan's sample in each named space: stored ones read, the others computed side by
    side in worker threads while `on_wait({index: (fraction, stage)})` runs in the caller's thread (the page
    draws progress there; explore.maps.project_samples)."""
    return project_samples([(space_key(engine, name), space_vectors(engine, name)) for name in names], plan.sample,
                           params, on_wait)


def map_side(engine: Neighbourhood, plan: MapPlan, name: str, seed: Article | None, colour_aspect: str | None,
             params: MapParams = ProjectionParams(), projected: Projection | None = None,
             only: str | None = None, layout: np.ndarray | None = None) -> MapPoints:
    """The points of one space's map: t-SNE of the sample (`projected`, else read or computed now), seed and
    neighbours marked, a free-text seed placed by its neighbours in this space, the aspects of this space the
    seed lacks named, with hover labels that show the corpus's text as text. With `layout` (every article's
    place, explore/whole_map.py) the sample's points sit where the whole map puts them."""
    if projected is None:
        projected = projection(space_key(engine, name), space_vectors(engine, name), plan.sample, params)
    coords = layout[plan.sample.rows] if layout is not None else projected.coords
    points = map_points(engine.corpus, plan.sample, coords, colour_aspect, seed.id if seed else None,
                        plan.neighbours[name], projected.method, projected.cached, projected.source, only)
    extra = {}
    if plan.text and plan.neighbours[name]:
        at = {article_id: row for row, article_id in enumerate(points.ids)}
        rows = [engine.corpus.position[i] for i in plan.neighbours[name]]
        similarities = engine.spaces[name].similarities(engine.space_vector(None, name, plan.text), rows)
        extra = dict(text_seed=plan.text, text_placement=placed_by_neighbours(
            points.coords, [at[i] for i in plan.neighbours[name]], similarities))
    if seed is not None:
        extra["seed_lacks"] = tuple(a for a in engine.spaces[name].aspects if not seed_has_aspect(seed, a)) \
            if name in engine.spaces_seed_lacks(seed) else ()
    return replace(points, hover=map_hovers(engine.corpus, points.ids), **extra)


_HOVERS: dict[tuple, tuple[Corpus, list[str]]] = {}  # (corpus object, ids' digest) → its hover labels, the latest few


def map_hovers(corpus: Corpus, ids: Sequence[str]) -> list[str]:
    """Every map point's hover label (map_hover), kept for the latest few point lists of the same corpus object (a
    corpus read again, its labels perhaps changed, is another): a map of the whole corpus asks for the same 10,000
    labels on every seed and every page view (0.1 s each time). Callers must not change the list."""
    key = (id(corpus), hashlib.sha1("\n".join(ids).encode()).hexdigest())
    kept = _HOVERS.get(key)
    if kept is None or kept[0] is not corpus:
        if len(_HOVERS) >= 8:
            _HOVERS.pop(next(iter(_HOVERS)))
        kept = _HOVERS[key] = (corpus, [map_hover(corpus[article_id]) for article_id in ids])
    return kept[1]


TRAIN_WHERE = "on the Evaluation page (For maintainers)"  # where the app trains a space, for another page


def missing_spaces_runs(corpus: Corpus, engine: Neighbourhood | None, seed: Article | None = None,
                        where: str = "below", maintainer: bool = False) -> RichLine:
    """Which of the corpus's aspects have no space yet (with `seed`, only the aspects it has a label of); for a
    `maintainer`, also where the app trains one (`where`: "below", or a page's name) and the command that does.
    Readers are told which, never how: training writes to the data home. Empty when none."""
    from training.on_demand import aspects_without_space

    missing = aspects_without_space(corpus, engine.spaces.values() if engine else ())
    if seed is not None:
        missing = [aspect for aspect in missing if seed.has_aspect(aspect)]
    if not missing:
        return ()
    if not maintainer:
        return (plain(f"No space yet for aspect{'s' * (len(missing) > 1)} {', '.join(missing)}."),)
    if len(missing) == 1:
        return (plain(f"No space yet for aspect {missing[0]}. Train one {where}, or with "),
                code(train_command(corpus.name, missing[0])),
                plain(" (it builds the space too; the app shows it without a restart)."))
    commands: list = []
    for number, aspect in enumerate(missing):  # one command per aspect: each trains the space of its own
        if number:
            commands.append(plain(" and " if number == len(missing) - 1 else ", "))
        commands.append(code(train_command(corpus.name, aspect)))
    return (plain(f"No space yet for aspects {', '.join(missing)}. Train them {where}, or one each with "), *commands,
            plain(" (each builds its space too; the app shows them without a restart)."))


def missing_spaces_hint(corpus: Corpus, engine: Neighbourhood | None, seed: Article | None = None,
                        where: str = "below", maintainer: bool = False) -> str:
    """missing_spaces_runs as Markdown ("" when every aspect has a space)."""
    return to_markdown(missing_spaces_runs(corpus, engine, seed, where, maintainer))


def not_shared(query_kind: Kind, aspects: Sequence[str], seed: Article, shared: Mapping[str, list[str]]) -> tuple[str, ...]:
    """What a card in a labelled column does not share with the seed, in words ("no shared country"), so a
    high bar is never read as a shared label: an aspect or intersection column names each aspect without a
    shared label; a union column speaks only when the card shares none of its aspects."""
    lacking = [aspect for aspect in aspects if seed_has_aspect(seed, aspect) and not shared.get(aspect)]
    if not lacking:
        return ()
    if query_kind is Kind.UNION:
        return (f"no shared {_either(lacking)}",) if len(lacking) == len(aspects) else ()
    return tuple(f"no shared {aspect}" for aspect in lacking)


def shared_caption(seed: Article | None, aspects: Sequence[str]) -> str:
    """What a labelled column's cards are ranked up for sharing, in words: the seed's labels of its aspects
    ("also 18th century · France"); "" for a column about no aspect or a seed with none of its labels."""
    if seed is None:
        return ""
    parts = [", ".join(seed.labels(aspect, inferred=True)) for aspect in aspects if seed.labels(aspect, inferred=True)]
    return f"also {' · '.join(parts)}" if parts else ""


def _column(engine: Neighbourhood, column: ColumnView, seed: Article | None) -> Column:
    """A column of the seed view drawn: its cards with snippets and what each shares or lacks, its caption."""
    if column.problem:
        return _described(engine, column.query, note=column.problem)
    corpus, query = engine.corpus, column.query
    cards = [replace(card_for(corpus[n.id], seed, n.score), bm25_rank=n.bm25_rank) for n in column.cards]
    if column.aspects:
        cards = [replace(card, missing=not_shared(query.kind, column.aspects, seed, card.shared)) for card in cards]
    note = TEXT_MIX_NOTE if query.kind is Kind.BLEND and seed is None else shared_caption(seed, column.aspects)
    if query == LINKS and not cards:
        note = "This article links to no other article of the corpus."
    if query == LINKS and seed is not None:
        note = " ".join(filter(None, [note, hidden_note(corpus, column.hidden_links)]))
    if query == MORELIKE:
        note = column.read_more_note
    return _described(engine, query, cards, note)


def _described(engine: Neighbourhood, query: Query, cards: list[Card] | None = None, note: str = "") -> Column:
    return Column(query, column_heading(query, engine.corpus), cards or [], note, column_description(engine, query),
                  column_label(query))


def mark_repeats(columns: list[Column]) -> list[Column]:
    """Each card notes the other columns that show the same article: where the spaces agree."""
    where: dict[str, list[str]] = {}
    for column in columns:
        for card in column.cards:
            where.setdefault(card.id, []).append(column.label)
    for column in columns:
        column.cards = [replace(card, also_in=tuple(label for label in where[card.id] if label != column.label))
                        for card in column.cards]
    return columns


def draw_columns(engine: Neighbourhood, view: SeedView) -> list[Column]:
    """The seed view's columns as Explore draws them, each card noting the other columns that show it."""
    return mark_repeats([_column(engine, column, view.seed) for column in view.columns])
