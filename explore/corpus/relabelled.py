"""A corpus with its articles' labels changed, in the layout it came in: a list for a corpus held in memory, a
lazy view for a columnar one, so storing it writes it columnar again a batch at a time (a corpus that is columnar
because it is large never becomes one read whole into memory on every open)."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from explore.corpus.columnar_store import ColumnarCorpus
from explore.corpus.model import Article, Corpus, Provenance

Relabel = Callable[[Article], Article]


class _RelabelledRows(Sequence):
    """The rows of a columnar corpus, each passed through `change` when read."""

    def __init__(self, rows: Sequence[Article], change: Relabel):
        self._rows, self._change = rows, change

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, row):
        if isinstance(row, slice):
            return [self._change(article) for article in self._rows[row]]
        return self._change(self._rows[row])

    def __iter__(self) -> Iterator[Article]:
        return map(self._change, self._rows)


class RelabelledColumnar(Corpus):
    """A columnar corpus seen with other labels: ids, titles and texts are the base's (its id lookup and incoming
    links serve unchanged), the articles are read from its files a row at a time."""

    def __init__(self, base: ColumnarCorpus, change: Relabel, name: str, provenance: Provenance):
        # no dataclass __init__: its duplicate-id check would hold every id; the base's ids were checked when written
        self.base, self.name, self.provenance = base, name, provenance
        self.articles = _RelabelledRows(base.articles, change)

    @property
    def position(self):  # type: ignore[override]
        return self.base.position

    @property
    def incoming_counts(self):
        return self.base.incoming_counts

    @property
    def content_hash(self) -> str:  # type: ignore[override]
        return self.base.content_hash


def relabelled(corpus: Corpus, change: Relabel, name: str | None = None,
               provenance: Provenance | None = None) -> Corpus:
    """`corpus` with every article passed through `change` (which changes labels only), named `name` (default: the
    same) with `provenance` (default: the same), in the layout `corpus` has."""
    name, provenance = name or corpus.name, provenance or corpus.provenance
    if isinstance(corpus, ColumnarCorpus):
        return RelabelledColumnar(corpus, change, name, provenance)
    return Corpus(name, [change(article) for article in corpus], provenance)


def is_columnar(corpus: Corpus) -> bool:
    """Whether `corpus` is stored columnar (memory-mapped) and is written so again."""
    return isinstance(corpus, (ColumnarCorpus, RelabelledColumnar))
