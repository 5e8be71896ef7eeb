"""Streamlit widgets over the session's ExploreView: the seed picker. k, the trail, the mix and the columns per row
are drawn by the explore panel (app_views/explore_panel); on Maps, k is one of the maps' settings (app_views/map_controls).

Each widget is drawn from the view and writes back to it in its callback, so the view (not the
widget) holds the value: Streamlit forgets a widget's state on pages that do not draw it.
"""
from __future__ import annotations

import streamlit as st

from app_views.enter_key import enter_pressed
from app_views.markdown import escape_markdown
from app_views.one_line_title import cut_title_hover, one_line_title
from app_views.view_session import explore_view
from explore.corpus.model import Corpus

# Widget keys (Streamlit needs them; pages read the view, never these).
SEED_MODE_KEY = "seed_mode"
SEED_PICKER_KEY = "seed_picker"  # the title search box
SEED_PICKER_SHOWS = "seed_picker_shows"  # not a widget: the seed (and missing seed) the box was last cleared for
SEED_TEXT_KEY = "seed_text_input"
SUGGESTION_PREFIX = "suggestion-"  # + article id
AS_TEXT_KEY = "suggestion-as-text"


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
    """The search box and, while it holds something, the titles it most likely means as buttons. Typing reruns
    this fragment only; a pick reruns the page. The box is for the next seed: it empties when the seed changes
    (the seed's own card names the seed), so a card click never has to redraw it. A URL's seed that names no
    article waits in the box, with the closest titles offered."""
    view = explore_view()
    shows = (view.seed_id, view.missing_seed)
    if SEED_PICKER_KEY not in st.session_state or st.session_state.get(SEED_PICKER_SHOWS) != shows:
        st.session_state[SEED_PICKER_KEY] = view.missing_seed or ""
        st.session_state[SEED_PICKER_SHOWS] = shows
    query = st.text_input(prompt, key=SEED_PICKER_KEY,
                          type="search", live=True, placeholder="e.g. Marie Curie").strip()
    entered = (enter_pressed(SEED_PICKER_KEY) or "").strip()
    query = entered or query  # Enter may come before the last keystrokes' pause sent them
    if not query:
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
                title = one_line_title(match.title)  # a button is one line: the whole title is its tooltip
                label = f"{title} ({article_id})" if len(match.ids) > 1 else title
                if match.alias:  # found by another name: say which ("World War II · “WW2”")
                    label = f"{label} · “{one_line_title(match.alias)}”"
                said = "\n\n".join(filter(None, (cut_title_hover(match.title), article.description)))
                if st.button(escape_markdown(label), key=SUGGESTION_PREFIX + article_id,
                             type="primary" if match.exact else "secondary",
                             help=escape_markdown(said) or None):
                    view.set_seed(article_id)
                    st.rerun()
        if st.button(f"Read about {quoted} as free text", key=AS_TEXT_KEY, type="tertiary",
                     icon=":material/notes:"):
            view.set_seed(None, query)
            st.rerun()
