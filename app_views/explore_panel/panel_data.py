"""Everything Explore shows for one seed, as the plain data the panel's script draws: the trail, the seed's card,
the lines on columns left out or untrained, the mix, and the columns. Streamlit-free and tested."""
from __future__ import annotations

from typing import Callable, Sequence

from app_views.columns import TRAIN_WHERE, Column, left_out_runs, missing_spaces_runs
from app_views.explore_panel.grid import grid_data
from app_views.explore_panel.mix_data import mix_data
from app_views.explore_panel.seed_card import free_text_data, seed_card_data
from app_views.explore_panel.trail_data import trail_data
from app_views.rich_line import to_data
from app_views.view_state import ExploreView
from explore.corpus.model import Article, Corpus
from explore.mix import seed_aspect_spaces
from explore.neighbours import Neighbourhood

def panel_notes(corpus: Corpus, engine: Neighbourhood | None, seed: Article | None,
                maintainer: bool = False, read_more: bool = False) -> list[list[dict]]:
    """The columns left out for this seed and, for a seed none of whose aspects has a space (so it gets no aspect
    column at all), which aspects lack one (and, for a `maintainer`, how to train it)."""
    notes = [left_out_runs(engine or Neighbourhood(corpus, {}), seed, read_more)]
    untrained = missing_spaces_runs(corpus, engine, seed, where=TRAIN_WHERE, maintainer=maintainer)
    if untrained and not (engine and seed and seed_aspect_spaces(engine, seed)):
        notes.append(untrained)
    return [to_data(line) for line in notes if line]


def panel_data(corpus: Corpus, engine: Neighbourhood | None, view: ExploreView, seed: Article | None,
               columns: Sequence[Column], href: Callable[[str], str], maintainer: bool = False) -> dict:
    """`seed` is the view's article seed (None for a free-text one); `href(article_id)` an article's Explore
    address as the seed; a `maintainer` is also told how to train the spaces missing."""
    name = seed.title if seed is not None else (view.text or "")
    return {
        "seed": name,
        "seed_card": (seed_card_data(seed, any(card.inferred for column in columns for card in column.cards))
                      if seed is not None else free_text_data(name)),
        "trail": trail_data(corpus, view.trail),
        "notes": panel_notes(corpus, engine, seed, maintainer, view.read_more),
        "mix": mix_data(engine, seed, view.blend),
        "grid": grid_data(columns, view.per_row, href, name, view.k, view.read_more),
    }
