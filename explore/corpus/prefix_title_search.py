"""Title search for a corpus too large to fold and scan per keystroke (explore/corpus/title_search.py scans
every title: ~20 ms at 10,000, seconds at a million): every word start of every folded title and alias,
sorted once when the corpus is written and memory-mapped, so a query is a few binary searches.

What a reader gets is TitleSearch's, tier for tier, where it can be had from sorted word starts: the title
or alias the query folds to; then titles whose words start with the query's words in any order (a whole word
before a word's start, then the better-linked article); a near spelling (typos) only when nothing has the
query's words, and then per word among the words that start with the same letter (a first letter mistyped is
not forgiven: that would mean a pass over the whole vocabulary). The query inside a word ("ondo" in
"London") is not searched. benchmarks/serving.py measures how often it gives the in-memory search's first
answer.
"""
from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from explore.corpus.title_search import (DEFAULT_LIMIT, EXACT, LONG_WORD, MIN_FUZZY_SCORE, MIN_SHOWN_SCORE,
                                         MIN_TYPO_WORD, MIN_WORD_SCORE, NEAR, WORD_START_WEIGHT, WORDS, TitleMatch,
                                         _cdist, _word_starts, fold, numbered_acronyms)
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

KEYS_FILE = "title_keys.arrow"  # per key: folded text, corpus row, alias ("" for the title)
TAILS_FILE = "title_tails.arrow"  # sorted word starts: text, key, offset in the key
VOCABULARY_FILE = "title_words.arrow"  # sorted distinct words (for near spellings)
FILES = (KEYS_FILE, TAILS_FILE, VOCABULARY_FILE)
# A query word whose word starts number more than this ("a", "the") is narrowed to its better-linked keys
# before the other words are checked: the check is per key, and a reader typing on gets a rarer word.
MAX_CANDIDATES = 5_000


class _Sorted(Sequence):
    """An Arrow string array as a sequence of str, for `bisect` (log2(4M) = 22 reads a search)."""

    def __init__(self, array: pa.Array):
        self.array = array

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, index):
        return self.array[index].as_py()

    def prefix_range(self, prefix: str) -> tuple[int, int]:
        """Rows whose text starts with `prefix`."""
        return bisect.bisect_left(self, prefix), bisect.bisect_left(self, prefix + "\U0010ffff")

    def word_range(self, word: str) -> tuple[int, int]:
        """Rows whose text is `word` or `word` followed by more words: folded text holds letters, digits
        and single spaces, and " " sorts before "!" and every letter or digit."""
        return bisect.bisect_left(self, word), bisect.bisect_left(self, word + "!")


_CHUNK = 65_536  # keys or word starts gathered as Python values before they become Arrow chunks


class _Columns:
    """Columns gathered in Arrow chunks: a few bytes a value (the text and an offset), not a Python object each, so
    the index of millions of titles and redirects is sorted in a fraction of the memory Python tuples took."""

    def __init__(self, **types: pa.DataType):
        self.types = types
        self.pending: dict[str, list] = {name: [] for name in types}
        self.chunks: dict[str, list[pa.Array]] = {name: [] for name in types}

    def add(self, *values) -> None:
        for column, value in zip(self.pending.values(), values):
            column.append(value)
        if len(column) >= _CHUNK:
            self._flush()

    def _flush(self) -> None:
        for name, kind in self.types.items():
            if self.pending[name]:
                self.chunks[name].append(pa.array(self.pending[name], kind))
                self.pending[name] = []

    def arrays(self) -> dict[str, pa.Array]:
        self._flush()
        return {name: pa.concat_arrays(self.chunks.pop(name)) if self.chunks[name] else pa.array([], kind)
                for name, kind in self.types.items()}


def _title_keys(title: str) -> list[tuple[str, str]]:
    """(alias, folded) of a title ("" for the title itself) and of its numbered acronyms, each folded text once."""
    keys: dict[str, str] = {}
    for alias, text in (("", title), *((acronym, acronym) for acronym in numbered_acronyms(title))):
        folded = fold(text)
        if folded and folded not in keys:
            keys[folded] = alias
    return [(alias, folded) for folded, alias in keys.items()]


