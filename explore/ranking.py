"""How a mix of spaces ranks articles: the one ranking the app, the CLI, the study and evaluation share.

One space ranks by cosine (hnswlib for the whole corpus, exact search inside a pool). A blend lets
each of its spaces propose its top candidates, re-scores their union exactly in every space and
ranks by the weighted sum of cosines. A blend may also weigh `links`, the seed's own links: the
hybrid of link-based and text-based relatedness (see `ranked_rows`). Evaluation asks the same function, with its pool of test
articles where it needs one, so the figures it reports are those of the ranking the app serves.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from explore.errors import InvalidQueryError
from explore.spaces.space import Space
from explore.spaces.vector_index import exact_query

# Each blended space proposes this many candidates (at least 3k): enough that an article ranked
# high by the mix is almost always ranked high in at least one of its spaces.
BLEND_CANDIDATES = 50
# In a blend, this name weighs "linked from the seed" rather than a space (no space may be blended under it).
LINKS_COMPONENT = "links"


def _nearest(space: Space, vector: np.ndarray, k: int, pool: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    if pool is None:
        return space.nearest(vector, k)
    positions, scores = exact_query(space.rows(pool), vector, k)
    return pool[positions], scores


def ranked_rows(spaces: Mapping[str, Space], mix: Mapping[str, float], vectors: Mapping[str, np.ndarray], k: int,
                exclude: int | None = None, pool: np.ndarray | None = None,
                linked: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Rows and scores of the k best articles for `mix` (space name → weight summing to 1), best first.

    `vectors` holds the query vector per space; `exclude` (the seed's row) is never returned; `pool`
    (sorted corpus rows) limits the candidates, None meaning the whole corpus.

    A `links` weight (LINKS_COMPONENT) blends "linked from this article" with "similar in these spaces",
    which the work on Wikipedia read-next links finds complementary:

        score(a) = sum over spaces s of w_s * cos_s(seed, a)  +  w_links * [seed links to a]

    `linked` holds the rows the seed links to, in its links' order; they are all candidates, a linked
    article gains w_links over an equally similar unlinked one, and ties keep the links' order."""
    extra = 0 if exclude is None else 1
    link_weight = float(mix.get(LINKS_COMPONENT, 0.0))
    space_mix = {name: weight for name, weight in mix.items() if name != LINKS_COMPONENT}
    if len(space_mix) == 1 and not link_weight:
        (name,) = space_mix
        rows, scores = _nearest(spaces[name], vectors[name], k + extra, pool)
    else:
        linked_rows = np.asarray(linked if link_weight else (), dtype=np.int64)
        if pool is not None:
            linked_rows = linked_rows[np.isin(linked_rows, pool)]
        wanted = max(BLEND_CANDIDATES, 3 * k) + extra
        proposed = [linked_rows] + [_nearest(spaces[n], vectors[n], wanted, pool)[0] for n in space_mix]
        rows = np.asarray(list(dict.fromkeys(np.concatenate(proposed).tolist())), dtype=np.int64)  # links first
        scores = sum((w * spaces[n].similarities(vectors[n], rows) for n, w in space_mix.items()),
                     np.zeros(len(rows))) + link_weight * np.isin(rows, linked_rows)
        order = np.argsort(-scores, kind="stable")
        rows, scores = rows[order], scores[order]
    keep = rows != exclude if exclude is not None else np.ones(len(rows), dtype=bool)
    return rows[keep][:k], np.asarray(scores)[keep][:k]


def pair_scores(spaces: Mapping[str, Space], mix: Mapping[str, float], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The mix's score of each pair (a[i], b[i]): the weighted cosine the ranking sorts by."""
    if LINKS_COMPONENT in mix:
        raise InvalidQueryError("A blend with links ranks a seed's neighbours; it scores no pairs of articles.")
    return sum(w * np.einsum("ij,ij->i", spaces[n].embeddings_[a], spaces[n].embeddings_[b]) for n, w in mix.items())
