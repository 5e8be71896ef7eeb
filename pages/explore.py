"""Explore: pick a seed, read its card, compare its neighbours in every space side by side."""
from __future__ import annotations

import streamlit as st

from explore.columns import explore_columns, missing_spaces_hint
from pages.common import (TEXT, TRAIL, aspect_chips, blend_sliders, blend_space_names, escape_markdown, go_back,
                          jump_to, k_slider, open_seed_page, seed_article, seed_picker, set_seed, shared_chips,
                          write_url)

corpus, engine, engine_problem = open_seed_page("Explore")

with st.sidebar:
    k = k_slider()
    per_row = st.slider("Columns per row", 2, 10, 7, key="columns_per_row")
    blend = blend_sliders(blend_space_names(engine))

seed_picker(corpus)
trail = st.session_state.get(TRAIL)
if trail and len(trail.seeds) > 1:
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button("← Back", key="back", on_click=go_back)
        for index, article_id in enumerate(trail.seeds):
            current = index == len(trail.seeds) - 1
            st.button(corpus[article_id].title if article_id in corpus else article_id, key=f"crumb-{index}",
                      type="tertiary", icon=":material/chevron_right:", disabled=current,
                      on_click=jump_to, args=(index,))

seed = seed_article(corpus)
text = st.session_state.get(TEXT)
write_url(corpus, k, blend)

if seed is None and not text:
    st.info("Pick a seed article above (type to search), or switch to free text.")
    st.stop()

if seed is not None:
    with st.container(border=True):
        st.subheader(seed.title)
        if seed.description:
            st.caption(escape_markdown(seed.description))
        st.markdown(aspect_chips(seed))
        st.markdown(escape_markdown(seed.text))
        if seed.url:
            st.markdown(f"[Read “{escape_markdown(seed.title)}” on Wikipedia]({seed.url})")
else:
    st.subheader(f"Free text: “{text}”")
if engine_problem:
    st.warning(engine_problem)
hint = missing_spaces_hint(corpus, engine)
if hint:
    st.caption(hint)

columns = explore_columns(corpus, engine, seed, text, k, blend)
for start in range(0, len(columns), per_row):
    row = columns[start:start + per_row]
    for place, column in zip(st.columns(per_row), row):
        with place:
            st.markdown(f"**{column.heading}**")
            if column.note:
                st.caption(column.note)
            for card in column.cards:
                with st.container(border=True):
                    st.button(card.title, key=f"card-{column.kind}-{card.id}", type="tertiary",
                              on_click=set_seed, args=(card.id,), help="Explore from this article")
                    st.caption(escape_markdown(card.snippet))
                    meta = f"`{card.score:.3f}`" if card.score is not None else ""
                    st.markdown(" ".join(filter(None, [meta, shared_chips(card)])) or " ")
