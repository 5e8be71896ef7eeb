"""Title search for every place a reader names an article: the type-ahead, a URL's seed, the Corpus
page, the CLI's "closest titles". Forgiving of case, accents, typos and word order ("MARIE cury" →
Marie Curie, "pele" → Pelé, "wolfgang mozart" → Wolfgang Amadeus Mozart), and searching an article's
aliases like its title ("Second World War", "WW2" → World War II), and a title followed or preceded by what
qualifies it ("paris france" → Paris, "mozart composer"), through rapidfuzz over keys folded once per corpus.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import OSA

# A near spelling scoring below this is noise: titles that merely share a few letters with the query.
MIN_FUZZY_SCORE = 80.0
# No suggestion under this score is offered, whatever found it: "ondo" inside "london" covers two thirds of the
# word (67), "hist" inside "prehistory" 40.
MIN_SHOWN_SCORE = 50.0
DEFAULT_LIMIT = 8
# How much the query matching the start of a title's word ("shakespear" → "william shakespeare") or
# the title's words in another order ("curie marie") counts against matching the whole title.
# rapidfuzz's WRatio and partial_ratio are not used: they also score a short title inside a long query
# ("ur" in "marie cury") or a few shared letters at a title's edge ("ele" of "pele" in "eleanor") high.
WORD_START_WEIGHT = 0.95
REORDERED_WEIGHT = 0.95
# A query word shorter than this must be typed right (a prefix of a title's word): "ww" is not a typo of "war".
MIN_TYPO_WORD = 4
# A typo in one word is forgiven from this score on: stricter than a whole title for a short word ("pele" is
# not "people"), as loose from LONG_WORD letters on (one transposition: "mozrat" → "mozart").
MIN_WORD_SCORE = 85.0
LONG_WORD = 6
# A title found through a qualifier ("paris france") counts this much of its words' match: below the titles that
# have every word typed.
QUALIFIED_WEIGHT = 0.9
# Words of a qualifier left out of its initials ("United States of America" → USA).
_INITIALS_SKIP = frozenset({"of", "the", "and", "de", "du", "des", "la", "le"})
# How a key was found, best first: the whole query; every query word the start of one of the key's words
# (any order: "mozart", "wolfgang mozart", "curie marie"); its words plus what qualifies its article ("paris
# france"); the query inside a word; a near spelling.
EXACT, WORDS, QUALIFIED, INSIDE, NEAR, MISS = range(6)

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def fold(text: str) -> str:
    """`text` as titles are compared: accents dropped, case folded, punctuation and runs of spaces
    made one space ("Pelé" and "pele", "Saint-Étienne" and "saint etienne" fold alike)."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return utils.default_process(bare.casefold())


def _roman_value(word: str) -> int | None:
    if not word or set(word) - _ROMAN.keys():
        return None
    values = [_ROMAN[char] for char in word]
    total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return total if total > 0 and _roman(total) == word else None


def _roman(number: int) -> str:
    out = ""
    for value, letters in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while number >= value:
            out, number = out + letters, number - value
    return out


def numbered_acronyms(title: str) -> tuple[str, ...]:
    """What readers type for a numbered title of two or more capitalised words: "World War II" →
    WWII, WW2; "Final Fantasy VII" → FFVII, FF7. Other titles have none (initials of a name or of
    "Holy Roman Empire" are too often someone else's)."""
    *words, last = re.split(r"[\s-]+", title.strip()) or [""]
    number = int(last) if last.isdigit() and len(last) <= 2 else _roman_value(last)
    if len(words) < 2 or not number or not all(word[:1].isupper() and word.isalpha() for word in words):
        return ()
    initials = "".join(word[0] for word in words)
    return tuple(dict.fromkeys([initials + _roman(number), initials + str(number)]))


def qualifier_words(phrases: Iterable[str]) -> set[str]:
    """The folded words a reader may add to a title to say which one they mean: every word of the article's
    description and labels ("capital of france", "composer"), and the initials of a name of two or more
    capitalised words ("United Kingdom" → uk)."""
    words: set[str] = set()
    for phrase in phrases:
        words.update(fold(phrase).split())
        named = [word for word in re.split(r"[\s-]+", str(phrase).strip()) if word.casefold() not in _INITIALS_SKIP]
        if len(named) >= 2 and all(word[:1].isupper() for word in named):
            words.add(fold("".join(word[0] for word in named)))
    words.discard("")
    return words


