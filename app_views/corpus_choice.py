"""Streamlit: which corpus the pages show — the sidebar picker (kept in the URL as ?corpus=), the
corpora loaded once per server, and the Wikipedia credit for the corpus in view."""
from __future__ import annotations

from typing import Callable
from urllib.parse import urlencode

import streamlit as st

from app_views.markdown import escape_markdown
from app_views.view_session import explore_view
from app_views.url_state import seed_param
from app_views.view_state import CORPUS_PARAM, DEFAULT_CORPUS
from explore.corpus import WIKIPEDIA_LICENSE, Corpus, list_corpora, open_corpus
from explore.corpus.registry import corpus_stamp
from explore.errors import AspectNavError

PICKER_KEY = "corpus_picker"  # the selectbox's widget key; the choice itself lives in the view


def load_corpus(name: str) -> Corpus:
    """The server's one copy of the corpus, read again when the stored corpus changed (an aspect attached)."""
    corpus, stamp = _load_corpus(name)
    if stamp != corpus_stamp(name):
        _load_corpus.clear()
        corpus, _ = _load_corpus(name)
    return corpus


@st.cache_resource(show_spinner="Loading corpus…")
def _load_corpus(name: str) -> tuple[Corpus, int | None]:
    corpus = open_corpus(name)
    return corpus, corpus_stamp(name)


def corpus_param(name: str) -> dict[str, str]:
    """The URL's ?corpus= for `name` (left out for the default corpus, so URLs stay short)."""
    return {} if name == DEFAULT_CORPUS else {CORPUS_PARAM: name}


def explore_hrefs(corpus: Corpus) -> Callable[[str], str]:
    """The Explore address (a query string) of this view with a given article as the seed: the cards' links.
    The view's part (k, blend) is worked out once for all the cards of a page."""
    view = explore_view()
    rest = {key: value for key, value in view.url_query(corpus).items() if key not in ("seed", "text")}
    base = corpus_param(corpus.name)
    return lambda article_id: "?" + urlencode(base | {"seed": seed_param(corpus.ids_by_title, article_id,
                                                                         corpus[article_id].title)} | rest)


def corpus_picker() -> Corpus:
    """The sidebar's corpus picker; a corpus named in the URL wins. Returns the chosen corpus."""
    view = explore_view()
    names = list_corpora()
    wanted = st.query_params.get(CORPUS_PARAM)
    if wanted in names:
        view.switch_corpus(wanted)
    if view.corpus not in names:
        view.switch_corpus(DEFAULT_CORPUS)
    st.session_state[PICKER_KEY] = view.corpus
    st.sidebar.selectbox("Corpus", names, key=PICKER_KEY, on_change=_picked)
    _mirror_corpus(view.corpus)
    return load_corpus(view.corpus)


def chosen_corpus() -> Corpus:
    """The corpus the picker chose on this run (the frame draws the picker before the page runs)."""
    return load_corpus(explore_view().corpus)


def _picked() -> None:
    explore_view().switch_corpus(st.session_state[PICKER_KEY])
    for key in ("seed", "text"):  # the old corpus's seed; k and blend carry over
        if key in st.query_params:
            del st.query_params[key]
    _mirror_corpus(st.session_state[PICKER_KEY])


def _mirror_corpus(name: str) -> None:
    wanted = corpus_param(name).get(CORPUS_PARAM)
    if wanted and st.query_params.get(CORPUS_PARAM) != wanted:
        st.query_params[CORPUS_PARAM] = wanted
    elif not wanted and CORPUS_PARAM in st.query_params:
        del st.query_params[CORPUS_PARAM]


def study_corpus() -> Corpus | None:
    """The corpus of the study this instance serves, or None while the study cannot be read (the
    study pages say why)."""
    from study.configured import configured_study  # the study stack (SQLAlchemy) loads only on study pages

    try:
        return load_corpus(configured_study(st.secrets).corpus)
    except AspectNavError:
        return None


def wikipedia_credit(corpus: Corpus | None) -> None:
    """The credit every page carries: Wikipedia's CC BY-SA for a corpus of Wikipedia text, the corpus's own
    source otherwise (a corpus of other texts is not Wikipedia's to credit)."""
    source = (f"Source: {escape_markdown(corpus.provenance.source)} ({escape_markdown(corpus.provenance.date)})."
              if corpus is not None else "")
    if corpus is None or corpus.from_wikipedia:
        st.sidebar.caption(f"{WIKIPEDIA_LICENSE}. {source}".strip())
    else:
        st.sidebar.caption(f"Texts of the corpus *{escape_markdown(corpus.name)}*. {source}")
