"""Placing a point t-SNE did not project (a free-text seed, an article outside the sample) on a map: at the
similarity-weighted mean of its nearest neighbours' positions in the space the map shows, the position
openTSNE's own `transform` starts from. Instant and stable; the page says that this is how it got there.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

FAR_APART = 0.1  # neighbours whose mean distance to the placed point exceeds this share of the map's width
MIN_WEIGHT = 1e-3  # a neighbour at zero or negative cosine still counts a little: a mean needs weights


def neighbour_weights(similarities: np.ndarray) -> np.ndarray:
    """Cosine similarities → weights that sum to 1 along the last axis (negative ones floored)."""
    weights = np.clip(np.asarray(similarities, dtype=np.float64), MIN_WEIGHT, None)
    return weights / weights.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class Placement:
    """Where a point sits on a map, the map rows it was placed by and their cosine similarities to it, and how
    far those rows lie from it on average (`spread`: large when they disagree, so the point sits between
    regions rather than in one)."""

    x: float
    y: float
    rows: tuple[int, ...]
    similarities: tuple[float, ...]
    spread: float

    def describe(self, what: str, coords: np.ndarray | None = None) -> str:
        """How the point got there, in words, for the page (`what` names the point); given the map's `coords`,
        also whether its neighbours lie far apart on it (then the point sits between them, in none of their
        regions)."""
        said = (f"{what} is not a point of this t-SNE map: it is placed at the similarity-weighted mean of the "
                f"positions of its {len(self.rows)} nearest articles (◇) in this space")
        if coords is not None and len(coords) and self.spread > FAR_APART * float(np.ptp(coords, axis=0).max()):
            said += "; they lie far apart here, so it sits between them rather than among them"
        return said


def placed_by_neighbours(coords: np.ndarray, rows: Sequence[int], similarities: Sequence[float]) -> Placement:
    """The placement of a point whose nearest map rows are `rows` with cosine `similarities` to it."""
    if len(rows) == 0:
        raise ValueError("A point is placed by its neighbours on the map: it has none.")
    if len(rows) != len(similarities):
        raise ValueError(f"{len(rows)} neighbours but {len(similarities)} similarities: one each.")
    positions = np.asarray(coords, dtype=np.float64)[list(rows)]
    xy = neighbour_weights(np.asarray(similarities)) @ positions
    spread = float(np.linalg.norm(positions - xy, axis=1).mean())
    return Placement(float(xy[0]), float(xy[1]), tuple(int(r) for r in rows), tuple(float(s) for s in similarities),
                     spread)
