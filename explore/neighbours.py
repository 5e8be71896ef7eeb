"""Read-next neighbours of a seed article (or a typed sentence) for any `Query` (explore/query.py).

The engine settles which space a query means (`resolve`: refusing a query that matches several
spaces, with the choices) and ranks through explore/ranking.py, the one ranking every caller shares.
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping

import numpy as np

from explore.corpus.model import Article, Corpus
from explore.errors import AspectNavError, InvalidQueryError, UnknownSpaceError
from explore.links_column import SeedLinks, links_are_ranked, links_description, seed_links
from explore.query import LINKS, MORELIKE, SPACE_KINDS, Blend, Kind, Query
from explore.ranking import LINKS_COMPONENT, ranked_rows
from explore.relevant_first import NOT_DRAWN, RelevantFirst, pool_similarity, relevant_pool, shared_share, shared_term
from explore.spaces.space import Space

if TYPE_CHECKING:  # only a type: the encoders stay unimported until a space encodes
    from explore.encoders.encoder import EncodeProgress
    from explore.morelike import ReadMore

TEXT_CACHE_SIZE = 64
SEED_CACHE_SIZE = 1024  # (seed, query, k) answers: ~10 columns for each of the last ~100 seeds
LABELLED_KINDS = (Kind.ASPECT.value, Kind.UNION.value, Kind.INTERSECTION.value)  # spaces trained on labels
TOP_CHECKED = 5  # the cards a reader sees first: a column must share its aspect among them to be drawn
FEW_SHARED = 2  # fewer of them sharing the column's aspect: the column is not drawn (spaces_not_worth_drawing)
READING_ORDER = (Kind.LINKS, Kind.MORELIKE, Kind.GENERIC, Kind.ASPECT, Kind.UNION, Kind.INTERSECTION, Kind.SPACE, Kind.BLEND)


@dataclass(frozen=True)
class Neighbour:
    """One result. `score`: cosine (weighted for blend; None for links and Read more). `shared`: the aspect
    labels it shares with the seed article (empty for a free-text seed) — the explanation. `bm25_rank`: a Read more
    card's place by text match alone, before popularity reordered it (None for every other column)."""

    id: str
    title: str
    score: float | None
    shared: dict[str, list[str]] = field(default_factory=dict)
    bm25_rank: int | None = None


def seed_has_aspect(seed: Article, aspect: str) -> bool:
    """Whether a space of `aspect` has something to say about `seed`: the seed carries a label of it, its own or
    an inferred one (the famous articles a source leaves uncategorised get their topic inferred)."""
    return seed.has_aspect(aspect, inferred=True)