def _cdist(key: str, choices: list[str], scorer, cutoff: float = 0.0) -> np.ndarray:
    """`key` against every choice; scores under `cutoff` are 0 (and cost less: rapidfuzz stops early)."""
    return process.cdist([key], choices, scorer=scorer, processor=None, dtype=np.float32, workers=1,
                         score_cutoff=cutoff)[0]


def _inside_score(key: str, folded: str) -> float:
    """How much of the words around it the query found inside a title covers: "ondo" in "london" 67; a query shorter
    than MIN_TYPO_WORD inside a word is chance ("usa" in "jerusalem", "musa"): 0."""
    if len(key) < MIN_TYPO_WORD:
        return 0.0
    at = folded.find(key)
    start = folded.rfind(" ", 0, at) + 1
    end = folded.find(" ", at + len(key))
    return 100.0 * len(key) / ((len(folded) if end < 0 else end) - start)


def _word_starts(folded: str) -> list[int]:
    return [0] + [index + 1 for index, char in enumerate(folded) if char == " "]


@dataclass(frozen=True)
class TitleMatch:
    """A title found for a query, and how: `exact` when the query folds to the title (or to `alias`);
    `alias` is the article's other name that matched ("Second World War" for World War II), "" when
    the title did."""

    title: str
    ids: tuple[str, ...]
    score: float  # 0..100: how alike the folded query and the matched title or alias are (100: the same)
    exact: bool = False
    alias: str = ""


