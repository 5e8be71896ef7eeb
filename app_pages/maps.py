"""Maps: t-SNE of a sample of two spaces side by side, coloured by an aspect's labels; click to reseed.

The frame (app.py) has drawn the corpus picker, the credit and k, and adopted or written the URL.
"""
from __future__ import annotations

import streamlit as st

from app_views.columns import map_plan, map_side, map_spaces, missing_spaces_hint, space_label
from app_views.corpus_choice import chosen_corpus
from app_views.engine_cache import load_engine
from app_views.figures import colour_map, map_figure
from app_views.markdown import escape_markdown
from app_views.view_session import explore_view
from app_views.view_widgets import reseed_from_chart, seed_picker
from explore.maps import DEFAULT_SAMPLE

view = explore_view()
corpus = chosen_corpus()
engine, engine_problem = load_engine(corpus)
st.title("Maps")
names = map_spaces(engine) if engine is not None else []
if not names:
    st.error(escape_markdown(engine_problem) if engine_problem else "No space to map: build one with "
             f"`python -m explore spaces build --corpus {corpus.name}`.")
    st.stop()

seed_picker(corpus)
seed = view.seed_article(corpus)
k = view.k

controls = st.columns(4)
others = [name for name in names if name != "generic"]
label = lambda name: space_label(engine, name)  # noqa: E731
left = controls[0].selectbox("Left space", names, key="map_left", format_func=label)
right = controls[1].selectbox("Right space", names, key="map_right", format_func=label,
                              index=names.index(others[0]) if others else 0)
aspects = corpus.aspect_names
right_aspects = [a for a in engine.spaces[right].aspects if a in aspects]
default_aspect = right_aspects[0] if right_aspects else None
colour_aspect = controls[2].selectbox(
    "Colour by", aspects or ["(none)"], key="map_colour",
    index=aspects.index(default_aspect) if default_aspect else 0, disabled=not aspects)
size = controls[3].number_input("Sample size", min_value=50, max_value=100_000, value=DEFAULT_SAMPLE, step=500,
                                key="map_sample")
if size > len(corpus):
    st.info(f"The corpus has {len(corpus):,} articles: the map shows all of them.")

hint = missing_spaces_hint(corpus, engine)
if hint:
    st.caption(hint)
plan = map_plan(engine, seed, (left, right), k, size)
sample = plan.sample
st.caption(f"{len(sample.rows):,} articles, the same in both maps. Hover for title and labels; the ★ is the seed, "
           f"◇ its {k} nearest neighbours in that space; click a point to make it the seed. "
           f"Seed and neighbours outside the random sample are placed beside their nearest sampled articles.")

columns = st.columns(2)
for side, (place, kind) in enumerate(zip(columns, (left, right))):
    with place:
        with st.spinner(f"Projecting {len(sample.base):,} articles of the {label(kind)} (t-SNE; cached "
                        f"on disk afterwards)…"):
            points = map_side(engine, plan, kind, seed, colour_aspect if aspects else None)
        key = f"map-{side}-{kind}-{seed.id if seed else ''}"
        st.plotly_chart(map_figure(points, f"{label(kind)} ({points.method})", colour_map(points.legend)),
                        key=key, on_select=lambda key=key: reseed_from_chart(key, corpus), selection_mode="points")
