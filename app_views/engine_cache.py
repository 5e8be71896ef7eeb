"""Streamlit: each corpus's neighbour engine, opened once per server and shared by every page and user.

The engine is opened outside any cached function: opening an unbuilt corpus draws its encoding bar in the
page of the session that opens it, and an element drawn inside `st.cache_resource` would be replayed into
every later session's page, where its container does not exist (CacheReplayClosureError). The cached
resource is only the shelf the opened engines sit on.

A space trained while the server runs (the Evaluation page, or `aspectnav train`) changes the data home's
spaces; the next page run sees the changed stamp and reopens the engine, so the new column appears without a
restart."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

import streamlit as st

from app_views.encoding_progress import EncodingProgress
from explore.corpus.model import Corpus
from explore.errors import AspectNavError, storage_error
from explore.neighbours import Neighbourhood
from explore.spaces import spaces_for


@dataclass(frozen=True)
class OpenedEngine:
    engine: Neighbourhood
    spaces_stamp: tuple  # SpaceRegistry.stamp() right after opening


@dataclass
class EngineShelf:
    """The server's opened engines by corpus name; one lock so two readers never open the same one twice."""

    engines: dict[str, OpenedEngine] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


@st.cache_resource(show_spinner=False)
def _shelf() -> EngineShelf:
    return EngineShelf()


def cached_engine(corpus: Corpus) -> Neighbourhood:
    """The engine every page of this server shares (raises AspectNavError when unusable). Opening it may
    encode a space that is not built yet: a bar with articles/s and the time left shows meanwhile."""
    # the progress bar's place, on every run: a page's elements then sit at the same places on the run that opens
    # the engine and on the next, so the next does not remount them (Maps' graphs would lose their WebGL scenes)
    slot = st.empty()
    shelf = _shelf()
    stamp = spaces_for(corpus, progress=False).stamp()
    opened = shelf.engines.get(corpus.name)
    if opened is not None and opened.engine.corpus is corpus and opened.spaces_stamp == stamp:
        return opened.engine
    if not shelf.lock.acquire(blocking=False):
        with slot, st.spinner(f"Another reader is opening the spaces of {corpus.name}…"):
            shelf.lock.acquire()
    try:
        opened = shelf.engines.get(corpus.name)  # opened meanwhile by the reader we waited for
        stamp = spaces_for(corpus, progress=False).stamp()
        if opened is None or opened.engine.corpus is not corpus or opened.spaces_stamp != stamp:
            # another copy of the corpus (an aspect attached), spaces trained or rebuilt meanwhile, or never opened
            engine = Neighbourhood.open(corpus, progress=EncodingProgress(slot, corpus.name))
            opened = OpenedEngine(engine, spaces_for(corpus, progress=False).stamp())
            shelf.engines[corpus.name] = opened
    finally:
        shelf.lock.release()
        slot.empty()
    return opened.engine


def load_engine(corpus: Corpus) -> tuple[Neighbourhood | None, str]:
    """The corpus's engine, or None and the reason it is unusable (in words, for the page to show)."""
    try:
        return cached_engine(corpus), ""
    except AspectNavError as error:
        return None, str(error)
    except OSError as error:  # the data home cannot hold the spaces: say so without server paths
        return None, str(storage_error(error, f"open the spaces of corpus {corpus.name!r}"))


def forget_engines() -> None:
    """Drop every opened engine (a space was trained or removed): the next page run opens them again."""
    shelf = _shelf()
    with shelf.lock:
        shelf.engines.clear()