def write_title_index(directory: Path, rows: Callable[[], Iterable[tuple[str, Sequence[str]]]]) -> None:
    """Fold every title (row order), then every alias, once and write the sorted word starts into `directory`.
    `rows()` gives each row's (title, aliases) in order; it is read twice (titles, then aliases), so a caller can
    stream them from disk. Memory: the keys and word starts as Arrow columns, sorted once."""
    keys = _Columns(text=pa.large_string(), row=pa.int32(), alias=pa.string())
    tails = _Columns(text=pa.large_string(), key=pa.int32(), start=pa.int32())
    count = 0

    def add(row: int, alias: str, folded: str) -> None:
        nonlocal count
        keys.add(folded, row, alias)
        for start in _word_starts(folded):
            tails.add(folded[start:], count, start)
        count += 1

    for row, (title, _) in enumerate(rows()):
        for alias, folded in _title_keys(title):
            add(row, alias, folded)
    for row, (title, names) in enumerate(rows()):
        if names:
            seen = {folded for _, folded in _title_keys(title)}
            for name in names:
                folded = fold(name)
                if folded and folded not in seen:
                    seen.add(folded)
                    add(row, name, folded)
    key_columns, tail_columns = keys.arrays(), tails.arrays()
    order = pc.sort_indices(tail_columns["text"])  # stable, by code point (UTF-8 bytes): the order bisect reads
    _write(directory / TAILS_FILE, {name: column.take(order) for name, column in tail_columns.items()})
    del tail_columns, order
    words = pc.unique(pc.list_flatten(pc.split_pattern(key_columns["text"], " ")))
    words = words.filter(pc.not_equal(words, "")).cast(pa.string())
    _write(directory / VOCABULARY_FILE, {"word": words.take(pc.sort_indices(words))})
    _write(directory / KEYS_FILE, key_columns)


def _write(path: Path, columns: dict[str, pa.Array]) -> None:
    table = pa.table(columns)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=len(table) or 1)  # one batch: zero-copy columns, no chunk lookups


def _read(path: Path) -> pa.RecordBatch:
    reader = pa.ipc.open_file(pa.memory_map(str(path), "r"))
    return reader.get_batch(0) if reader.num_record_batches else reader.schema.empty_table().to_batches()[0]


