"""Everything Explore shows for one seed, as the plain data the panel's script draws: the trail, the seed's card,
the lines on columns left out or untrained, the mix, and the columns. Streamlit-free and tested."""
from __future__ import annotations

from typing import Callable, Sequence

from app_views.columns import TRAIN_WHERE, Column, column_heading, left_out_runs, missing_spaces_runs
from app_views.explore_panel.grid import grid_data
from app_views.explore_panel.mix_controls import mix_data
from app_views.explore_panel.seed_card import free_text_data, seed_card_data
from app_views.explore_panel.trail_data import trail_data
from app_views.rich_line import to_data
from app_views.view_state import ExploreView
from explore.corpus.model import Article, Corpus
from explore.mix import seed_aspect_spaces
from explore.neighbours import Neighbourhood
from explore.query import MORELIKE
from explore.seed_view import SeedView


def panel_notes(corpus: Corpus, engine: Neighbourhood | None, shown: SeedView,
                maintainer: bool = False) -> list[list[dict]]:
    """The columns left out for this seed and, for a seed none of whose aspects has a space (so it gets no aspect
    column at all), which aspects lack one (and, for a `maintainer`, how to train it)."""
    seed = shown.seed
    notes = [left_out_runs(shown.absent, seed, corpus)]
    untrained = missing_spaces_runs(corpus, engine, seed, where=TRAIN_WHERE, maintainer=maintainer)
    if untrained and not (engine and seed and seed_aspect_spaces(engine, seed)):
        notes.append(untrained)
    return [to_data(line) for line in notes if line]


def panel_data(corpus: Corpus, engine: Neighbourhood | None, view: ExploreView, shown: SeedView,
               columns: Sequence[Column], href: Callable[[str], str], maintainer: bool = False) -> dict:
    """`shown` is what the engine answered for the view's seed (explore/seed_view.py), `columns` its columns drawn;
    `href(article_id)` an article's Explore address as the seed; a `maintainer` is also told how to train the spaces
    missing."""
    seed = shown.seed
    name = seed.title if seed is not None else (shown.text or "")
    return {
        "seed": name,
        "seed_card": (seed_card_data(seed, any(card.inferred for column in columns for card in column.cards))
                      if seed is not None else free_text_data(name)),
        "trail": trail_data(corpus, view.trail),
        "notes": panel_notes(corpus, engine, shown, maintainer),
        "mix": mix_data(shown, view.blend),
        "grid": grid_data(columns, view.per_row, href, name, view.k, view.read_more)
        | {"read_more_label": column_heading(MORELIKE, corpus)},
    }
