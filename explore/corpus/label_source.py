"""Where an article's labels of an aspect came from, as the UI, maps and CSV exports name it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum


class LabelSource(str, Enum):
    """The source of an aspect's labels. Parsed once from the stored string; `str()` gives it back."""

    DESCRIPTION = "description"  # the article's short description (Wikidata's, for Wikipedia articles)
    LEAD = "lead"  # the first sentence of the article's lead
    TABLE = "table"  # a public table matched by title (Pantheon 1.0, the vital lists): see the corpus's credits
    INFERRED = "inferred"  # not in the source data: guessed from nearby and linked articles

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class LabelOrigin:
    """Where an aspect's labels came from, with the labels that source gave: another tool that replaces the labels
    (a Wikidata run, an attached file) leaves an origin that no longer matches them, so it is not claimed."""

    source: str
    labels: tuple[str, ...]

    def as_json(self) -> list:
        return [self.source, list(self.labels)]

    @classmethod
    def from_json(cls, value: list) -> "LabelOrigin":
        source, labels = value
        return cls(str(source), tuple(labels))


def origins(aspects: Mapping[str, Sequence[str]], sources: Mapping[str, "LabelSource | str"]) -> dict[str, LabelOrigin]:
    """The origins of `aspects`' labels from where each came from (aspects without a source get none)."""
    return {aspect: LabelOrigin(str(sources[aspect]), tuple(labels)) for aspect, labels in aspects.items()
            if aspect in sources}
