"""Streamlit widgets over the session's ExploreView: seed picker, trail, k, columns per row, the mix.

Each widget is drawn from the view and writes back to it in its callback, so the view (not the
widget) holds the value: Streamlit forgets a widget's state on pages that do not draw it.
"""
from __future__ import annotations

import streamlit as st

from app_views.enter_key import enter_pressed
from app_views.markdown import escape_markdown
from app_views.mix import effective_mix, links_share, with_links_share, with_spaces
from app_views.url_state import MAX_K
from app_views.view_session import explore_view
from app_views.view_state import MAX_WEIGHT
from explore.corpus.model import Article, Corpus
from explore.corpus.title_search import fold
from explore.mix import has_links, mixable_spaces
from explore.neighbours import Neighbourhood
from explore.query import Blend
from explore.ranking import LINKS_COMPONENT

# Widget keys (Streamlit needs them; pages read the view, never these).
SEED_MODE_KEY = "seed_mode"
SEED_PICKER_KEY = "seed_picker"  # the title search box
SEED_PICKER_SHOWS = "seed_picker_shows"  # not a widget: the seed (and missing seed) the box was last set to
SEED_TEXT_KEY = "seed_text_input"
SUGGESTION_PREFIX = "suggestion-"  # + article id
AS_TEXT_KEY = "suggestion-as-text"
K_KEY = "k"
PER_ROW_KEY = "columns_per_row"
BLEND_PREFIX = "blend_"  # + space name
MIX_SPACES_KEY = "mix_spaces"
MIX_LINKS_KEY = "mix_links"
MIX_WEIGHTS_KEY = "mix_weights"  # the sidebar expander of the mix's weights


# --- the seed ---------------------------------------------------------------------------------------


ARTICLE_MODE, TEXT_MODE = "Article", "Free text"


SEARCH_LABEL = "Seed article: type a title (typos, accents and case are fine)"


def seed_picker(corpus: Corpus, prompt: str = SEARCH_LABEL) -> None:
    """Title search (typos, accents and case forgiven) with clickable matches, or a free-text seed; `prompt`
    says what the search is for on this page. Switching between the two leaves nothing of the other on screen."""
    view = explore_view()
    st.session_state[SEED_MODE_KEY] = TEXT_MODE if view.text_mode else ARTICLE_MODE
    st.radio("Seed", [ARTICLE_MODE, TEXT_MODE], horizontal=True, key=SEED_MODE_KEY, label_visibility="collapsed",
             on_change=_mode_switched)
    if view.text_mode:
        st.session_state[SEED_TEXT_KEY] = view.text or ""
        st.text_input("Describe what you want to read about", key=SEED_TEXT_KEY,
                      placeholder="e.g. a French painter of water lilies", on_change=_text_typed)
    else:
        _title_search(corpus, prompt)


def _mode_switched() -> None:
    explore_view().switch_mode(st.session_state[SEED_MODE_KEY] == TEXT_MODE)


def _text_typed() -> None:
    explore_view().set_seed(None, st.session_state[SEED_TEXT_KEY].strip() or None)


@st.fragment
def _title_search(corpus: Corpus, prompt: str = SEARCH_LABEL) -> None:
    """The search box and, while it holds something other than the seed's title, the titles it most
    likely means as buttons. Typing reruns this fragment only; a pick reruns the page. A URL's seed
    that names no article waits in the box, with the closest titles offered."""
    view = explore_view()
    seed = view.seed_article(corpus)
    shows = (view.seed_id, view.missing_seed)
    if SEED_PICKER_KEY not in st.session_state or st.session_state.get(SEED_PICKER_SHOWS) != shows:
        st.session_state[SEED_PICKER_KEY] = seed.title if seed else (view.missing_seed or "")
        st.session_state[SEED_PICKER_SHOWS] = shows
    query = st.text_input(prompt, key=SEED_PICKER_KEY,
                          type="search", live=True, placeholder="e.g. Marie Curie").strip()
    entered = (enter_pressed(SEED_PICKER_KEY) or "").strip()
    query = entered or query  # Enter may come before the last keystrokes' pause sent them
    if not query or (seed is not None and fold(query) == fold(seed.title)):
        return
    matches = corpus.title_search.search(query)
    if entered and matches:  # Enter takes the top suggestion
        view.set_seed(matches[0].ids[0])
        st.rerun()
    quoted = f"“{escape_markdown(query)}”"
    if view.missing_seed and query == view.missing_seed:
        st.warning(f"The link asks for {quoted}, but no article in this corpus has that title."
                   + (" Did you mean:" if matches else ""), icon=":material/help:")
    elif not matches:
        st.caption(f"No title looks like {quoted}.")
    with st.container(horizontal=True, gap="small"):
        for match in matches:
            for article_id in match.ids:
                article = corpus[article_id]
                label = f"{match.title} ({article_id})" if len(match.ids) > 1 else match.title
                if match.alias:  # found by another name: say which ("World War II · “WW2”")
                    label = f"{label} · “{match.alias}”"
                if st.button(escape_markdown(label), key=SUGGESTION_PREFIX + article_id,
                             type="primary" if match.exact else "secondary",
                             help=escape_markdown(article.description) or None):
                    view.set_seed(article_id)
                    st.rerun()
        if st.button(f"Read about {quoted} as free text", key=AS_TEXT_KEY, type="tertiary",
                     icon=":material/notes:"):
            view.set_seed(None, query)
            st.rerun()


