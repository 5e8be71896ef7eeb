"""Title search for every place a reader names an article: the type-ahead, a URL's seed, the Corpus
page, the CLI's "closest titles". Forgiving of case, accents and typos ("MARIE cury" → Marie Curie,
"pele" → Pelé), through rapidfuzz over titles folded once per corpus.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from collections.abc import Mapping, Sequence

import numpy as np
from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import OSA

# A near spelling scoring below this is noise: titles that merely share a few letters with the query.
MIN_FUZZY_SCORE = 80.0
DEFAULT_LIMIT = 8
# How much the query matching the start of a title's word ("shakespear" → "william shakespeare") or
# the title's words in another order ("curie marie") counts against matching the whole title.
# rapidfuzz's WRatio and partial_ratio are not used: they also score a short title inside a long query
# ("ur" in "marie cury") or a few shared letters at a title's edge ("ele" of "pele" in "eleanor") high.
WORD_START_WEIGHT = 0.95
REORDERED_WEIGHT = 0.95


def fold(text: str) -> str:
    """`text` as titles are compared: accents dropped, case folded, punctuation and runs of spaces
    made one space ("Pelé" and "pele", "Saint-Étienne" and "saint etienne" fold alike)."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return utils.default_process(bare.casefold())


def _cdist(key: str, choices: list[str], scorer) -> np.ndarray:
    return process.cdist([key], choices, scorer=scorer, processor=None, dtype=np.float32, workers=1)[0]


def _word_starts(folded: str) -> list[int]:
    return [0] + [index + 1 for index, char in enumerate(folded) if char == " "]


@dataclass(frozen=True)
class TitleMatch:
    """A title found for a query, and how: `exact` when it folds to the query itself."""

    title: str
    ids: tuple[str, ...]
    score: float  # 0..100: how alike the folded query and title are (100: the same)
    exact: bool = False


class TitleSearch:
    """Built once per corpus (titles folded up front, so a query costs a few rapidfuzz passes over
    them: 5 to 25 ms for 10,000 titles on one core); queried as the reader types."""

    def __init__(self, ids_by_title: Mapping[str, Sequence[str]]):
        self._titles = list(ids_by_title)
        self._ids = [tuple(ids_by_title[title]) for title in self._titles]
        self._folded = [fold(title) for title in self._titles]
        self._lengths = np.array([len(folded) for folded in self._folded])
        # each title from each of its words on ("william shakespeare", "shakespeare"), for word-start matches
        self._tails = [folded[start:] for folded in self._folded for start in _word_starts(folded)]
        self._tail_rows = np.array([row for row, folded in enumerate(self._folded) for _ in _word_starts(folded)],
                                   dtype=np.int64)

    def exact(self, query: str) -> list[TitleMatch]:
        """Titles that fold to the same text as `query` (one, or several that differ in case or accents)."""
        key = fold(query)
        return [self._match(row, 100.0, exact=True) for row, folded in enumerate(self._folded) if key and folded == key]

    def search(self, query: str, limit: int = DEFAULT_LIMIT, near: bool = True) -> list[TitleMatch]:
        """The titles a reader typing `query` most likely means, best first: folded-equal titles, then
        titles that start with the query (shortest first), then titles containing it, then (when
        `near`) near spellings (typos, transposed words) scoring at least MIN_FUZZY_SCORE."""
        key = fold(query)
        if not key or limit <= 0 or not self._titles:
            return []
        scores = self._scores(key)
        tier = {row: 0 if folded == key else 1 if folded.startswith(key) else 2
                for row, folded in enumerate(self._folded) if key in folded}
        close = np.flatnonzero(scores >= MIN_FUZZY_SCORE) if near else np.array([], dtype=int)
        rows = set(tier) | set(close[np.argsort(-scores[close], kind="stable")][:limit].tolist())
        ranked = sorted(rows, key=lambda row: (tier.get(row, 3), 0.0 if tier.get(row) == 1 else -scores[row],
                                               self._lengths[row], self._folded[row]))
        return [self._match(row, scores[row], exact=tier.get(row) == 0) for row in ranked[:limit]]

    def _scores(self, key: str) -> np.ndarray:
        """Per title: the best of the whole title, the query as the start of one of its words, and its
        words reordered; each as letters left out or added (Indel) or swapped and mistyped (OSA)."""
        def alike(indel_choices, osa_choices) -> np.ndarray:
            return np.maximum(_cdist(key, indel_choices, fuzz.ratio),
                              _cdist(key, osa_choices, OSA.normalized_similarity) * 100)

        # a word's start as long as the query (a letter swapped) and one longer (a letter left out)
        heads = alike([tail[: len(key) + 1] for tail in self._tails], [tail[: len(key)] for tail in self._tails])
        word_start = np.zeros(len(self._titles), dtype=np.float32)
        np.maximum.at(word_start, self._tail_rows, heads * WORD_START_WEIGHT)
        reordered = _cdist(key, self._folded, fuzz.token_sort_ratio) * REORDERED_WEIGHT
        return np.maximum.reduce([alike(self._folded, self._folded), word_start, reordered])

    def closest(self, query: str, limit: int = 5) -> list[str]:
        """The titles of `search`, for messages that name the closest titles."""
        return [match.title for match in self.search(query, limit)]

    def _match(self, row: int, score: float, exact: bool) -> TitleMatch:
        return TitleMatch(self._titles[row], self._ids[row], round(float(score), 1), exact)
