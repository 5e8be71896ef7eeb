"""The Corpus page's counts and label distributions, worked out once per copy of a corpus the server holds: per open
they cost the server about 35 ms on the vital corpus (every article's labels counted twice), for figures that only
change when the stored corpus does."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import streamlit as st

from explore.corpus import Corpus
from explore.corpus.registry import corpus_stamp


@dataclass(frozen=True)
class AspectSummary:
    """One aspect: how many articles carry a label of it, their share, and each label's count (most common first)."""
    name: str
    articles: int
    coverage: float
    label_counts: Mapping[str, int]


@dataclass(frozen=True)
class CorpusSummary:
    articles: int
    links: int
    aspects: tuple[AspectSummary, ...]

    @property
    def labels(self) -> int:
        """Distinct labels over every aspect."""
        return sum(len(aspect.label_counts) for aspect in self.aspects)


def corpus_summary(corpus: Corpus) -> CorpusSummary:
    """`corpus`'s summary, shared by every session (read-only): computed again when the stored corpus changes, as
    the corpus itself is read again then (app_views/corpus_choice.load_corpus)."""
    return _summary(corpus.name, corpus_stamp(corpus.name), corpus)


@st.cache_resource(max_entries=8, show_spinner=False)
def _summary(name: str, stamp: int | None, _corpus: Corpus) -> CorpusSummary:
    stats = _corpus.stats()
    return CorpusSummary(stats["articles"], stats["links"], tuple(
        AspectSummary(aspect, figures["articles"], figures["coverage"],
                      MappingProxyType(dict(_corpus.label_counts(aspect).most_common())))
        for aspect, figures in stats["aspects"].items()))
