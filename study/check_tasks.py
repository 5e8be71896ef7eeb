"""Attention and gold checks: tasks that look like any other but tell attentive participants apart.

An attention item's goal instructs ("To show you are reading, rank “Mount Fuji” first"); a gold task
is an ordinary task whose candidates include a decoy sharing no label with the seed and far from it
in the generic space, which an attentive participant never ranks first. The check's article joins the
candidate list credited to a check source, so the participant sees a plain blinded TaskScreen;
the analysis leaves check tasks out of the source comparison.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from explore.corpus.model import Corpus

# A decoy must be farther from the seed, in the generic space, than this share of the corpus.
DECOY_MIN_REMOTENESS = 0.9


class CheckKind(str, Enum):
    ATTENTION = "attention"
    GOLD = "gold"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Check:
    """`article`: a title in the study file, the article id once the study is checked against its corpus."""

    kind: CheckKind
    article: str

    @property
    def source_label(self) -> str:
        """What the stored candidate list credits the check's article to (never shown)."""
        return f"check:{self.kind}"

    def passed(self, ranking: tuple[str, ...] | list[str]) -> bool:
        """Attention: the instructed article is ranked first; gold: the decoy is not."""
        first = ranking[0] if ranking else None
        return first == self.article if self.kind is CheckKind.ATTENTION else first != self.article

    def describe(self, title: str) -> str:
        if self.kind is CheckKind.ATTENTION:
            return f"attention item: rank {title!r} first; fails when another article is ranked first"
        return f"gold task: decoy {title!r}; fails when the decoy is ranked first"

    def to_dict(self) -> dict:
        return {"kind": str(self.kind), "article": self.article}

    @classmethod
    def from_dict(cls, data: Mapping) -> "Check":
        return cls(CheckKind(data["kind"]), data["article"])


def shared_labels(corpus: Corpus, article_id: str, other_id: str) -> dict[str, list[str]]:
    """Aspect → the labels both articles carry."""
    first, second = corpus[article_id], corpus[other_id]
    shared = {aspect: sorted(set(first.labels(aspect)) & set(second.labels(aspect))) for aspect in corpus.aspect_names}
    return {aspect: labels for aspect, labels in shared.items() if labels}


def decoy_suggestions(corpus: Corpus, seed_id: str, remoteness: Mapping[str, float], count: int = 3) -> list[str]:
    """The articles sharing no label with the seed that are farthest from it (for an error message)."""
    unrelated = (a for a in remoteness if a != seed_id and not shared_labels(corpus, seed_id, a))
    return sorted(unrelated, key=lambda a: (-remoteness[a], a))[:count]
