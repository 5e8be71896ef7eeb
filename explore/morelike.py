"""Wikipedia's own "Read more": the status quo a reader gets today, as a baseline column, study source and
evaluation row (issue #50).

Wikipedia picks its three "Read more" cards with CirrusSearch's `morelike:` query: Elasticsearch's more-like-this
over the article's text (the seed's most distinctive terms by tf-idf, a few dozen at most, each in at least a few
other documents), scored with BM25, then rescored by popularity (incoming links). Here tantivy, an embedded
Lucene-like engine from PyPI, does the term selection (`more_like_this_document_fields_query`) and the BM25 scoring
over an on-disk index of every article's title and text; this module adds what it does not do: the popularity
rescore, leaving out the seed, disambiguation pages and copies of the seed's text, and a reason for every empty
answer.

Settings and why (CirrusSearch's `$wgCirrusSearchMoreLikeThisConfig` is the reference):
- max_query_terms 25 and min_doc_freq 2: as CirrusSearch.
- min_term_freq 1, not CirrusSearch's 2: it reads whole articles, where a term written twice is the subject; a
  corpus here holds leads, which name most things once (with 2, Mozart's Read more is Duke Ellington and Heinrich
  Heine, not his symphonies).
- both the title and the text are searched and queried, so a title's words count as Wikipedia's title field does.
- popularity: the BM25 score times log(2 + incoming links), CirrusSearch's classic rescore (Elasticsearch's `log2p`
  modifier on `incoming_links`, multiplied). tantivy's `weight_by_field` does exactly that over every hit (its log
  has base 2, Elasticsearch's base 10: the same order).
- at most MAX_SEED_CHARS of the seed's text are read (Lucene's more-like-this parses 5,000 tokens by default).
- tantivy's more-like-this has no `minimum_should_match` (CirrusSearch asks 30% of the terms): a hit matching
  few terms scores low, so it changes the order only far down the list.

The index depends only on ids, titles and texts, so it is kept under the corpus's content hash and rebuilt when
they change; popularity and disambiguation are read from the corpus when a seed is asked.
"""
from __future__ import annotations

import hashlib
import logging
import re
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explore.atomic_files import staging_directory_for, swap_directory_into_place
from explore.corpus.model import Article, Corpus
from explore.errors import AspectNavError
from explore.settings import data_home

log = logging.getLogger(__name__)

MAX_QUERY_TERMS = 25
MIN_DOC_FREQ = 2
MIN_TERM_FREQ = 1
EXTRA_HITS = 8  # hits asked beyond k: the seed, copies of it and disambiguation pages are left out
POPULARITY_FIELD = "incoming_links"
MAX_SEED_CHARS = 40_000  # ~5,000 English tokens
WRITER_HEAP_BYTES = 200_000_000
INDEX_FORMAT = 1
TOKENIZER = "en_stem"  # lower case, English Snowball stems, as CirrusSearch's English text field
FIELDS = ("title", "text")
_DISAMBIGUATION_TEXT = re.compile(r"^[^.\n]{0,200}\bmay (also )?refer to\b", re.IGNORECASE)


def english_stop_words() -> frozenset[str]:
    """Words never picked as query terms (scikit-learn's English list, already a dependency)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS)


def is_disambiguation(article: Article) -> bool:
    """A page that lists other pages of the same name: never a Read more card on Wikipedia."""
    return (article.title.endswith("(disambiguation)") or "disambiguation page" in article.description.lower()
            or bool(_DISAMBIGUATION_TEXT.match(article.text)))


@dataclass(frozen=True)
class ReadMoreCard:
    """One card: its corpus row, its rank by BM25 alone (1 = best match before popularity) and the rescored score."""

    row: int
    bm25_rank: int | None
    score: float


@dataclass(frozen=True)
class ReadMore:
    """The seed's Read more, best first; `left_out` says, in a reader's words, what was left out or why none."""

    cards: tuple[ReadMoreCard, ...]
    left_out: str = ""


def _schema():
    import tantivy

    builder = tantivy.SchemaBuilder()
    for name in FIELDS:
        builder.add_text_field(name, tokenizer_name=TOKENIZER, index_option="freq")
    builder.add_integer_field("row", indexed=True, fast=True)
    builder.add_integer_field(POPULARITY_FIELD, fast=True)
    return builder.build()


def index_directory(corpus: Corpus) -> Path:
    """Where the corpus's index lives: under the data home, by name, content hash and incoming links (its
    popularity field)."""
    links = hashlib.sha256(np.ascontiguousarray(incoming_counts(corpus), dtype=np.int64).tobytes()).hexdigest()[:8]
    return data_home() / "morelike" / f"{corpus.name}-{corpus.content_hash}-{links}-v{INDEX_FORMAT}"


def build_index(corpus: Corpus, directory: Path) -> float:
    """Write the index of every article's title and text to `directory` (atomically); the seconds it took."""
    import tantivy

    started = time.perf_counter()
    staging = staging_directory_for(directory)
    try:
        index = tantivy.Index(_schema(), path=str(staging))
        writer = index.writer(heap_size=WRITER_HEAP_BYTES, num_threads=1)
        for row, (article, incoming) in enumerate(zip(corpus.articles, incoming_counts(corpus))):
            writer.add_document(tantivy.Document(title=article.title, text=article.text, row=row,
                                                 **{POPULARITY_FIELD: int(incoming)}))
        writer.commit()
        writer.wait_merging_threads()
        swap_directory_into_place(staging, directory)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return time.perf_counter() - started


