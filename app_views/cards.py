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
    inferred: frozenset[str] = frozenset()  # aspects of `shared` whose label this card's article has only inferred
    bm25_rank: int | None = None  # a Read more card's place by text match alone (it has no similarity to show)

    @property
    def bar(self) -> float:
        """The score as a bar's fill, 0..1 (a cosine can dip below 0)."""
        return min(max(float(self.score or 0.0), 0.0), 1.0)

    @property
    def shared_count(self) -> int:
        return sum(len(labels) for labels in self.shared.values())


# What "inferred" means, where a reader sees it (a chip's tooltip, the seed card's legend): 97% is the precision the
# inference keeps to on held-out labelled articles (README, "The embedded corpus").
INFERRED_HELP = "inferred: not in the source data; guessed from nearby and linked articles, about 97% precise"
INFERRED_LEGEND = ("Labels marked inferred are not in the source data: they were guessed from nearby and linked "
                   "articles, about 97% precise.")


def shared_with(seed: Article, article: Article) -> tuple[dict[str, list[str]], frozenset[str]]:
    """The labels `article` shares with `seed`, per aspect, inferred labels counting on either side (an inferred
    topic is all a famous article may have); and the aspects where `article`'s own label is inferred (the card
    marks what belongs to its article: the seed's card marks the seed's)."""
    shared, inferred = {}, set()
    for aspect, labels in seed.all_labels(inferred=True).items():
        common = [label for label in labels if label in article.labels(aspect, inferred=True)]
        if common:
            shared[aspect] = common
            if article.is_inferred(aspect):
                inferred.add(aspect)
    return shared, frozenset(inferred)


def card_for(article: Article, seed: Article | None = None, score: float | None = None) -> Card:
    """A card for `article`; the labels it shares with `seed` (inferred ones marked) when there is one."""
    shared, inferred = shared_with(seed, article) if seed is not None else ({}, frozenset())
    return Card(article.id, article.title, snippet(article.text), article.url, score, shared, inferred=inferred)