class Neighbourhood:
    """Build with the corpus and its opened spaces (`Neighbourhood.open(corpus)` does both), then
    ask `neighbours(seed, query, k)` or `neighbours_for_text(text, query, k)`; a query is a `Query`
    or its spelling (`"aspect:country"`, `"blend:occupation:0.7,country:0.3"`)."""

    def __init__(self, corpus: Corpus, spaces: Mapping[str, Space] | Iterable[Space],
                 relevant_first: RelevantFirst | None = RelevantFirst()):
        self.corpus = corpus
        # how labelled columns and mixes are served (explore/relevant_first.py); None serves every space as it is
        self.relevant_first = relevant_first
        items = spaces.values() if isinstance(spaces, Mapping) else spaces
        self.spaces: dict[str, Space] = {space.name: space for space in items}
        self.left_out: dict[str, str] = {}  # spaces `open` could not open (damaged), and why
        for space in self.spaces.values():
            if len(space) != len(corpus):
                raise AspectNavError(f"Space {space.name!r} has {len(space)} rows for {len(corpus)} articles.")
        self._text_vectors: OrderedDict[str, dict[str, np.ndarray]] = OrderedDict()
        self._text_lock = threading.Lock()  # the app serves several sessions from threads
        # A page asks a seed's links up to three times (column, its note, a blend weighing links).
        self._links_of_id = functools.lru_cache(maxsize=TEXT_CACHE_SIZE)(self._served_links)
        self._read_more = functools.lru_cache(maxsize=TEXT_CACHE_SIZE)(self._served_read_more)
        # A reader's trail (Back, Forward, a crumb) and every rerun of a page ask the same seed again: its rows
        # per (row, query, k) are kept (lru_cache is thread-safe; the engine is rebuilt when spaces change).
        self._seed_rows = functools.lru_cache(maxsize=SEED_CACHE_SIZE)(self._ranked_seed_rows)

    @classmethod
    def open(cls, corpus: Corpus, progress: "bool | EncodeProgress" = True, encode: bool = True) -> "Neighbourhood":
        """Every space the corpus has, verified (stale or damaged ones are rebuilt, `progress` showing the
        encoding). `encode=False` opens only what needs no encoding (links alone need no space; built ones
        still rank them)."""
        from explore.spaces.registry import spaces_for

        registry = spaces_for(corpus, progress=progress)
        engine = cls(corpus, registry.open_all(encode=encode))
        engine.left_out = dict(registry.left_out)
        return engine

    def available_queries(self) -> list[Query]:
        """One query per answerable kind in reading order (links, generic, aspects, union, intersection):
        written short (`union`) when it is the only space of its kind and with its name otherwise."""
        queries = [LINKS] if self.corpus.provenance.links != "none" else []
        queries += [self.query_for(name) for name in self.spaces]
        return sorted(queries, key=lambda query: READING_ORDER.index(query.kind))

    def query_for(self, name: str) -> Query:
        """The canonical query of the space called `name`."""
        space = self.spaces[name]
        kind = Kind(space.kind)
        if kind is Kind.ASPECT:
            return Query(kind, name)
        alone = sum(s.kind == space.kind for s in self.spaces.values()) == 1
        return Query(kind) if alone else Query(kind, name)

    def resolve_seed(self, seed: "str | Article") -> Article:
        """An Article of this corpus from an Article, an id or a title (errors name the candidates)."""
        if isinstance(seed, Article):
            if seed.id not in self.corpus:
                raise InvalidQueryError(f"Article {seed.id!r} is not in corpus {self.corpus.name!r}.")
            return self.corpus[seed.id]
        if seed is None or not str(seed).strip():
            raise InvalidQueryError("Empty seed: type an article title or id.")
        return self.corpus.find(str(seed).strip())

    def resolve(self, query: "Query | str") -> dict[str, float]:
        """Space name → weight (summing to 1) that `query` ranks by; refuses links, unknown spaces and
        a query that matches several spaces (naming the queries that tell them apart). In a blend,
        `links` (explore.ranking.LINKS_COMPONENT) weighs the seed's own links next to the spaces."""
        query = Query.parse(query)
        if query.kind is Kind.LINKS:
            raise InvalidQueryError("Links are not ranked by a space.")
        if query.kind is Kind.MORELIKE:
            raise InvalidQueryError("Read more is ranked by a text search, not by a space.")
        if query.kind is Kind.BLEND:
            if LINKS_COMPONENT in query.blend.names and self.corpus.provenance.links == "none":
                raise UnknownSpaceError(f"Blend {query.blend} weighs links, but corpus {self.corpus.name!r} has none. "
                                        f"{self._inventory()}")
            unknown = [name for name in query.blend.names if name not in self.spaces and name != LINKS_COMPONENT]
            if unknown:
                raise UnknownSpaceError(f"Blend {query.blend} names unknown space {unknown[0]!r}. {self._inventory()}")
            return query.blend.normalised()
        if query.kind is Kind.SPACE:
            if query.name not in self.spaces:
                raise UnknownSpaceError(f"Corpus {self.corpus.name!r} has no space {query.name!r}. {self._inventory()}")
            return {query.name: 1.0}
        return {self._space_of(query): 1.0}

    def neighbours(self, seed: "str | Article", query: "Query | str" = "generic", k: int = 10) -> list[Neighbour]:
        """The k articles to read next after `seed` for `query`; the seed itself is never among them."""
        k = _check_k(k)
        article = self.resolve_seed(seed)
        query = Query.parse(query)
        if query.kind is Kind.LINKS:
            return self._links(article, k)
        if query.kind is Kind.MORELIKE:
            return [self._neighbour(self.corpus.articles[card.row].id, None, article, bm25_rank=card.bm25_rank)
                    for card in self.read_more(article, k).cards]
        rows, scores = self._seed_rows(self.corpus.position[article.id], query, k)
        return [self._neighbour(self.corpus.articles[r].id, round(float(s), 6), article) for r, s in zip(rows, scores)]

    def _ranked_seed_rows(self, seed_row: int, query: Query, k: int) -> tuple[np.ndarray, np.ndarray]:
        rows, scores = self.served_rows(query, seed_row, k)
        rows.flags.writeable = scores.flags.writeable = False  # shared by every caller of the cache
        return rows, scores

    def served_rows(self, query: "Query | str", seed_row: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """What a column shows for the article at `seed_row`: a labelled column or a mix relevant first (its
        candidates related to the seed at all, explore/relevant_first.py), any other query as `ranked_rows`.
        Scores are the weighted similarity (≤ 1), without the shared-label term the order also counts."""
        query = Query.parse(query)
        mix = self.resolve(query)
        if not self._served_relevant_first(query, mix):
            return self.ranked_rows(query, seed_row, k)  # a links-only mix has no similarity to rank a pool by
        seed = self.corpus.articles[seed_row]
        vectors = {name: self.spaces[name].vector(seed_row) for name in self._served_spaces(query, mix)}
        return self._relevant_first_rows(query, mix, vectors, k, seed_row, seed, self.linked_rows(seed))

    def _served_relevant_first(self, query: Query, mix: Mapping[str, float]) -> bool:
        policy = self.relevant_first
        return (policy is not None and self._generic_space() is not None and policy.serves(query.kind)
                and set(mix) != {LINKS_COMPONENT})

    def _served_spaces(self, query: Query, mix: Mapping[str, float]) -> list[str]:
        """The spaces a relevant-first column needs a vector of the seed in: its own and generic."""
        served = self.relevant_first.served_mix(query.kind, mix, self._generic_space().name, self.corpus.name)
        return list(dict.fromkeys([self._generic_space().name, *(n for n in served if n != LINKS_COMPONENT)]))

    def _relevant_first_rows(self, query: Query, mix: Mapping[str, float], vectors: Mapping[str, np.ndarray],
                             k: int, seed_row: int | None = None, seed: Article | None = None,
                             linked: list[int] | tuple = ()) -> tuple[np.ndarray, np.ndarray]:
        """The column's k best among the candidates related to the seed at all (its generic neighbours and links),
        by the served mix and, for an article seed, the labels it shares (a typed sentence has none)."""
        policy, generic = self.relevant_first, self._generic_space()
        serving = policy.serving_for(query.kind, mix, self.corpus.name)
        mix = policy.served_mix(query.kind, mix, generic.name, self.corpus.name)
        nearest = generic.nearest(vectors[generic.name], serving.pool_size + 1)[0]
        pool = relevant_pool(nearest, linked, seed_row)
        similarity = pool_similarity(self.spaces, mix, vectors, pool, linked)
        if seed is not None:
            candidates = [self.corpus.articles[row] for row in pool]
            shared = {name: shared_share(seed, candidates, self.spaces[name].aspects if self.spaces[name].kind in
                                         LABELLED_KINDS else ()) for name in mix if name != LINKS_COMPONENT}
            similarity_and_labels = similarity + serving.label_weight * shared_term(mix, shared)
        else:
            similarity_and_labels = similarity
        order = np.argsort(-similarity_and_labels, kind="stable")[:k]
        # the score a card shows is the weighted similarity: the shared label it was ranked up for is its chip
        return pool[order], similarity[order]

    def ranked_rows(self, query: "Query | str", seed_row: int, k: int,
                    pool: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Rows and scores of the k best articles for the article at `seed_row` (itself excluded),
        among `pool` (sorted rows; None = the whole corpus), by the query's spaces alone: what a space itself
        ranks (its evaluation as aspect retrieval), not what its column shows (`served_rows`)."""
        mix = self.resolve(query)
        vectors = {name: self.spaces[name].vector(seed_row) for name in mix if name != LINKS_COMPONENT}
        linked = self.linked_rows(self.corpus.articles[seed_row]) if LINKS_COMPONENT in mix else ()
        return ranked_rows(self.spaces, mix, vectors, k, exclude=seed_row, pool=pool, linked=linked)

    def neighbours_for_text(self, text: str, query: "Query | str" = "generic", k: int = 10) -> list[Neighbour]:
        """Neighbours of a typed sentence: encoded by each space's encoder (loaded on first use)."""
        k = _check_k(k)
        if text is None or not str(text).strip():
            raise InvalidQueryError("Empty query: type a sentence or pick an article.")
        query = Query.parse(query)
        if query.kind in (Kind.LINKS, Kind.MORELIKE):
            raise InvalidQueryError(f"{'Links need' if query.kind is Kind.LINKS else 'Read more needs'} an article "
                                    "seed, not free text.")
        mix = self.resolve(query)
        if LINKS_COMPONENT in mix:
            raise InvalidQueryError(f"Blend {query.blend} weighs links, which need an article seed, not free text.")
        if self._served_relevant_first(query, mix):  # as an article's column is: related first, then the aspect
            vectors = self._encode_text(str(text).strip(), self._served_spaces(query, mix))
            rows, scores = self._relevant_first_rows(query, mix, vectors, k)
        else:
            vectors = self._encode_text(str(text).strip(), list(mix))
            rows, scores = ranked_rows(self.spaces, mix, vectors, k)
        return [self._neighbour(self.corpus.articles[r].id, round(float(s), 6), None) for r, s in zip(rows, scores)]

    def space_vector(self, seed: "str | Article | None", name: str, text: str | None = None) -> np.ndarray:
        """The vector a seed article (or, without one, the free `text`) has in the space called `name`."""
        if seed is not None:
            return self.spaces[name].vector(self.corpus.position[self.resolve_seed(seed).id])
        if text is None or not str(text).strip():
            raise InvalidQueryError("Empty query: type a sentence or pick an article.")
        return self._encode_text(str(text).strip(), [name])[name]

    def all_neighbours(self, seed: "str | Article", k: int = 10,
                       blend: Blend | None = None) -> dict[Query, list[Neighbour]]:
        """Every available query (plus `blend` when given), in `available_queries` order."""
        article = self.resolve_seed(seed)
        return {query: self.neighbours(article, query, k) for query in self.query_kinds(blend, seed=article)}

    def query_kinds(self, blend: Blend | None = None, for_text: bool = False,
                    seed: Article | None = None) -> list[Query]:
        """The queries an "every kind" request covers: a blend only when given, links only for an article;
        for an article `seed`, no space that combines an aspect the seed has no label of, nor one whose column would
        only repeat generic (`spaces_not_worth_drawing`)."""
        left_out = set(self.spaces_seed_lacks(seed)) | set(self.spaces_not_worth_drawing(seed)) \
            if seed is not None else set()
        left_out |= set(self.spaces_not_drawn())
        queries = [q for q in self.available_queries() if not (for_text and q.kind is Kind.LINKS)
                   and not (left_out and q.kind is not Kind.LINKS and set(self.resolve(q)) & left_out)]
        return queries + ([Query.blended(blend)] if blend is not None else [])

    def spaces_not_drawn(self) -> dict[str, float]:
        """Spaces of this corpus whose column Explore does not draw for any seed (relevant_first.NOT_DRAWN): their
        judged cards were under the bar; name -> worth-reading P@5 as a share of generic's."""
        if self.relevant_first is None:
            return {}
        return {name: ratio for name, ratio in NOT_DRAWN.get(self.corpus.name, {}).items() if name in self.spaces}

    def spaces_not_worth_drawing(self, seed: Article) -> list[str]:
        """Labelled spaces (of aspects `seed` has) whose column, served relevant first, shares its aspect with the
        seed in fewer than FEW_SHARED of its top TOP_CHECKED cards: few articles close to the seed have its label, so
        the column would only repeat generic's articles under an aspect's name."""
        if self.relevant_first is None or self._generic_space() is None:
            return []
        lacking = set(self.spaces_seed_lacks(seed))
        return [name for name, space in self.spaces.items()
                if space.kind in LABELLED_KINDS and name not in lacking
                and self._shared_in_top(seed, name) < FEW_SHARED]

    def _shared_in_top(self, seed: Article, name: str) -> int:
        space = self.spaces[name]
        rows, _ = self._seed_rows(self.corpus.position[seed.id], self.query_for(name), TOP_CHECKED)
        shares = shared_share(seed, [self.corpus.articles[row] for row in rows], space.aspects)
        return int(np.sum(shares == 1.0 if space.kind == Kind.INTERSECTION.value else shares > 0))

    def spaces_seed_lacks(self, seed: Article) -> list[str]:
        """Aspect, union and intersection spaces built on an aspect `seed` has no label of: an aspect column
        would only echo generic, and a combined one would promise a shared label the seed cannot have."""
        return [name for name, space in self.spaces.items() if space.kind in LABELLED_KINDS
                and not all(seed_has_aspect(seed, aspect) for aspect in space.aspects)]

    def baseline_queries(self) -> list[Query]:
        """Queries no space answers that a reader may add as a column and a study or evaluation may name: Wikipedia's
        own Read more (explore/morelike.py). Never drawn unless asked."""
        return [MORELIKE] if len(self.corpus) else []

    def read_more(self, seed: "str | Article", k: int = 3) -> "ReadMore":
        """The seed's Read more (explore/morelike.py): its index built on first use, then kept on disk."""
        return self._read_more(self.resolve_seed(seed).id, _check_k(k))

    def _served_read_more(self, article_id: str, k: int) -> "ReadMore":
        from explore.morelike import morelike_index

        return morelike_index(self.corpus).read_more(self.corpus[article_id], k)

    def links_of(self, seed: "str | Article") -> SeedLinks:
        """The seed's links as the links column serves them (explore/links_column.py): common-word
        mentions hidden, ordered by generic similarity to the seed unless the corpus ranks its links."""
        return self._links_of_id(self.resolve_seed(seed).id)

    def linked_rows(self, article: Article) -> list[int]:
        """Corpus rows of the articles `article` links to, in the links column's order."""
        return [self.corpus.position[i] for i in self.links_of(article).ids]

    def links_description(self) -> str:
        """What the links column serves and in which order, in one sentence."""
        by_similarity = self._generic_space() is not None and not links_are_ranked(self.corpus)
        return links_description(self.corpus, by_similarity)

    # -- internals -------------------------------------------------------------------------------

    def _links(self, article: Article, k: int) -> list[Neighbour]:
        return [self._neighbour(i, None, article) for i in self.links_of(article).ids[:k]]

    def _served_links(self, article_id: str) -> SeedLinks:
        article = self.corpus[article_id]
        generic = self._generic_space()
        if generic is None or self.corpus.provenance.links == "mentions":
            return seed_links(self.corpus, article, self.generic_similarities(article))
        # hyperlinks are only ordered: their own rows' cosines are all it takes (a pass over every row of a
        # million-article space, or an array as long, costs more than the rest of a seed change)
        rows = np.array([self.corpus.position[i] for i in dict.fromkeys(article.links) if i in self.corpus],
                        dtype=np.int64)
        cosines = generic.similarities(generic.vector(self.corpus.position[article_id]), rows)
        return seed_links(self.corpus, article, dict(zip(rows.tolist(), cosines.tolist())))

    def generic_similarities(self, seed: "str | Article") -> np.ndarray | None:
        """Cosine of every article to `seed` in the generic space (None without one): how unrelated an
        article is to another, whatever aspects either has."""
        generic = self._generic_space()
        if generic is None:
            return None
        return generic.similarities_to_all(generic.vector(self.corpus.position[self.resolve_seed(seed).id]))

    def _generic_space(self) -> Space | None:
        return next((space for space in self.spaces.values() if space.kind == Kind.GENERIC.value), None)

    def _space_of(self, query: Query) -> str:
        """The one space a generic/aspect/union/intersection query names."""
        assert query.kind in SPACE_KINDS
        of_kind = [s for s in self.spaces.values() if s.kind == query.kind.value]
        if query.name is None:
            matches = [s.name for s in of_kind]
            if len(matches) > 1 and query.kind.value in matches:
                # the space named after its kind is the default (the shipped `union`): a space trained beside it
                # must not break every request, study or evaluation that says plain `union`
                matches = [query.kind.value]
        else:
            matches = [s.name for s in of_kind if s.name == query.name]
            if not matches and query.kind is Kind.ASPECT:  # aspect:<aspect name> when no space has that name
                matches = [s.name for s in of_kind if s.aspects == (query.name,)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            what = f"{query.kind} space named {query.name!r}" if query.name else f"{query.kind} space"
            raise UnknownSpaceError(f"Corpus {self.corpus.name!r} has no {what}. {self._inventory()}")
        choices = ", ".join(str(Query(query.kind, name)) for name in matches)
        raise InvalidQueryError(f"Kind {str(query)!r} matches {len(matches)} spaces of corpus "
                                f"{self.corpus.name!r}; name one: {choices}.")

    def _neighbour(self, article_id: str, score: float | None, seed: Article | None,
                   bm25_rank: int | None = None) -> Neighbour:
        article = self.corpus[article_id]
        shared = seed.shared_labels(article) if seed is not None else {}
        return Neighbour(article.id, article.title, score, shared, bm25_rank)

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

    def _space_list(self) -> str:
        return ", ".join(f"{s.name} ({s.kind})" for s in self.spaces.values()) or "none"

    def _inventory(self) -> str:
        kinds = ", ".join(str(q) for q in self.available_queries())
        return f"Spaces: {self._space_list()}. Kinds: {kinds}{self._blend_spelling()}."

    def _blend_spelling(self) -> str:
        if not self.spaces:
            return ""
        links = f"{LINKS_COMPONENT}:<weight>," if self.corpus.provenance.links != "none" else ""
        return f", blend:{links}<space>:<weight>,..."


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k <= 0:
        raise InvalidQueryError(f"k must be a positive whole number, got {k!r}.")
    return int(k)
