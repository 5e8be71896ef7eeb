"""Streamlit side of the explore view: the session's one `ExploreView` and its mirror in the URL."""
from __future__ import annotations

from collections.abc import Collection

import streamlit as st

from app_views.view_state import CORPUS_PARAM, ExploreView
from explore.corpus.model import Corpus

VIEW_KEY = "explore_view"  # the only session-state key the explore pages keep their state under


def explore_view() -> ExploreView:
    """This user's view (created on the session's first run)."""
    if not isinstance(st.session_state.get(VIEW_KEY), ExploreView):
        st.session_state[VIEW_KEY] = ExploreView()
    return st.session_state[VIEW_KEY]


def adopt_url(corpus: Corpus) -> list[str]:
    """The view takes the URL's seed, k and blend when the user loaded or typed it; returns problems."""
    return explore_view().adopt(st.query_params.to_dict(), corpus)


def write_url(corpus: Corpus, keep: Collection[str] = ()) -> None:
    """Mirror the view's seed, k and blend into the URL (the corpus picker keeps ?corpus=, the page its own
    `keep` parameters: the Maps page's MAP_PARAMS)."""
    view = explore_view()
    query = view.url_query(corpus)
    view.url_written = query
    for key in [key for key in st.query_params if key != CORPUS_PARAM and key not in query and key not in keep]:
        del st.query_params[key]
    for key, value in query.items():
        if st.query_params.get(key) != value:
            st.query_params[key] = value