def trail_bar(corpus: Corpus) -> None:
    """The seeds visited, like a browser's history: back and forward, and one crumb per seed (click
    one to go there; the current one in bold). Crumbs after the current seed stay, greyed and in
    italics, until a new seed replaces them. Drawn from the first seed on (back and forward greyed), so
    that a click never adds a new kind of control: the page keeps its layout and nothing has to load."""
    view = explore_view()
    trail = view.trail
    if not trail.seeds:
        return
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.button("Back", key="back", icon=":material/arrow_back:", on_click=view.back, disabled=trail.position < 1)
        st.button("Forward", key="forward", icon=":material/arrow_forward:", on_click=view.forward,
                  disabled=not trail.forward_part)
        for index, article_id in enumerate(trail.seeds):
            title = escape_markdown(corpus[article_id].title if article_id in corpus else article_id)
            here, ahead = index == trail.position, index > trail.position
            label = f"**:primary[{title}]**" if here else f":gray[*{title}*]" if ahead else title  # here, ahead, behind
            st.button(label, key=f"crumb-{index}", type="tertiary", icon=":material/chevron_right:", on_click=view.jump,
                      args=(index,))


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


def blend_sliders(engine: Neighbourhood | None, seed: Article | None) -> None:
    """The weights of the mix the "your mix" column ranks by, one by one, in an expander under the mix: one
    slider for the seed's links and one per space. A weight naming another corpus's space is kept, and said.
    Closed, it draws no slider."""
    view = explore_view()
    names = ([LINKS_COMPONENT] if has_links(engine) else []) + mixable_spaces(engine) if engine is not None else []
    if not names:
        return
    mix = effective_mix(engine, seed, view.blend)
    weights = mix.as_dict() if mix else {}
    weights_box = st.expander("Your mix: each weight", key=MIX_WEIGHTS_KEY, on_change="rerun")  # the pills say it
    if not weights_box.open:  # closed: its sliders are not drawn, so a seed change sends none of them
        return
    with weights_box:
        for name in names:
            st.session_state[BLEND_PREFIX + name] = min(weights.get(name, 0.0), MAX_WEIGHT)
            label = "links (linked from this article)" if name == LINKS_COMPONENT else name
            st.slider(label, 0.0, MAX_WEIGHT, step=0.05, key=BLEND_PREFIX + name, on_change=_weight_moved,
                      args=(name, mix))
        elsewhere = [name for name in (view.blend.names if view.blend else []) if name not in names]
        if elsewhere:
            st.caption(f"Kept for other corpora (no such space here): {escape_markdown(', '.join(elsewhere))}.")


def _weight_moved(name: str, mix: Blend | None) -> None:
    view = explore_view()
    view.blend = mix  # the mix on screen (the seed's default until now) is where the change starts
    view.set_weight(name, st.session_state[BLEND_PREFIX + name])


def mix_picker(engine: Neighbourhood | None, seed: Article | None) -> Blend | None:
    """The reader's mix, above the columns: the spaces that matter for this seed and, for an article
    seed, how much "linked from this article" counts. Returns what the "your mix" column ranks by:
    the seed's own aspects (and links) until the reader changes it."""
    view = explore_view()
    if engine is None or not engine.spaces:
        return None
    mix = effective_mix(engine, seed, view.blend)
    names = mixable_spaces(engine)
    links = seed is not None and has_links(engine)
    left, right = st.columns([3, 2], vertical_alignment="bottom") if links else (st.container(), None)
    st.session_state[MIX_SPACES_KEY] = [name for name in names if mix and name in mix.names]
    label = "Your mix: the spaces that matter for this seed" if mix else "Your mix: pick the spaces that matter"
    left.pills(label, names, selection_mode="multi", key=MIX_SPACES_KEY,
               on_change=_mix_spaces_picked, args=(engine, mix),
               help="The “your mix” column ranks by similarity in the spaces picked here. It starts from the "
                    "seed's own aspects.")
    if right is not None:
        st.session_state[MIX_LINKS_KEY] = round(links_share(mix), 2)
        right.slider("How much “linked from this article” counts", 0.0, 1.0, step=0.05, key=MIX_LINKS_KEY,
                     on_change=_mix_links_moved, args=(engine, seed, mix),
                     help="Link-based and text-based relatedness complement each other: 0 ranks by similarity "
                          "alone, 1 by the article's own links alone; in between, a linked article gets this much "
                          "on top of its similarity.")
    return mix


def _mix_spaces_picked(engine: Neighbourhood, mix: Blend | None) -> None:
    chosen = with_spaces(engine, mix, st.session_state[MIX_SPACES_KEY])
    if chosen is not None:  # nothing left to rank by: keep the mix (the pills show it again)
        explore_view().blend = chosen


def _mix_links_moved(engine: Neighbourhood, seed: Article | None, mix: Blend | None) -> None:
    chosen = with_links_share(engine, seed, mix, st.session_state[MIX_LINKS_KEY])
    if chosen is not None:
        explore_view().blend = chosen