class TitleSearch:
    """Built once per corpus (titles and aliases folded up front, so a query costs a few vectorised
    passes over them: well under 20 ms for 10,000 titles on one core); queried as the reader types.

    `aliases` maps an article id to its other names; `weights` (e.g. incoming links) breaks ties
    between equally good matches toward the better-connected article ("mozart": the composer before
    *Symphony No. 41 (Mozart)*); `qualifiers` maps an article id to what tells it from its namesakes (its
    description and labels: "Capital of France", "France"), which a reader may type beside its title."""

    def __init__(self, ids_by_title: Mapping[str, Sequence[str]],
                 aliases: Mapping[str, Iterable[str]] | None = None, weights: Mapping[str, float] | None = None,
                 qualifiers: Mapping[str, Iterable[str]] | None = None):
        self._titles: list[str] = []  # per key: the title it finds, the ids, the alias ("" for the title)
        self._ids: list[tuple[str, ...]] = []
        self._aliases: list[str] = []
        self._folded: list[str] = []
        seen: set[tuple[str, str]] = set()

        def add(title: str, ids: tuple[str, ...], alias: str) -> None:
            folded = fold(alias or title)
            if folded and (folded, title) not in seen:
                seen.add((folded, title))
                self._titles.append(title)
                self._ids.append(ids)
                self._aliases.append(alias)
                self._folded.append(folded)

        title_of = {}
        for title, ids in ids_by_title.items():
            add(title, tuple(ids), "")
            title_of.update(dict.fromkeys(ids, title))
        for title, ids in ids_by_title.items():
            for acronym in numbered_acronyms(title):
                add(title, tuple(ids), acronym)
        for article_id, names in (aliases or {}).items():
            if article_id in title_of:
                for name in names:
                    add(title_of[article_id], (article_id,), name)
        weights = weights or {}
        self._weights = np.array([max(weights.get(i, 0.0) for i in ids) for ids in self._ids], dtype=np.float64)
        self._lengths = np.array([len(folded) for folded in self._folded])
        self._alphabetical = np.argsort(np.argsort(np.array(self._folded, dtype=object), kind="stable"))
        # each key from each of its words on ("william shakespeare", "shakespeare"), for word-start matches
        self._tails = [folded[start:] for folded in self._folded for start in _word_starts(folded)]
        self._tail_rows = np.array([row for row, folded in enumerate(self._folded) for _ in _word_starts(folded)],
                                   dtype=np.int64)
        # each key's words as indices into one vocabulary, keys in row order (for np.maximum.reduceat)
        vocabulary: dict[str, int] = {}
        words = [vocabulary.setdefault(word, len(vocabulary)) for folded in self._folded for word in folded.split()]
        self._vocabulary = np.array(list(vocabulary), dtype=str)
        self._vocabulary_list = list(vocabulary)
        self._key_words = np.array(words, dtype=np.int64)
        self._key_word_starts = np.concatenate([[0], np.cumsum([len(f.split()) for f in self._folded])[:-1]])
        self._qualified_by = self._qualifier_index(qualifiers or {})

    def _qualifier_index(self, qualifiers: Mapping[str, Iterable[str]]) -> dict[str, np.ndarray]:
        """Each qualifier word → the keys whose article it qualifies (a key of several articles: any of them)."""
        words_of = {article_id: qualifier_words(phrases) for article_id, phrases in qualifiers.items()}
        rows: dict[str, list[int]] = {}
        for row, ids in enumerate(self._ids):
            for word in set().union(*(words_of.get(article_id, ()) for article_id in ids)):
                rows.setdefault(word, []).append(row)
        self._qualifier_vocabulary = np.array(list(rows), dtype=str)
        return {word: np.array(keys, dtype=np.int64) for word, keys in rows.items()}

    def exact(self, query: str, aliases: bool = False) -> list[TitleMatch]:
        """Titles that fold to the same text as `query` (one, or several that differ in case or accents);
        with `aliases`, when no title does, the articles with an alias that does."""
        key = fold(query)
        rows = [row for row, folded in enumerate(self._folded) if key and folded == key]
        titles = [row for row in rows if not self._aliases[row]]
        return [self._match(row, 100.0, exact=True) for row in (titles or (rows if aliases else []))]

    def search(self, query: str, limit: int = DEFAULT_LIMIT, near: bool = True) -> list[TitleMatch]:
        """The titles a reader typing `query` most likely means, best first: a title or alias the query
        folds to; then those whose words start with the query's words, in any order (typos forgiven
        when `near`); then those containing it; then, when `near` and no title has the query's words,
        near spellings scoring at least MIN_FUZZY_SCORE; a word's typo is forgiven only when no title has the
        words spelled right. Nothing scoring under MIN_SHOWN_SCORE is offered. Equally good matches go to the
        heavier article first, then the shorter key."""
        key = fold(query)
        if not key or limit <= 0 or not self._folded:
            return []
        tier = np.full(len(self._folded), MISS, dtype=np.int8)
        quality = self._word_quality(key.split(), typos=False)
        if near and not np.any(quality > 0):  # a typo is forgiven only when no title has the words spelled right:
            quality = self._word_quality(key.split(), typos=True)  # "mozart" means Mozart, not Moat
        tier[quality > 0] = WORDS
        if not np.any(quality > 0) and len(key.split()) > 1:  # the title and what qualifies it ("paris france")
            qualified = self._qualified_quality(key.split(), typos=False)
            if near and not np.any(qualified > 0):
                qualified = self._qualified_quality(key.split(), typos=True)
            tier[qualified > 0], quality = QUALIFIED, qualified
        for row, folded in enumerate(self._folded):
            if key in folded:
                if folded == key:
                    tier[row] = EXACT
                elif tier[row] == MISS:
                    tier[row], quality[row] = INSIDE, _inside_score(key, folded)
        quality[tier == EXACT] = 100.0
        if near and not np.any(tier <= WORDS):  # near spellings only when no title has the query's words
            scores = self._scores(key)
            close = np.flatnonzero((scores >= MIN_FUZZY_SCORE) & (tier == MISS))
            close = close[np.argsort(-scores[close], kind="stable")][:limit]
            tier[close], quality[close] = NEAR, scores[close]
        rows = np.flatnonzero((tier < MISS) & (quality >= MIN_SHOWN_SCORE))
        is_alias = np.array([bool(self._aliases[row]) for row in rows], dtype=bool)  # the title, when as good
        order = np.lexsort((self._alphabetical[rows], self._lengths[rows], is_alias, -self._weights[rows],
                            -np.round(quality[rows]), tier[rows]))
        matches, taken = [], set()
        for row in rows[order]:
            if set(self._ids[row]) <= taken:
                continue  # the article was found already, by a better key
            taken.update(self._ids[row])
            matches.append(self._match(row, quality[row], exact=tier[row] == EXACT))
            if len(matches) == limit:
                break
        return matches

    def _word_quality(self, words: list[str], typos: bool) -> np.ndarray:
        """Per key: how well its words take every query word (0 if one is missing): 100 when each is one
        of them, less when it only starts one (WORD_START_WEIGHT) or by the typos forgiven in a word of
        MIN_TYPO_WORD letters or more."""
        bests = self._word_bests(words, typos)
        return np.where(bests.min(axis=0) > 0, bests.mean(axis=0), 0.0)

    def _word_bests(self, words: list[str], typos: bool) -> np.ndarray:
        """Per query word and key: how well the key's best word takes it (0: none does)."""
        bests = np.zeros((len(words), len(self._folded)))
        for number, word in enumerate(words):
            # a whole word before a word's start: "persn 4" means Person 4 more than Person 40
            alike = np.where(self._vocabulary == word, 100.0,
                             np.strings.startswith(self._vocabulary, word) * 100.0 * WORD_START_WEIGHT)
            if typos and len(word) >= MIN_TYPO_WORD:
                cutoff = MIN_FUZZY_SCORE if len(word) >= LONG_WORD else MIN_WORD_SCORE
                spelled = np.maximum(_cdist(word, self._vocabulary_list, fuzz.ratio, cutoff),
                                     _cdist(word, self._vocabulary_list, OSA.normalized_similarity, cutoff / 100) * 100)
                alike = np.maximum(alike, spelled)
            bests[number] = np.maximum.reduceat(alike[self._key_words], self._key_word_starts)
        return bests

    def _qualified_quality(self, words: list[str], typos: bool) -> np.ndarray:
        """Per key: QUALIFIED_WEIGHT times how well its words take the query words they take (0 unless they take
        one, and every other query word qualifies the key's article; the last may be a qualifier's start, as
        the reader is typing it)."""
        bests = self._word_bests(words, typos)
        qualifies = np.zeros(bests.shape, dtype=bool)
        for number, word in enumerate(words):
            heard = ([word] if number < len(words) - 1 else
                     self._qualifier_vocabulary[np.strings.startswith(self._qualifier_vocabulary, word)])
            for qualifier in heard:
                qualifies[number, self._qualified_by.get(str(qualifier), [])] = True
        titled = bests > 0
        fits = (titled | qualifies).all(axis=0) & titled.any(axis=0) & (qualifies & ~titled).any(axis=0)
        mean = bests.sum(axis=0) / np.maximum(titled.sum(axis=0), 1)
        return np.where(fits, QUALIFIED_WEIGHT * mean, 0.0)

    def _scores(self, key: str) -> np.ndarray:
        """Per key: the best of the whole key, the query as the start of one of its words, and its
        words reordered; each as letters left out or added (Indel) or swapped and mistyped (OSA)."""
        def alike(indel_choices, osa_choices, weight: float = 1.0) -> np.ndarray:
            cutoff = MIN_FUZZY_SCORE / weight  # only scores that can reach MIN_FUZZY_SCORE matter
            return np.maximum(_cdist(key, indel_choices, fuzz.ratio, cutoff),
                              _cdist(key, osa_choices, OSA.normalized_similarity, cutoff / 100) * 100) * weight

        # a word's start as long as the query (a letter swapped) and one longer (a letter left out)
        heads = alike([tail[: len(key) + 1] for tail in self._tails], [tail[: len(key)] for tail in self._tails],
                      WORD_START_WEIGHT)
        word_start = np.zeros(len(self._folded), dtype=np.float32)
        np.maximum.at(word_start, self._tail_rows, heads)
        reordered = _cdist(key, self._folded, fuzz.token_sort_ratio, MIN_FUZZY_SCORE / REORDERED_WEIGHT)
        return np.maximum.reduce([alike(self._folded, self._folded), word_start, reordered * REORDERED_WEIGHT])

    def closest(self, query: str, limit: int = 5) -> list[str]:
        """The titles of `search`, for messages that name the closest titles."""
        return list(dict.fromkeys(match.title for match in self.search(query, limit)))

    def _match(self, row: int, score: float, exact: bool) -> TitleMatch:
        return TitleMatch(self._titles[row], self._ids[row], round(float(score), 1), bool(exact), self._aliases[row])
