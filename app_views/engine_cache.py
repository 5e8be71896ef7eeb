"""Streamlit: each corpus's neighbour engine, opened once per server and shared by every page and user.

A space trained while the server runs (the Evaluation page, or `aspectnav train`) changes the data home's
spaces; the next page run sees the changed stamp and reopens the engine, so the new column appears without a
restart."""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from app_views.encoding_progress import EncodingProgress
from explore.corpus.model import Corpus
from explore.errors import AspectNavError
from explore.neighbours import Neighbourhood
from explore.spaces import spaces_for


@dataclass(frozen=True)
class OpenedEngine:
    engine: Neighbourhood
    spaces_stamp: tuple  # SpaceRegistry.stamp() right after opening


def cached_engine(corpus: Corpus) -> Neighbourhood:
    """The engine every page of this server shares (raises AspectNavError when unusable). Opening it may
    encode a space that is not built yet: a bar with articles/s and the time left shows meanwhile."""
    slot = st.empty()
    progress = EncodingProgress(slot, corpus.name)
    try:
        opened = _engine(corpus.name, corpus.content_hash, _corpus=corpus, _progress=progress)
        if opened.engine.corpus is not corpus or opened.spaces_stamp != spaces_for(corpus, progress=False).stamp():
            forget_engines()  # another copy of the corpus (an aspect attached), or spaces trained or rebuilt meanwhile
            opened = _engine(corpus.name, corpus.content_hash, _corpus=corpus, _progress=progress)
    finally:
        slot.empty()
    return opened.engine


def load_engine(corpus: Corpus) -> tuple[Neighbourhood | None, str]:
    """The corpus's engine, or None and the reason it is unusable (in words, for the page to show)."""
    try:
        return cached_engine(corpus), ""
    except AspectNavError as error:
        return None, str(error)


def forget_engines() -> None:
    _engine.clear()


@st.cache_resource(show_spinner="Loading spaces…")
def _engine(name: str, content_hash: str, _corpus: Corpus, _progress: EncodingProgress) -> OpenedEngine:
    engine = Neighbourhood.open(_corpus, progress=_progress)
    return OpenedEngine(engine, spaces_for(_corpus, progress=False).stamp())
