"""Where an article's labels of an aspect came from, as the UI, maps and CSV exports name it."""
from __future__ import annotations

from enum import Enum


class LabelSource(str, Enum):
    """The source of an aspect's labels. Parsed once from the stored string; `str()` gives it back."""

    DESCRIPTION = "description"  # the article's short description (Wikidata's, for Wikipedia articles)
    LEAD = "lead"  # the first sentence of the article's lead
    TABLE = "table"  # a public table matched by title (Pantheon 1.0, the vital lists): see the corpus's credits
    INFERRED = "inferred"  # not in the source data: guessed from nearby and linked articles

    def __str__(self) -> str:
        return self.value
