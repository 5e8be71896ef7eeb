"""Maps: t-SNE of a sample of two spaces side by side, coloured by an aspect's labels; a click marks the
article in both maps and offers to map or explore from it.

The frame (app.py) has drawn the corpus picker, the credit and k, and adopted or written the URL.
"""
from __future__ import annotations

import streamlit as st

from app_views.columns import (map_overlap, map_plan, map_projections, map_side, map_spaces, missing_spaces_hint,
                                space_label)
from app_views.corpus_choice import chosen_corpus, corpus_param
from app_views.engine_cache import load_engine
from app_views.figures import colour_map, map_figure, selected_article
from app_views.markdown import code_span, escape_markdown
from app_views.view_session import explore_view
from app_views.view_widgets import seed_picker
from explore.commands import build_space_command
from explore.maps import DEFAULT_SAMPLE, TOP_LABELS

HIGHLIGHT = "map_highlight"  # (seed id, clicked article id): the article marked in both maps
# Projection.source in words: in the map's title, then in the caption below it
SOURCES = {"shipped": ("shipped", "shipped with AspectNav, checksum verified"),
           "cache": ("cached", "read from the cache in your data home"),
           "computed": ("just computed", "projected just now, cached for next time")}
STAGES = {"early exaggeration": "separating clusters"}  # tsne's progress stages a reader would not know


def _clicked(chart_key: str, seed_id: str | None) -> None:
    """A chart's on_select callback: mark the clicked article in both maps (a click on nothing unmarks)."""
    chosen = selected_article(st.session_state[chart_key].selection)
    st.session_state[HIGHLIGHT] = (seed_id, chosen) if chosen else None


def _map_from(article_id: str) -> None:
    st.session_state[HIGHLIGHT] = None
    explore_view().set_seed(article_id)


def _show_progress(bars, titles: list[str], articles: int, state: dict[int, tuple[float, str]]) -> None:
    """Each map's t-SNE progress; called in the script's own thread while worker threads compute."""
    for side, (fraction, stage) in state.items():
        bars[side].progress(fraction, text=f"t-SNE map of {articles:,} articles in {titles[side]}: "
                                           f"{STAGES.get(stage, stage)}, {fraction:.0%}")


view = explore_view()
corpus = chosen_corpus()
engine, engine_problem = load_engine(corpus)
st.title("Maps")
names = map_spaces(engine) if engine is not None else []
if not names:
    st.error(escape_markdown(engine_problem) if engine_problem else "No space to map: build one with "
             f"{code_span(build_space_command(corpus.name))}.")
    st.stop()

seed_picker(corpus)
seed = view.seed_article(corpus)
k = view.k

controls = st.columns(4)
others = [name for name in names if name != "generic"]
label = lambda name: space_label(engine, name)  # noqa: E731
if len(names) > 1:
    left = controls[0].selectbox("Left space", names, key="map_left", format_func=label)
    right = controls[1].selectbox("Right space", names, key="map_right", format_func=label,
                                  index=names.index(others[0]) if others else 1)
    sides = (left, right)
else:  # one space: one map (the same space twice would compare nothing)
    sides = (names[0],)
    right = names[0]
    st.info(f"Only the {escape_markdown(label(names[0]))} space is built, so there is one map and nothing to compare "
            "it with. " + (missing_spaces_hint(corpus, engine) or ""))
aspects = corpus.aspect_names
right_aspects = [a for a in engine.spaces[right].aspects if a in aspects]
default_aspect = right_aspects[0] if right_aspects else None
colour_aspect = controls[2].selectbox(
    "Colour by", aspects or ["(none)"], key="map_colour",
    index=aspects.index(default_aspect) if default_aspect else 0, disabled=not aspects)
colour_aspect = colour_aspect if aspects else None
size = controls[3].number_input("Sample size", min_value=50, max_value=100_000, value=DEFAULT_SAMPLE, step=500,
                                key="map_sample")
if size > len(corpus):
    st.info(f"The corpus has {len(corpus):,} articles: the map shows all of them.")

plan = map_plan(engine, seed, sides, k, size)
sample = plan.sample
st.caption(f"{len(sample.rows):,} articles, the same in both maps: ★ the seed, ◇ its {k} nearest neighbours in "
           f"that space. Hover for title and labels; click a point to mark it in both maps. Seed and neighbours "
           f"outside the random sample are placed beside their nearest sampled articles.")
if seed is not None and len(sides) == 2:
    st.markdown(map_overlap(engine, seed, sides))

seed_id = seed.id if seed else None
marked = st.session_state.get(HIGHLIGHT)
highlight = marked[1] if marked and marked[0] == seed_id and marked[1] in corpus else None
with st.container(horizontal=True, vertical_alignment="center"):
    if highlight is None:
        st.markdown("Click a point to mark it in both maps.")
    else:
        title = escape_markdown(corpus[highlight].title)
        st.markdown(f"Marked in both maps (red ring): **{title}**")
        st.button(f"Map from {title}", key="map_from", on_click=_map_from, args=(highlight,),
                  icon=":material/scatter_plot:")
        st.page_link("app_pages/explore.py", label=f"Explore from {title}", icon=":material/explore:",
                     query_params=view.url_query(corpus, seed_id=highlight) | corpus_param(corpus.name))

columns = st.columns(len(sides))
bars = [place.empty() for place in columns]
titles = [label(kind) for kind in sides]
projected = map_projections(engine, plan, sides,
                            on_wait=lambda state: _show_progress(bars, titles, len(sample.base), state))
for bar in bars:
    bar.empty()
shown = []
for side, (place, kind) in enumerate(zip(columns, sides)):
    with place:
        points = map_side(engine, plan, kind, seed, colour_aspect, projected=projected[side])
        shown.append(points)
        key = f"map-{side}-{kind}-{seed_id or ''}"
        short, said = SOURCES.get(points.source, (points.source, points.source))
        st.plotly_chart(map_figure(points, f"{label(kind)} · {points.method}, {short}", colour_map(points.ranks),
                                   highlight),
                        key=key, on_select=lambda key=key: _clicked(key, seed_id), selection_mode="points")
        st.caption(f"t-SNE of {len(sample.base):,} articles: {said}.")

if colour_aspect:
    aspect = escape_markdown(colour_aspect)
    st.caption(f"Colours: the {TOP_LABELS} most common {aspect} labels of the whole corpus, each always in the same "
               f"colour (across seeds and in both maps); mid grey: other {aspect} labels; faint light grey: no "
               f"{aspect} label ({shown[0].unlabelled_share:.0%} of these points). Click a legend entry to hide it.")
