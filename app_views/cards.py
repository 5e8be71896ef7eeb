"""What a result card shows: title, snippet (explore/corpus/snippet.py), score, shared labels and the
other columns that show the same article."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from explore.corpus.model import Article
from explore.corpus.snippet import snippet


@dataclass(frozen=True)
class Card:
    """One article in a column: enough to judge it and to make it the next seed."""

    id: str
    title: str
    snippet: str
    url: str = ""
    score: float | None = None
    shared: Mapping[str, list[str]] = field(default_factory=dict)
    also_in: tuple[str, ...] = ()  # labels of the other columns that show this article
    missing: tuple[str, ...] = ()  # "no shared country": the column's aspects this card shares no label of

    @property
    def bar(self) -> float:
        """The score as a bar's fill, 0..1 (a cosine can dip below 0)."""
        return min(max(float(self.score or 0.0), 0.0), 1.0)

    @property
    def shared_count(self) -> int:
        return sum(len(labels) for labels in self.shared.values())


def card_for(article: Article, seed: Article | None = None, score: float | None = None,
             shared: Mapping[str, list[str]] | None = None) -> Card:
    """A card for `article`; shared labels are taken from `shared`, else computed against `seed`."""
    if shared is None:
        shared = article.shared_labels(seed) if seed is not None else {}
    return Card(article.id, article.title, snippet(article.text), article.url, score, dict(shared))