def directory_bytes(directory: Path) -> int:
    return sum(path.stat().st_size for path in Path(directory).rglob("*") if path.is_file())


class MoreLikeIndex:
    """Build or open with `for_corpus(corpus)`, then `read_more(article, k)`."""

    def __init__(self, corpus: Corpus, directory: Path):
        import tantivy

        self.corpus = corpus
        self.directory = Path(directory)
        self.schema = _schema()
        try:
            self._index = tantivy.Index.open(str(self.directory))
            self._index.reload()
        except (ValueError, OSError) as error:
            raise AspectNavError(f"The Read more index in {self.directory} cannot be opened ({error}); delete that "
                                 "folder and it is built again.") from None
        self._searcher = self._index.searcher()
        if self._searcher.num_docs != len(corpus):
            raise AspectNavError(f"The Read more index in {self.directory} holds {self._searcher.num_docs} articles "
                                 f"for {len(corpus)}; delete that folder and it is built again.")
        self._stop_words = sorted(english_stop_words())

    @classmethod
    def for_corpus(cls, corpus: Corpus) -> "MoreLikeIndex":
        """The corpus's index, built first when its content has none yet."""
        directory = index_directory(corpus)
        if not (directory / "meta.json").is_file():
            seconds = build_index(corpus, directory)
            log.info("Read more index of %s built in %.1f s.", corpus.name, seconds)
        return cls(corpus, directory)

    @property
    def size_bytes(self) -> int:
        return directory_bytes(self.directory)

    def read_more(self, article: Article, k: int = 3) -> ReadMore:
        """`article`'s Read more: up to k cards, the seed, disambiguation pages and copies of its text left out."""
        import tantivy

        query = tantivy.Query.more_like_this_document_fields_query(
            self.schema, {"title": [article.title], "text": [article.text[:MAX_SEED_CHARS]]},
            min_doc_frequency=MIN_DOC_FREQ, min_term_frequency=MIN_TERM_FREQ, max_query_terms=MAX_QUERY_TERMS,
            stop_words=self._stop_words)
        seed_row, seed_text = self.corpus.position[article.id], article.text.strip()
        asked = k + EXTRA_HITS
        while True:  # ask again for more when the pages left out ate the first answer
            hits = self._searcher.search(query, asked, count=False, weight_by_field=POPULARITY_FIELD).hits
            rows = self._rows(hits)
            kept, copies, lists = [], 0, 0
            for (score, _), row in zip(hits, rows):
                candidate = self.corpus.articles[row] if row != seed_row else None
                if candidate is None:
                    continue
                if seed_text and candidate.text.strip() == seed_text:
                    copies += 1
                elif is_disambiguation(candidate):
                    lists += 1
                else:
                    kept.append((row, float(score)))
                if len(kept) == k:
                    break
            if len(kept) == k or len(hits) < asked:
                break
            asked *= 4
        ranks = self._bm25_ranks(query, [row for row, _ in kept], asked, seed_row)
        cards = tuple(ReadMoreCard(row, ranks.get(row), score) for row, score in kept)
        return ReadMore(cards, _left_out_line(article, bool(cards), copies, lists))

    def _rows(self, hits) -> list[int]:
        return [int(row) for row in self._searcher.fast_field_values("row", [address for _, address in hits])]

    def _bm25_ranks(self, query, rows: list[int], asked: int, seed_row: int) -> dict[int, int]:
        """Each row's place by BM25 alone, before popularity (1 = the best match but the seed), among the first
        `asked` or more hits."""
        wanted, found = set(rows), {}
        limit = max(asked, 4 * len(rows))
        while wanted - set(found):
            hits = self._searcher.search(query, limit, count=False).hits
            others = [row for row in self._rows(hits) if row != seed_row]
            for rank, row in enumerate(others, start=1):
                if row in wanted:
                    found.setdefault(row, rank)
            if len(hits) < limit:
                break
            limit *= 4
        return found


def _left_out_line(article: Article, any_card: bool, copies: int, lists: int) -> str:
    parts = []
    if copies:
        parts.append(f"{copies} article{'s' * (copies > 1)} with the same text as this one left out")
    if lists:
        parts.append(f"{lists} disambiguation page{'s' * (lists > 1)} left out")
    if not any_card:
        words = len(re.findall(r"\w+", article.text))
        why = ("its text is empty" if not article.text.strip() else
               f"its text has {words} word{'s' * (words != 1)}" if words < 5 else
               "none of its words is shared with two or more other articles, or all are common words")
        parts.insert(0, f"No Read more for this article: {why}")
    return "; ".join(parts) + "." if parts else ""


def incoming_counts(corpus: Corpus) -> np.ndarray:
    """Links into each row, by row (a columnar corpus keeps them on disk)."""
    stored = getattr(corpus, "incoming_counts", None)
    if stored is not None:
        return np.asarray(stored, dtype=np.int64)
    incoming = corpus.incoming_links
    return np.array([incoming.get(article.id, 0) for article in corpus.articles], dtype=np.int64)


_OPEN: dict[tuple[int, str], MoreLikeIndex] = {}
_OPEN_LOCK = threading.Lock()


def morelike_index(corpus: Corpus) -> MoreLikeIndex:
    """The corpus's index, opened (or built) once per corpus object and content (the app serves from threads)."""
    key = (id(corpus), corpus.content_hash)
    with _OPEN_LOCK:
        index = _OPEN.get(key)
        if index is None or index.corpus is not corpus:
            if len(_OPEN) >= 8:
                _OPEN.pop(next(iter(_OPEN)))
            index = _OPEN[key] = MoreLikeIndex.for_corpus(corpus)
        return index
