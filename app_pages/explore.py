"""Explore: pick a seed, read its card, mix the spaces that matter for it, compare its neighbours in
every space the seed has side by side, each column and card saying why.

The frame (app.py) has drawn the corpus picker, the credit and k, and adopted or written the URL. The seed search
is drawn once per page run; everything that follows the seed is one fragment holding one element, the explore
panel: a card click, a crumb or a change to the mix reruns that fragment alone (and mirrors the URL).
"""
from __future__ import annotations

import streamlit as st

from app_views.columns import draw_columns
from app_views.corpus_choice import chosen_corpus, explore_hrefs
from app_views.engine_cache import load_engine
from app_views.explore_panel import explore_panel
from app_views.explore_panel.events import PanelEvent, apply_event
from app_views.explore_panel.panel_data import panel_data
from app_views.maintainer_login import is_maintainer
from app_views.markdown import escape_markdown
from app_views.view_session import explore_view, write_url
from app_views.view_widgets import seed_picker
from explore.corpus.model import Corpus
from explore.neighbours import Neighbourhood
from explore.seed_view import ViewSettings, seed_view


@st.fragment
def seed_area(corpus: Corpus, engine: Neighbourhood | None, engine_problem: str) -> None:
    view = explore_view()
    write_url(corpus)  # a fragment rerun (a card click) changes the seed: the URL follows it
    seed = view.seed_article(corpus)
    if seed is None and not view.text:
        if not view.missing_seed:  # a missing seed already has its warning and suggestions above
            st.info("Pick a seed article above (type to search), or switch to free text.")
        return
    if engine_problem:
        st.warning(escape_markdown(engine_problem))
    asked = engine if engine is not None else Neighbourhood(corpus, {})  # no spaces: links still answer
    shown = seed_view(asked, seed, view.text, ViewSettings(view.k, view.blend, view.read_more))
    columns = draw_columns(asked, shown)

    def on_event(event: PanelEvent) -> None:
        apply_event(view, corpus, engine, seed, event)

    explore_panel(panel_data(corpus, engine, view, shown, columns, explore_hrefs(corpus), is_maintainer()), on_event)


corpus = chosen_corpus()
engine, engine_problem = load_engine(corpus)
st.title("Explore")
for left_out in (engine.left_out if engine is not None else ()):  # the reason (with server paths) is in the log
    st.warning(f"The space *{escape_markdown(left_out)}* is left out: its files are damaged. The server log "
               "names the file and how to restore it.")
seed_picker(corpus)
seed_area(corpus, engine, engine_problem)
