"""What a result card shows: title, the lead's first ~150 characters, score and shared labels.

The research's user study showed each candidate as its title plus the first 150 characters of
the lead; the app does the same so that what people judge in the app matches the study.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from explore.corpus.model import Article

SNIPPET_CHARS = 150  # the research showed title + the first 150 characters (app cards and study alike)


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The first `limit` characters of `text`, cut at a word boundary, with an ellipsis if cut."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    # A single enormous word would leave nothing; then cut mid-word instead.
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + "…"


@dataclass(frozen=True)
class Card:
    """One article in a column: enough to judge it and to make it the next seed."""

    id: str
    title: str
    snippet: str
    url: str = ""
    score: float | None = None
    shared: Mapping[str, list[str]] = field(default_factory=dict)

    @property
    def shared_count(self) -> int:
        return sum(len(labels) for labels in self.shared.values())


def card_for(article: Article, seed: Article | None = None, score: float | None = None,
             shared: Mapping[str, list[str]] | None = None) -> Card:
    """A card for `article`; shared labels are taken from `shared`, else computed against `seed`."""
    if shared is None:
        shared = article.shared_labels(seed) if seed is not None else {}
    return Card(article.id, article.title, snippet(article.text), article.url, score, dict(shared))