class PrefixTitleSearch:
    """TitleSearch's interface (`exact`, `search`, `closest`) over the memory-mapped word starts of
    `write_title_index`. `title_of(row)` and `id_of(row)` read the corpus; `weights[row]` (model.reader_weights:
    the source's prominent articles, then incoming links) breaks ties toward the article a reader means."""

    def __init__(self, directory: Path, title_of: Callable[[int], str], id_of: Callable[[int], str],
                 weights: np.ndarray):
        keys, tails = _read(directory / KEYS_FILE), _read(directory / TAILS_FILE)
        self._key_text = keys.column("text")
        self._key_row = keys.column("row").to_numpy()
        self._key_alias = keys.column("alias")
        self._tails = _Sorted(tails.column("text"))
        self._tail_key = tails.column("key").to_numpy()
        self._tail_start = tails.column("start").to_numpy()
        self._vocabulary = _Sorted(_read(directory / VOCABULARY_FILE).column("word"))
        self._title_of, self._id_of = title_of, id_of
        self._weights = np.asarray(weights)

    def exact(self, query: str, aliases: bool = False) -> list[TitleMatch]:
        """Titles that fold to the same text as `query`; with `aliases`, when no title does, the aliases that do."""
        keys = self._exact_keys(fold(query)).tolist()
        titles = [k for k in keys if not self._key_alias[k].as_py()]
        return [self._match(k, 100.0, True) for k in (titles or (keys if aliases else []))]

    def _exact_keys(self, key: str) -> np.ndarray:
        if not key:
            return np.zeros(0, dtype=np.int64)
        low, high = bisect.bisect_left(self._tails, key), bisect.bisect_right(self._tails, key)
        return self._tail_key[low:high][self._tail_start[low:high] == 0].astype(np.int64)

    def search(self, query: str, limit: int = DEFAULT_LIMIT, near: bool = True) -> list[TitleMatch]:
        """Best first: the title the query folds to; titles whose words start with the query's words (any
        order); when `near` and nothing has them, near spellings word by word."""
        words = fold(query).split()
        if not words or limit <= 0:
            return []
        exact = self._exact_keys(" ".join(words))
        keys, quality = self._word_matches(words)
        tier = np.full(len(keys), WORDS)
        if not len(keys) and not len(exact) and near:
            keys, quality = self._near_matches(words)
            tier = np.full(len(keys), NEAR)
        return self._ranked(np.concatenate([exact, keys]), np.concatenate([np.full(len(exact), 100.0), quality]),
                            np.concatenate([np.full(len(exact), EXACT), tier]), limit)

    def closest(self, query: str, limit: int = 5) -> list[str]:
        return list(dict.fromkeys(match.title for match in self.search(query, limit)))

    def _word_matches(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Keys having every query word as a word or a word's start, and the mean of 100 (a word) or
        WORD_START_WEIGHT x 100 (a start) over the query's words."""
        ranges = [self._tails.prefix_range(word) for word in words]
        rarest = int(np.argmin([high - low for low, high in ranges]))
        word = words[rarest]
        low, high = ranges[rarest]
        whole_low, whole_high = self._tails.word_range(word)
        keys = self._tail_key[low:high].astype(np.int64)
        quality = np.where((np.arange(low, high) >= whole_low) & (np.arange(low, high) < whole_high),
                           100.0, 100.0 * WORD_START_WEIGHT)
        if len(keys) > MAX_CANDIDATES:  # the better-linked whole words first, then starts
            kept = np.argpartition(-(quality * 1e9 + self._weights[self._key_row[keys]]), MAX_CANDIDATES)
            keys, quality = keys[kept[:MAX_CANDIDATES]], quality[kept[:MAX_CANDIDATES]]
        keys, quality = _best_per_key(keys, quality)
        others = words[:rarest] + words[rarest + 1:]
        if not others:
            return keys, quality
        texts = self._key_text.take(pa.array(keys)).to_pylist()
        total, kept = quality.copy(), np.ones(len(keys), dtype=bool)
        for word in others:
            for i, text in enumerate(texts):
                if kept[i]:
                    key_words = text.split()
                    score = 100.0 if word in key_words else (
                        100.0 * WORD_START_WEIGHT if any(w.startswith(word) for w in key_words) else 0.0)
                    kept[i] = score > 0
                    total[i] += score
        return keys[kept], total[kept] / len(words)

    def _near_matches(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Keys whose words are each the query word, its start, or (MIN_TYPO_WORD letters on) a near
        spelling of it that starts with the same letter; quality the mean of the words' scores. When no key has
        them all, the whole query spelled near a key that has one of them right."""
        found: dict[int, float] | None = None
        candidates: set[int] = set()
        for word in words:
            scores: dict[int, float] = {}
            low, high = self._tails.prefix_range(word)
            for key in self._tail_key[low:high].tolist():
                scores[key] = max(scores.get(key, 0.0), 100.0 * WORD_START_WEIGHT)
            whole_low, whole_high = self._tails.word_range(word)
            scores.update(dict.fromkeys(self._tail_key[whole_low:whole_high].tolist(), 100.0))
            if len(word) >= MIN_TYPO_WORD:
                first_low, first_high = self._vocabulary.prefix_range(word[0])
                choices = self._vocabulary.array[first_low:first_high].to_pylist()
                cutoff = MIN_FUZZY_SCORE if len(word) >= LONG_WORD else MIN_WORD_SCORE
                alike = np.maximum(_cdist(word, choices, fuzz.ratio, cutoff),
                                   _cdist(word, choices, OSA.normalized_similarity, cutoff / 100) * 100)
                for index in np.flatnonzero(alike):
                    spelled_low, spelled_high = self._tails.word_range(choices[index])
                    for key in self._tail_key[spelled_low:spelled_high].tolist():
                        scores[key] = max(scores.get(key, 0.0), float(alike[index]))
            candidates.update(list(scores)[:MAX_CANDIDATES])
            found = scores if found is None else {k: found[k] + s for k, s in scores.items() if k in found}
        if not found and candidates:  # "marie cury": the whole title spelled near, among those with a word right
            keys = np.fromiter(candidates, dtype=np.int64)
            texts = self._key_text.take(pa.array(keys)).to_pylist()
            query = " ".join(words)
            alike = np.maximum(_cdist(query, texts, fuzz.ratio, MIN_FUZZY_SCORE),
                               _cdist(query, texts, OSA.normalized_similarity, MIN_FUZZY_SCORE / 100) * 100)
            close = np.flatnonzero(alike >= MIN_FUZZY_SCORE)
            return keys[close], alike[close].astype(np.float64)
        keys = np.fromiter(found or {}, dtype=np.int64)
        return keys, np.array([found[k] / len(words) for k in keys.tolist()], dtype=np.float64)

    def _ranked(self, keys: np.ndarray, quality: np.ndarray, tier: np.ndarray, limit: int) -> list[TitleMatch]:
        shown = quality >= MIN_SHOWN_SCORE
        keys, quality, tier = keys[shown], quality[shown], tier[shown]
        if not len(keys):
            return []
        rows = self._key_row[keys]
        lengths = np.array([len(t) for t in self._key_text.take(pa.array(keys)).to_pylist()])
        is_alias = np.array([bool(a) for a in self._key_alias.take(pa.array(keys)).to_pylist()], dtype=bool)
        order = np.lexsort((rows, lengths, is_alias, -self._weights[rows], -np.round(quality), tier))
        matches, taken = [], set()
        for index in order.tolist():
            row = int(rows[index])
            if row in taken:
                continue  # found already, by a better key
            taken.add(row)
            matches.append(self._match(int(keys[index]), float(quality[index]), bool(tier[index] == EXACT)))
            if len(matches) == limit:
                break
        return matches

    def _match(self, key: int, score: float, exact: bool) -> TitleMatch:
        row = int(self._key_row[key])
        return TitleMatch(self._title_of(row), (self._id_of(row),), round(score, 1), exact,
                          self._key_alias[key].as_py())


def _best_per_key(keys: np.ndarray, quality: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each key once, with its best quality (a title can start with the word twice: "New New York")."""
    if not len(keys):
        return keys.astype(np.int64), quality
    order = np.lexsort((-quality, keys))
    keys, quality = keys[order], quality[order]
    first = np.concatenate([[True], keys[1:] != keys[:-1]])
    return keys[first].astype(np.int64), quality[first]
