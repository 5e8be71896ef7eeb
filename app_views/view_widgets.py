"""Streamlit widgets over the session's ExploreView: seed picker, trail, k, columns per row, blend.

Each widget is drawn from the view and writes back to it in its callback, so the view (not the
widget) holds the value: Streamlit forgets a widget's state on pages that do not draw it.
"""
from __future__ import annotations

import streamlit as st

from app_views.columns import blendable_spaces
from app_views.figures import selected_article
from app_views.markdown import escape_markdown
from app_views.url_state import MAX_K
from app_views.view_session import explore_view
from app_views.view_state import MAX_WEIGHT
from explore.corpus.model import Corpus
from explore.neighbours import Neighbourhood
from explore.query import Blend

# Widget keys (Streamlit needs them; pages read the view, never these).
SEED_MODE_KEY = "seed_mode"
SEED_PICKER_KEY = "seed_picker"
SEED_TEXT_KEY = "seed_text_input"
K_KEY = "k"
PER_ROW_KEY = "columns_per_row"
BLEND_PREFIX = "blend_"  # + space name


# --- the seed ---------------------------------------------------------------------------------------


def title_options(corpus: Corpus) -> tuple[list[str], dict[str, str]]:
    """Ids in title order and the label of each (titles shared by several articles get their id)."""
    return _title_options(corpus.name, corpus.content_hash, corpus)


@st.cache_resource(show_spinner=False)
def _title_options(name: str, content_hash: str, _corpus: Corpus) -> tuple[list[str], dict[str, str]]:
    labels = {}
    for article in _corpus:
        shared = len(_corpus.ids_by_title[article.title]) > 1
        labels[article.id] = f"{article.title} ({article.id})" if shared else article.title
    return sorted(labels, key=lambda i: labels[i].casefold()), labels


def seed_picker(corpus: Corpus) -> None:
    """Type-ahead over every title, or a free-text seed."""
    view = explore_view()
    ids, labels = title_options(corpus)
    mode = st.radio("Seed", ["Article", "Free text"], horizontal=True, key=SEED_MODE_KEY,
                    index=1 if view.text else 0, label_visibility="collapsed")
    if mode == "Article":
        st.session_state[SEED_PICKER_KEY] = view.seed_id if view.seed_id in labels else None
        st.selectbox("Seed article (type to search)", ids, format_func=labels.get, key=SEED_PICKER_KEY,
                     placeholder="Type a title, e.g. Marie Curie", on_change=_seed_picked)
    else:
        st.session_state[SEED_TEXT_KEY] = view.text or ""
        st.text_input("Describe what you want to read about", key=SEED_TEXT_KEY,
                      placeholder="e.g. a French painter of water lilies", on_change=_text_typed)


def _seed_picked() -> None:
    if st.session_state[SEED_PICKER_KEY]:
        explore_view().set_seed(st.session_state[SEED_PICKER_KEY])


def _text_typed() -> None:
    explore_view().set_seed(None, st.session_state[SEED_TEXT_KEY].strip() or None)


def trail_bar(corpus: Corpus) -> None:
    """Back, and one crumb per seed visited (click one to return to it); nothing before a second seed."""
    view = explore_view()
    seeds = view.trail.seeds
    if len(seeds) < 2:
        return
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button("← Back", key="back", on_click=view.back)
        for index, article_id in enumerate(seeds):
            title = corpus[article_id].title if article_id in corpus else article_id
            st.button(escape_markdown(title), key=f"crumb-{index}", type="tertiary", icon=":material/chevron_right:",
                      disabled=index == len(seeds) - 1, on_click=view.jump, args=(index,))


def reseed_from_chart(chart_key: str, corpus: Corpus) -> None:
    """A chart's on_select callback: the clicked point's article becomes the seed."""
    chosen = selected_article(st.session_state[chart_key].selection)
    if chosen in corpus:
        explore_view().set_seed(chosen)


# --- k, layout, blend (sidebar) ----------------------------------------------------------------------


def k_slider() -> None:
    """Cards per column on Explore, neighbours marked on Maps."""
    st.session_state[K_KEY] = explore_view().k
    st.sidebar.slider("Cards per column (k)", 1, MAX_K, key=K_KEY, on_change=_k_moved)


def _k_moved() -> None:
    explore_view().k = st.session_state[K_KEY]


def per_row_slider() -> None:
    st.session_state[PER_ROW_KEY] = explore_view().per_row
    st.sidebar.slider("Columns per row", 2, 10, key=PER_ROW_KEY, on_change=_per_row_moved)


def _per_row_moved() -> None:
    explore_view().per_row = st.session_state[PER_ROW_KEY]


def blend_sliders(engine: Neighbourhood | None) -> Blend | None:
    """One weight slider per blendable space of `engine`; returns the view's blend over those spaces
    (a blend naming only other corpora's spaces gives no custom column here, and is kept for them)."""
    view = explore_view()
    names = blendable_spaces(engine) if engine is not None else []
    weights = view.blend.as_dict() if view.blend else {}
    if names:
        with st.sidebar.expander("Blend spaces → custom column", expanded=bool(weights)):
            for name in names:
                st.session_state[BLEND_PREFIX + name] = min(weights.get(name, 0.0), MAX_WEIGHT)
                st.slider(name, 0.0, MAX_WEIGHT, step=0.1, key=BLEND_PREFIX + name, on_change=_weight_moved,
                          args=(name,))
            elsewhere = [name for name in weights if name not in names]
            if elsewhere:
                st.caption(f"Kept for other corpora (no such space here): {escape_markdown(', '.join(elsewhere))}.")
    here = {name: weight for name, weight in weights.items() if name in names}
    return Blend.of(here) if here else None


def _weight_moved(name: str) -> None:
    explore_view().set_weight(name, st.session_state[BLEND_PREFIX + name])
