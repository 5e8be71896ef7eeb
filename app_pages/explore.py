"""Explore: pick a seed, read its card, mix the spaces that matter for it, compare its neighbours in
every space the seed has side by side, each column and card saying why.

The frame (app.py) has drawn the corpus picker, the credit and k, and adopted or written the URL. Everything
that follows the seed is one fragment: a card click, a crumb, a mix pill or weight reruns it alone (and
mirrors the URL), not the frame and its sidebar.
"""
from __future__ import annotations

import streamlit as st

from app_views.article_reader import show_article
from app_views.card_grid import card_grid, grid_data
from app_views.columns import explore_columns, left_out_line, missing_spaces_hint
from app_views.corpus_choice import chosen_corpus, explore_hrefs
from app_views.engine_cache import load_engine
from app_views.markdown import escape_markdown
from app_views.view_session import explore_view, write_url
from app_views.view_widgets import blend_sliders, mix_picker, per_row_slider, seed_picker, trail_bar
from explore.corpus.model import Corpus
from explore.mix import seed_aspect_spaces
from explore.neighbours import Neighbourhood


@st.fragment
def seed_area(corpus: Corpus, engine: Neighbourhood | None, engine_problem: str) -> None:
    view = explore_view()
    write_url(corpus)  # a fragment rerun (a card click) changes the seed: the URL follows it
    seed_picker(corpus)
    trail_bar(corpus)
    seed = view.seed_article(corpus)
    if seed is None and not view.text:
        if not view.missing_seed:  # a missing seed already has its warning and suggestions above
            st.info("Pick a seed article above (type to search), or switch to free text.")
        return
    if seed is not None:
        with st.container(border=True, key="seed-card"):
            show_article(seed)
    else:
        st.subheader(f"Free text: “{escape_markdown(view.text)}”")
    if engine_problem:
        st.warning(escape_markdown(engine_problem))
    left_out = left_out_line(engine or Neighbourhood(corpus, {}), seed)
    if left_out:
        st.caption(left_out)
    # A seed none of whose aspects has a space gets no aspect column at all: say why, and how to train one.
    untrained = missing_spaces_hint(corpus, engine, seed, where="on the Evaluation page (*For maintainers*)")
    if untrained and not (engine and seed and seed_aspect_spaces(engine, seed)):
        st.caption(untrained)
    mix = mix_picker(engine, seed)
    blend_sliders(engine, seed)
    columns = explore_columns(corpus, engine, seed, view.text, view.k, mix)
    card_grid(grid_data(columns, view.per_row, explore_hrefs(corpus),
                        seed.title if seed is not None else view.text), view.set_seed)


corpus = chosen_corpus()
engine, engine_problem = load_engine(corpus)
st.title("Explore")
for left_out in (engine.left_out if engine is not None else ()):  # the reason (with server paths) is in the log
    st.warning(f"The space *{escape_markdown(left_out)}* is left out: its files are damaged. The server log "
               "names the file and how to restore it.")
per_row_slider()
seed_area(corpus, engine, engine_problem)
