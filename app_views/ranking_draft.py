"""A participant's ranking while they build it: click candidates in order, each at most once, undo.

Streamlit-free, so the rules (no article twice, no more picks than ranks, undo, remove) are tested
without a browser; the study page keeps one draft per task in the session and submits `picks`.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RankingDraft:
    """The picks so far for one task: article ids, best first, at most `depth`, drawn from `shown`."""

    task_id: str
    depth: int
    shown: tuple[str, ...]
    picks: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.picks) == self.depth

    @property
    def next_rank(self) -> int | None:
        """The rank the next click gives (1-based), None once every rank is taken."""
        return None if self.complete else len(self.picks) + 1

    def rank_of(self, article_id: str) -> int | None:
        return self.picks.index(article_id) + 1 if article_id in self.picks else None

    def can_pick(self, article_id: str) -> bool:
        return not self.complete and article_id in self.shown and article_id not in self.picks

    def pick(self, article_id: str) -> None:
        """Give `article_id` the next rank; a second click on it, or a click once full, changes nothing."""
        if self.can_pick(article_id):
            self.picks.append(article_id)

    def remove(self, article_id: str) -> None:
        """Take one pick back; the later picks move up a rank."""
        if article_id in self.picks:
            self.picks.remove(article_id)

    def undo(self) -> None:
        if self.picks:
            self.picks.pop()

    def clear(self) -> None:
        self.picks.clear()
