"""Explore: pick a seed, read its card, compare its neighbours in every space side by side."""
from __future__ import annotations

import streamlit as st

from explore.columns import explore_columns, missing_spaces_hint
from explore.url_state import DEFAULT_K, MAX_K
from pages.common import (BLEND_PREFIX, TEXT, TRAIL, aspect_chips, blend_space_names, escape_markdown, go_back,
                          jump_to, open_seed_page, seed_article, seed_picker, set_seed, shared_chips, write_url)

corpus, engine, engine_problem = open_seed_page("Explore")

with st.sidebar:
    st.session_state.setdefault("k", DEFAULT_K)
    k = st.slider("Cards per column (k)", 1, MAX_K, key="k")
    per_row = st.slider("Columns per row", 2, 10, 7, key="columns_per_row")
    blend = {}
    names = blend_space_names(engine)
    if names:
        with st.expander("Blend spaces → custom column", expanded=bool(st.session_state.get("blend_from_url"))):
            for name in names:
                st.session_state.setdefault(BLEND_PREFIX + name, 0.0)
                weight = st.slider(name, 0.0, 1.0, step=0.1, key=BLEND_PREFIX + name)
                if weight > 0:
                    blend[name] = weight

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
