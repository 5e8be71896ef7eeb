"""Streamlit: each corpus's neighbour engine, opened once per server and shared by every page and user."""
from __future__ import annotations

import streamlit as st

from explore.corpus.model import Corpus
from explore.errors import AspectNavError
from explore.neighbours import Neighbourhood


def cached_engine(corpus: Corpus) -> Neighbourhood:
    """The engine every page of this server shares (raises AspectNavError when unusable)."""
    return _engine(corpus.name, corpus.content_hash, corpus)


def load_engine(corpus: Corpus) -> tuple[Neighbourhood | None, str]:
    """The corpus's engine, or None and the reason it is unusable (in words, for the page to show)."""
    try:
        return cached_engine(corpus), ""
    except AspectNavError as error:
        return None, str(error)


@st.cache_resource(show_spinner="Loading spaces…")
def _engine(name: str, content_hash: str, _corpus: Corpus) -> Neighbourhood:
    return Neighbourhood.open(_corpus, progress=False)
