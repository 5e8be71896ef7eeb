"""Explore: pick a seed, read its card, compare its neighbours in every space side by side.

The frame (app.py) has drawn the corpus picker, the credit and k, and adopted or written the URL.
"""
from __future__ import annotations

import streamlit as st

from app_views.article_reader import show_article
from app_views.columns import explore_columns, missing_spaces_hint
from app_views.corpus_choice import chosen_corpus
from app_views.engine_cache import load_engine
from app_views.markdown import escape_markdown, shared_chips
from app_views.view_session import explore_view
from app_views.view_widgets import blend_sliders, per_row_slider, seed_picker, trail_bar

view = explore_view()
corpus = chosen_corpus()
engine, engine_problem = load_engine(corpus)
st.title("Explore")
per_row_slider()
blend = blend_sliders(engine)

seed_picker(corpus)
trail_bar(corpus)
seed = view.seed_article(corpus)
if seed is None and not view.text:
    st.info("Pick a seed article above (type to search), or switch to free text.")
    st.stop()

if seed is not None:
    with st.container(border=True):
        show_article(seed)
else:
    st.subheader(f"Free text: “{escape_markdown(view.text)}”")
if engine_problem:
    st.warning(escape_markdown(engine_problem))
hint = missing_spaces_hint(corpus, engine)
if hint:
    st.caption(hint)

columns = explore_columns(corpus, engine, seed, view.text, view.k, blend)
for start in range(0, len(columns), view.per_row):
    row = columns[start:start + view.per_row]
    for place, column in zip(st.columns(view.per_row), row):
        with place:
            st.markdown(f"**{escape_markdown(column.heading)}**")
            if column.note:
                st.caption(escape_markdown(column.note))
            for card in column.cards:
                with st.container(border=True):
                    st.button(escape_markdown(card.title), key=f"card-{column.query}-{card.id}", type="tertiary",
                              on_click=view.set_seed, args=(card.id,), help="Explore from this article")
                    st.caption(escape_markdown(card.snippet))
                    meta = f"`{card.score:.3f}`" if card.score is not None else ""
                    st.markdown(" ".join(filter(None, [meta, shared_chips(card)])) or " ")
