"""Explore: pick a seed, read its card, mix the spaces that matter for it, compare its neighbours in
every space the seed has side by side, each column and card saying why.

The frame (app.py) has drawn the corpus picker, the credit and k, and adopted or written the URL.
"""
from __future__ import annotations

import streamlit as st

from app_views.article_reader import show_article
from app_views.columns import explore_columns, left_out_line
from app_views.corpus_choice import chosen_corpus
from app_views.engine_cache import load_engine
from app_views.markdown import escape_markdown, shared_chips
from app_views.view_session import explore_view
from app_views.view_widgets import blend_sliders, mix_picker, per_row_slider, seed_picker, trail_bar
from explore.neighbours import Neighbourhood
from explore.query import Kind

view = explore_view()
corpus = chosen_corpus()
engine, engine_problem = load_engine(corpus)
st.title("Explore")
per_row_slider()

seed_picker(corpus)
trail_bar(corpus)
seed = view.seed_article(corpus)
blend_sliders(engine, seed)
if seed is None and not view.text:
    if not view.missing_seed:  # a missing seed already has its warning and suggestions above
        st.info("Pick a seed article above (type to search), or switch to free text.")
    st.stop()

if seed is not None:
    with st.container(border=True):
        show_article(seed)
else:
    st.subheader(f"Free text: “{escape_markdown(view.text)}”")
if engine_problem:
    st.warning(escape_markdown(engine_problem))

left_out = left_out_line(engine or Neighbourhood(corpus, {}), seed)
if left_out:
    st.caption(left_out)
mix = mix_picker(engine, seed)

columns = explore_columns(corpus, engine, seed, view.text, view.k, mix)
for start in range(0, len(columns), view.per_row):
    row = columns[start:start + view.per_row]
    for place, column in zip(st.columns(view.per_row), row):
        with place:
            st.markdown(f"**{escape_markdown(column.heading)}**")
            st.caption(" ".join(filter(None, [escape_markdown(column.description), escape_markdown(column.note)])))
            score_name = "mix score" if column.query.kind is Kind.BLEND else "similarity"
            for card in column.cards:
                with st.container(border=True):
                    st.button(escape_markdown(card.title), key=f"card-{column.query}-{card.id}", type="tertiary",
                              on_click=view.set_seed, args=(card.id,), help="Explore from this article")
                    st.caption(escape_markdown(card.snippet))
                    if card.score is not None:
                        st.progress(card.bar, text=f"{score_name} {card.score:.2f}")
                    also = f":small[:gray[also in: {escape_markdown(', '.join(card.also_in))}]]" if card.also_in else ""
                    details = "  \n".join(filter(None, [shared_chips(card), also]))  # one element: reruns stay fast
                    if details:
                        st.markdown(details)
