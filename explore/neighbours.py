"""Read-next neighbours of a seed article (or a typed sentence) in every kind of space.

Kinds: `links` (the corpus's links, in order), `generic`, `aspect:<name>`, `union`, `intersection`
(`union:<name>` / `intersection:<name>` when a corpus has several), `space:<name>` (any space by
name) and `blend` — a query-time weighted mix of spaces: each space proposes its top candidates,
the union of candidates is re-scored exactly in every space, and the weighted sum ranks them.
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from explore.corpus.model import Article, Corpus
from explore.errors import AspectNavError, InvalidQueryError, UnknownSpaceError
from explore.spaces.space import Space

LINKS = "links"
BLEND = "blend"
# Each blended space proposes this many candidates (at least 3k): enough that an article ranked
# high by the mix is almost always ranked high in at least one of its spaces.
BLEND_CANDIDATES = 50
TEXT_CACHE_SIZE = 64


@dataclass(frozen=True)
class Neighbour:
    """One result. `score`: cosine (weighted for blend; None for links). `shared`: the aspect
    labels it shares with the seed article (empty for a free-text seed) — the explanation."""

    id: str
    title: str
    score: float | None
    shared: dict[str, list[str]] = field(default_factory=dict)


class Neighbourhood:
    """Build with the corpus and its opened spaces (`Neighbourhood.open(corpus)` does both), then
    ask `neighbours(seed, kind, k)` or `neighbours_for_text(text, kind, k)`."""

    def __init__(self, corpus: Corpus, spaces: Mapping[str, Space] | Iterable[Space]):
        self.corpus = corpus
        items = spaces.values() if isinstance(spaces, Mapping) else spaces
        self.spaces: dict[str, Space] = {space.name: space for space in items}
        for space in self.spaces.values():
            if len(space) != len(corpus):
                raise AspectNavError(f"Space {space.name!r} has {len(space)} rows for {len(corpus)} articles.")
        self._text_vectors: OrderedDict[str, dict[str, np.ndarray]] = OrderedDict()
        self._text_lock = threading.Lock()  # the app serves several sessions from threads

    @classmethod
    def open(cls, corpus: Corpus, progress: bool = True) -> "Neighbourhood":
        """Every space the corpus has, verified (stale or damaged ones are rebuilt)."""
        from explore.spaces.registry import spaces_for

        return cls(corpus, spaces_for(corpus, progress=progress).open_all())

    def available_kinds(self) -> list[str]:
        kinds = [LINKS] if self.corpus.provenance.links != "none" else []
        kinds += [self._kind_of(space) for space in self.spaces.values()]
        if self.spaces:
            kinds.append(BLEND)
        return kinds

    def resolve_seed(self, seed: "str | Article") -> Article:
        """An Article of this corpus from an Article, an id or a title (errors name the candidates)."""
        if isinstance(seed, Article):
            if seed.id not in self.corpus:
                raise InvalidQueryError(f"Article {seed.id!r} is not in corpus {self.corpus.name!r}.")
            return self.corpus[seed.id]
        if seed is None or not str(seed).strip():
            raise InvalidQueryError("Empty seed: type an article title or id.")
        return self.corpus.find(str(seed).strip())

    def neighbours(self, seed: "str | Article", kind: str = "generic", k: int = 10,
                   weights: Mapping[str, float] | None = None) -> list[Neighbour]:
        """The k articles to read next after `seed` in `kind`; the seed itself is never among them."""
        k = _check_k(k)
        article = self.resolve_seed(seed)
        if kind == LINKS:
            return self._links(article, k)
        mix = self._mix(kind, weights)
        row = self.corpus.position[article.id]
        vectors = {name: self.spaces[name].embeddings_[row] for name in mix}
        return self._ranked(vectors, mix, k, exclude=row, seed=article)

    def neighbours_for_text(self, text: str, kind: str = "generic", k: int = 10,
                            weights: Mapping[str, float] | None = None) -> list[Neighbour]:
        """Neighbours of a typed sentence: encoded by each space's encoder (loaded on first use)."""
        k = _check_k(k)
        if text is None or not str(text).strip():
            raise InvalidQueryError("Empty query: type a sentence or pick an article.")
        if kind == LINKS:
            raise InvalidQueryError("Links need an article seed, not free text.")
        mix = self._mix(kind, weights)
        vectors = self._encode_text(str(text).strip(), list(mix))
        return self._ranked(vectors, mix, k, exclude=None, seed=None)

    def all_neighbours(self, seed: "str | Article", k: int = 10,
                       weights: Mapping[str, float] | None = None) -> dict[str, list[Neighbour]]:
        """Every available kind (blend only when `weights` are given), in `available_kinds` order."""
        article = self.resolve_seed(seed)
        return {kind: self.neighbours(article, kind, k, weights if kind == BLEND else None)
                for kind in self.query_kinds(weights)}

    def query_kinds(self, weights: Mapping[str, float] | None = None, for_text: bool = False) -> list[str]:
        """The kinds an "every kind" query covers: blend only with weights, links only for an article."""
        return [kind for kind in self.available_kinds()
                if (kind != BLEND or weights) and not (for_text and kind == LINKS)]

    # -- internals -------------------------------------------------------------------------------

    def _links(self, article: Article, k: int) -> list[Neighbour]:
        ids = [i for i in dict.fromkeys(article.links) if i in self.corpus and i != article.id]
        return [self._neighbour(i, None, article) for i in ids[:k]]

    def _mix(self, kind: str, weights: Mapping[str, float] | None) -> dict[str, float]:
        """Space name -> weight (summing to 1) for `kind`."""
        if not isinstance(kind, str) or not kind.strip():
            raise InvalidQueryError(f"Empty kind; use one of: {', '.join(self.available_kinds())}.")
        kind = kind.strip()
        if kind == BLEND:
            return self._blend_weights(weights)
        if weights:
            raise InvalidQueryError(f"Weights apply to kind 'blend' only, not {kind!r}.")
        prefix, _, name = kind.partition(":")
        if prefix == "space" and name in self.spaces:
            return {name: 1.0}
        if prefix in ("generic", "aspect", "union", "intersection"):
            matches = [s.name for s in self.spaces.values() if s.kind == prefix and (not name or s.name == name)]
            if matches:
                return {sorted(matches, key=lambda n: n != prefix)[0]: 1.0}  # the space named like its kind first
            what = f"{prefix} space named {name!r}" if name else f"{prefix} space"
            raise UnknownSpaceError(f"Corpus {self.corpus.name!r} has no {what}. {self._inventory()}")
        raise InvalidQueryError(f"Unknown kind {kind!r}. {self._inventory()}")

    def _blend_weights(self, weights: Mapping[str, float] | None) -> dict[str, float]:
        if not weights:
            raise InvalidQueryError(f"A blend needs weights, e.g. generic=0.5,... over spaces: {self._space_list()}.")
        unknown = [name for name in weights if name not in self.spaces]
        if unknown:
            raise UnknownSpaceError(f"Blend names unknown space {unknown[0]!r}. {self._inventory()}")
        clean = {}
        for name, weight in weights.items():
            try:
                weight = float(weight)
            except (TypeError, ValueError):
                raise InvalidQueryError(f"Weight of {name!r} must be a number, got {weight!r}.") from None
            if not math.isfinite(weight) or weight < 0:
                raise InvalidQueryError(f"Weight of {name!r} must be a finite number >= 0, got {weight}.")
            if weight > 0:
                clean[name] = weight
        if not clean:
            raise InvalidQueryError("A blend needs at least one positive weight.")
        total = sum(clean.values())
        return {name: weight / total for name, weight in clean.items()}

    def _ranked(self, vectors: dict[str, np.ndarray], mix: dict[str, float], k: int,
                exclude: int | None, seed: Article | None) -> list[Neighbour]:
        extra = 0 if exclude is None else 1
        if len(mix) == 1:
            (name,) = mix
            rows, scores = self.spaces[name].nearest(vectors[name], k + extra)
        else:
            wanted = max(BLEND_CANDIDATES, 3 * k) + extra
            rows = np.unique(np.concatenate([self.spaces[n].nearest(vectors[n], wanted)[0] for n in mix]))
            scores = sum(w * self.spaces[n].similarities(vectors[n], rows) for n, w in mix.items())
            order = np.argsort(-scores, kind="stable")
            rows, scores = rows[order], scores[order]
        keep = [(int(r), float(s)) for r, s in zip(rows, scores) if r != exclude][:k]
        return [self._neighbour(self.corpus.articles[r].id, round(s, 6), seed) for r, s in keep]

    def _neighbour(self, article_id: str, score: float | None, seed: Article | None) -> Neighbour:
        article = self.corpus[article_id]
        shared = seed.shared_labels(article) if seed is not None else {}
        return Neighbour(article.id, article.title, score, shared)

    def _encode_text(self, text: str, names: list[str]) -> dict[str, np.ndarray]:
        """Query vectors of `text` per space; a base encoder shared by several heads runs once."""
        from explore.encoders import HeadEncoder

        with self._text_lock:
            cached = self._text_vectors.setdefault(text, {})
            self._text_vectors.move_to_end(text)
            while len(self._text_vectors) > TEXT_CACHE_SIZE:
                self._text_vectors.popitem(last=False)
        missing = []
        for name in names:
            if name in cached:
                continue
            try:
                encoder = self.spaces[name].load_encoder()
            except AspectNavError as exc:
                missing.append(f"{name} ({exc})")
                continue
            base_encoder = encoder.base if isinstance(encoder, HeadEncoder) else encoder
            key = f"base:{base_encoder.fingerprint}"
            if key not in cached:
                cached[key] = base_encoder.encode([text], progress=False)[0]
            cached[name] = encoder.project(cached[key][None])[0] if encoder is not base_encoder else cached[key]
        if missing:
            raise UnknownSpaceError(f"Free text cannot be encoded for: {'; '.join(missing)}. "
                                    f"Pick an article seed instead.")
        return {name: cached[name] for name in names}

    def _kind_of(self, space: Space) -> str:
        if space.kind == "generic" and space.name == "generic":
            return "generic"
        if space.kind in ("union", "intersection") and space.name == space.kind:
            return space.kind
        return f"{space.kind}:{space.name}"

    def _space_list(self) -> str:
        return ", ".join(f"{s.name} ({s.kind})" for s in self.spaces.values()) or "none"

    def _inventory(self) -> str:
        return f"Spaces: {self._space_list()}. Kinds: {', '.join(self.available_kinds())}."


def parse_weights(text: str) -> dict[str, float]:
    """'occupation=0.7,country=0.3' -> {'occupation': 0.7, 'country': 0.3}."""
    weights = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        try:
            if not sep or not name.strip():
                raise ValueError
            weights[name.strip()] = float(value)
        except ValueError:
            raise InvalidQueryError(f"Bad blend weight {part.strip()!r}: use name=number, e.g. occupation=0.7.") from None
    if not weights:
        raise InvalidQueryError("Empty blend: use name=number pairs, e.g. occupation=0.7,country=0.3.")
    return weights


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k <= 0:
        raise InvalidQueryError(f"k must be a positive whole number, got {k!r}.")
    return int(k)
