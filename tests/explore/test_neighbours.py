import numpy as np
import pytest

from explore.errors import (AmbiguousTitleError, AspectNavError, InvalidQueryError, UnknownArticleError,
                            UnknownSpaceError)
from explore.neighbours import Neighbourhood
from explore.query import Blend, Kind, Query
from explore.spaces import Space
from tests.fixture_corpora import aspect_corpus


class LabelEncoder:
    """Multi-hot vectors of one aspect's labels: an 'ideal' aspect space with known geometry."""

    def __init__(self, corpus, aspects):
        labels = sorted({label for a in corpus for name in aspects for label in a.labels(name)})
        self.by_text = {}
        for i, article in enumerate(corpus):
            v = np.array([any(label in article.labels(n) for n in aspects) for label in labels], dtype=np.float32)
            v = np.concatenate([v, np.eye(len(corpus), dtype=np.float32)[i] * 0.1])  # distinct, never all-zero
            self.by_text[article.title + ". " + article.text] = v / np.linalg.norm(v)
        self.fingerprint = "labels-" + "-".join(aspects)

    def encode(self, texts, progress=True, **kwargs):
        return np.stack([self.by_text[t] for t in texts])


@pytest.fixture(scope="module")
def engine(minilm):
    corpus = aspect_corpus()
    spaces = [Space("generic", "generic", "minilm").fit(corpus, minilm, progress=False)]
    for aspect in ("occupation", "country"):
        space = Space(aspect, "aspect", "not-installed")
        spaces.append(space.fit(corpus, LabelEncoder(corpus, [aspect]), progress=False))
    spaces.append(Space("union", "union", "not-installed", ("occupation", "country"))
                  .fit(corpus, LabelEncoder(corpus, ["occupation", "country"]), progress=False))
    return Neighbourhood(corpus, spaces)


def ids(neighbours):
    return [n.id for n in neighbours]


def test_available_queries(engine):
    assert [str(q) for q in engine.available_queries()] == ["links", "generic", "aspect:occupation", "aspect:country",
                                                            "union"]


def test_generic_neighbours_exclude_the_seed_and_rank_by_score(engine):
    result = engine.neighbours("Marie Curie", "generic", k=5)
    assert len(result) == 5 and "curie" not in ids(result)
    assert [n.score for n in result] == sorted((n.score for n in result), reverse=True)
    assert "pierre" in ids(result)[:3]
    assert ids(engine.neighbours("curie", "generic", 5)) == ids(result)  # by id
    assert ids(engine.neighbours(engine.corpus["curie"], "generic", 5)) == ids(result)  # by Article


@pytest.mark.parametrize("kind", ["generic", "aspect:occupation", "union", "links"])
def test_k_beyond_the_corpus_returns_each_other_article_once(engine, kind):
    result = engine.neighbours("Marie Curie", kind, k=1000)
    assert "curie" not in ids(result) and len(ids(result)) == len(set(ids(result)))
    if kind != "links":
        assert len(result) == len(engine.corpus) - 1


def test_links_keep_order_drop_duplicates_missing_ids_and_the_seed(engine):
    result = engine.neighbours("Marie Curie", "links")
    assert ids(result) == ["pierre", "radium"] and result[0].score is None
    assert result[0].shared == {"occupation": ["physicist"], "country": ["France"]}


def test_aspect_space_neighbours_explain_with_shared_labels(engine):
    result = engine.neighbours("Claude Monet", "aspect:occupation", k=1)
    assert ids(result) == ["vangogh"]
    assert result[0].shared == {"occupation": ["painter"], "century": ["19th"]}


def test_a_blends_own_ranking_equals_exact_weighted_scores_over_the_whole_corpus(engine):
    row = engine.corpus.position["curie"]
    rows, scores = engine.ranked_rows("blend:occupation:0.7,country:0.3", row, 5)
    occ, cty = engine.spaces["occupation"].embeddings_, engine.spaces["country"].embeddings_
    exact = 0.7 * occ @ occ[row] + 0.3 * cty @ cty[row]
    exact[row] = -np.inf
    assert list(rows) == list(np.argsort(-exact, kind="stable")[:5])
    np.testing.assert_allclose(scores, np.sort(exact)[::-1][:5], atol=1e-5)
    # Weights are relative: 7:3 is 0.7:0.3; a Query and its spelling ask the same.
    assert ids(engine.neighbours("curie", Query.blended({"occupation": 7, "country": 3}), 5)) == \
        ids(engine.neighbours("curie", "blend:occupation:0.7,country:0.3", 5))


@pytest.mark.parametrize("query, error, message", [
    ("blend", InvalidQueryError, "needs weights"),
    ("blend:colour:1", UnknownSpaceError, "unknown space 'colour'.*Spaces: generic"),
    ("blend:occupation:-1", InvalidQueryError, ">= 0"),
    ("blend:occupation:nan", InvalidQueryError, ">= 0"),
    ("blend:occupation:0,country:0", InvalidQueryError, "positive"),
    ("blend:occupation:lots", InvalidQueryError, "number"),
    ("blend:occupation", InvalidQueryError, "Bad blend part 'occupation'"),
])
def test_bad_blends_name_the_bad_part(engine, query, error, message):
    with pytest.raises(error, match=message):
        engine.neighbours("Marie Curie", query)


def _with_union_copies(engine, *names: str, drop_default: bool = False) -> Neighbourhood:
    """The engine's spaces plus copies of its union space under other names (without `union` if asked)."""
    corpus, union = engine.corpus, engine.spaces["union"]
    spaces = {name: space for name, space in engine.spaces.items() if not (drop_default and name == "union")}
    for name in names:
        spaces[name] = Space(name, "union", "not-installed", ("occupation", "country"))
        spaces[name]._set_state(union.embeddings_, corpus.name, corpus.content_hash, "x", "fp32", "", 0.0, "")
    return Neighbourhood(corpus, spaces)


def test_a_kind_that_matches_several_spaces_is_refused_with_the_choices(engine):
    two = _with_union_copies(engine, "union-two", "union-three", drop_default=True)
    with pytest.raises(InvalidQueryError, match="'union' matches 2 spaces.*name one: union:union-two, union:union-three"):
        two.neighbours("Marie Curie", "union")
    assert ids(two.neighbours("Marie Curie", "union:union-two", 3)) == ids(engine.neighbours("Marie Curie", "union", 3))


def test_a_bare_kind_keeps_naming_its_default_space_when_another_is_trained_beside_it(engine):
    two = _with_union_copies(engine, "union-two")
    two.spaces["union-two"].embeddings_ = two.spaces["union-two"].embeddings_[::-1].copy()  # ranks differently
    assert ids(two.neighbours("Marie Curie", "union", 5)) == ids(engine.neighbours("Marie Curie", "union", 5))
    assert ids(two.neighbours("Marie Curie", "union:union-two", 5)) != ids(engine.neighbours("Marie Curie", "union", 5))
    assert [str(q) for q in two.available_queries()][-2:] == ["union:union", "union:union-two"]


def test_missing_space_for_the_kind_lists_what_exists(engine):
    with pytest.raises(UnknownSpaceError, match=r"no aspect space named 'century'.*Spaces: generic \(generic\), "
                                                r"occupation \(aspect\)"):
        engine.neighbours("Marie Curie", "aspect:century")
    with pytest.raises(UnknownSpaceError, match="no intersection space"):
        engine.neighbours("Marie Curie", "intersection")
    with pytest.raises(InvalidQueryError, match="Unknown kind 'colour'.*valid kinds: links, morelike, generic"):
        engine.neighbours("Marie Curie", "colour")


def test_two_articles_with_one_title_are_picked_by_id(engine):
    with pytest.raises(AmbiguousTitleError, match="mercury-planet, mercury-god"):
        engine.neighbours("Mercury", "generic")
    assert "mercury-god" not in ids(engine.neighbours("mercury-god", "generic", k=20))


def test_unknown_title_suggests_the_closest(engine):
    with pytest.raises(UnknownArticleError) as caught:
        engine.neighbours("Marie Curry", "generic")
    assert "Marie Curie" in caught.value.suggestions


@pytest.mark.parametrize("seed", ["", "   ", None])
def test_empty_seed(engine, seed):
    with pytest.raises(InvalidQueryError, match="Empty seed"):
        engine.neighbours(seed, "generic")


@pytest.mark.parametrize("k", [0, -3, 2.5, True, "10"])
def test_k_must_be_a_positive_whole_number(engine, k):
    with pytest.raises(InvalidQueryError, match="k must be"):
        engine.neighbours("Marie Curie", "generic", k=k)
    with pytest.raises(InvalidQueryError, match="k must be"):
        engine.neighbours_for_text("a painter", "generic", k=k)


def test_free_text_is_encoded_for_spaces_whose_encoder_is_available(engine):
    result = engine.neighbours_for_text("an impressionist painter of water lilies", "generic", k=3)
    assert "monet" in ids(result) and all(n.shared == {} for n in result)
    assert len(engine.neighbours_for_text("Marie Curie", "generic", k=50)) == len(engine.corpus)  # no seed to drop
    with pytest.raises(UnknownSpaceError, match="cannot be encoded for: occupation"):
        engine.neighbours_for_text("a painter", "aspect:occupation")


@pytest.mark.parametrize("text", ["", "  \n "])
def test_empty_free_text(engine, text):
    with pytest.raises(InvalidQueryError, match="Empty query"):
        engine.neighbours_for_text(text, "generic")


def test_free_text_has_no_links(engine):
    with pytest.raises(InvalidQueryError, match="Links need an article"):
        engine.neighbours_for_text("a painter", "links")


def test_all_neighbours_covers_every_kind_and_blend_when_given(engine):
    columns = engine.all_neighbours("Marie Curie", k=3)
    assert [str(q) for q in columns] == ["links", "generic", "aspect:occupation", "aspect:country", "union"]
    blend = Blend.of({"union": 1, "generic": 1})
    weighted = engine.all_neighbours("Marie Curie", k=3, blend=blend)
    assert list(weighted)[-1] == Query(Kind.BLEND, blend=blend) and len(weighted[Query.blended(blend)]) == 3


def test_a_space_of_another_corpus_is_refused(engine):
    with pytest.raises(AspectNavError, match="rows for"):
        Neighbourhood(aspect_corpus(articles=list(engine.corpus)[:5]), [engine.spaces["generic"]])


def test_a_links_weight_blends_linked_from_the_seed_with_similarity(engine):
    """score = w_links * [seed links to it] + sum of w_space * cosine: the formula of explore.ranking.ranked_rows."""
    seed = engine.corpus["curie"]
    linked = {"pierre", "radium"}
    generic = {n.id: n.score for n in engine.neighbours(seed, "generic", k=1000)}
    result = engine.neighbours(seed, "blend:links:0.3,generic:0.7", k=len(engine.corpus))
    assert "curie" not in ids(result) and set(ids(result)[:2]) == linked  # the links' bonus puts them first
    for n in result:
        assert n.score == pytest.approx(0.3 * (n.id in linked) + 0.7 * generic[n.id], abs=1e-5)


def test_a_links_only_blend_keeps_the_links_order_and_the_pool(engine):
    seed = engine.corpus["curie"]
    assert [(n.id, n.score) for n in engine.neighbours(seed, "blend:links:1", k=5)] == [("pierre", 1.0),
                                                                                       ("radium", 1.0)]
    row = engine.corpus.position["curie"]
    pool = np.array(sorted({engine.corpus.position["radium"], engine.corpus.position["monet"]}))
    rows, scores = engine.ranked_rows("blend:links:0.5,generic:0.5", row, 2, pool)
    assert set(rows) <= set(pool) and engine.corpus.articles[rows[0]].id == "radium"


def test_a_links_blend_needs_an_article_seed_and_a_corpus_with_links(engine):
    with pytest.raises(InvalidQueryError, match="weighs links, which need an article seed"):
        engine.neighbours_for_text("a painter", "blend:links:0.5,generic:0.5")
    from explore.corpus.model import Corpus, Provenance

    no_links = Corpus("tiny", list(engine.corpus), Provenance(source="test", date="2026-01-01", links="none"))
    plain = Neighbourhood(no_links, engine.spaces)
    with pytest.raises(UnknownSpaceError, match="weighs links, but corpus 'tiny' has none"):
        plain.neighbours("curie", "blend:links:0.5,generic:0.5")


def test_a_served_aspect_column_ranks_the_related_pool_label_sharers_first(engine):
    from explore.relevant_first import RelevantFirst, Serving

    engine.relevant_first = RelevantFirst({Kind.ASPECT: Serving(4, 0.5)})
    engine._seed_rows.cache_clear()
    try:
        seed = engine.corpus["curie"]
        row = engine.corpus.position["curie"]
        generic = engine.spaces["generic"]
        nearest = set(generic.nearest(generic.vector(row), 5)[0]) - {row}
        linked = set(engine.linked_rows(seed))
        served = engine.neighbours(seed, "aspect:country", 10)
        rows = [engine.corpus.position[n.id] for n in served]
        assert set(rows) <= nearest | linked  # only articles related to the seed at all
        shares = [bool(n.shared.get("country")) for n in served]
        assert shares == sorted(shares, reverse=True)  # label-sharers first
        # ranked by the module's formula, 0.5 (country cosine + shared) + 0.5 generic cosine; the score shown is the
        # weighted similarity alone (the shared label is the card's chip)
        country = engine.spaces["country"]
        ranked = []
        for n, r in zip(served, rows):
            similarity = 0.5 * float(country.similarities(country.vector(row), np.array([r]))[0]) \
                + 0.5 * float(generic.similarities(generic.vector(row), np.array([r]))[0])
            assert abs(n.score - similarity) < 1e-5
            ranked.append(similarity + 0.5 * bool(n.shared.get("country")))
        assert ranked == sorted(ranked, reverse=True)
        # a raw space query (what evaluation of the space asks) is the space alone over the whole corpus
        raw, _ = engine.ranked_rows("space:country", row, 3)
        assert [engine.corpus.articles[r].id for r in raw] == ids(engine.neighbours(seed, "space:country", 3))
    finally:
        engine.relevant_first = RelevantFirst()
        engine._seed_rows.cache_clear()


def test_without_a_policy_every_column_is_its_spaces_own_ranking(engine):
    plain = Neighbourhood(engine.corpus, engine.spaces, relevant_first=None)
    row = engine.corpus.position["curie"]
    for query in ("aspect:country", "union", "blend:occupation:0.7,country:0.3"):
        rows, _ = plain.ranked_rows(query, row, 4)
        assert ids(plain.neighbours("curie", query, 4)) == [plain.corpus.articles[r].id for r in rows]


def test_a_column_whose_related_articles_do_not_share_its_aspect_is_not_drawn(engine):
    from explore.relevant_first import RelevantFirst, Serving

    # a pool of the two nearest: too few articles related to the seed share its occupation to fill a column
    engine.relevant_first = RelevantFirst({kind: Serving(1, 0.5) for kind in (Kind.ASPECT, Kind.UNION)})
    engine._seed_rows.cache_clear()
    try:
        seed = engine.corpus["bach"]
        not_drawn = engine.spaces_not_worth_drawing(seed)
        assert not_drawn  # Bach's nearest are not German composers
        drawn = {str(q) for q in engine.query_kinds(seed=seed)}
        assert not any(name in drawn for name in (f"aspect:{n}" for n in not_drawn))
    finally:
        engine.relevant_first = RelevantFirst()
        engine._seed_rows.cache_clear()


def test_a_typed_sentence_is_served_relevant_first_as_an_article_is(engine, minilm):
    """A free-text aspect column ranks the sentence's related articles (its generic nearest), by the served mix;
    a sentence has no labels, so no label term."""
    from explore.relevant_first import RelevantFirst, Serving

    corpus = engine.corpus
    painter = Space("painterly", "aspect", "minilm", ("occupation",)).fit(corpus, minilm, progress=False)
    served = Neighbourhood(corpus, [*engine.spaces.values(), painter],
                           relevant_first=RelevantFirst({Kind.ASPECT: Serving(3, 0.5)}))
    text = "an impressionist painter of water lilies"
    result = served.neighbours_for_text(text, "aspect:painterly", k=10)
    generic = served.spaces["generic"]
    vector = served.space_vector(None, "generic", text=text)
    pool = set(generic.nearest(vector, 4)[0])
    assert len(result) == 4 and {corpus.position[n.id] for n in result} == pool  # the related articles only
    assert "monet" in ids(result) and all(n.shared == {} for n in result)
    for n in result:
        row = np.array([corpus.position[n.id]])
        expected = 0.5 * painter.similarities(served.space_vector(None, "painterly", text=text), row)[0] \
            + 0.5 * generic.similarities(vector, row)[0]
        assert n.score == pytest.approx(float(expected), abs=1e-5)
    plain = Neighbourhood(corpus, served.spaces, relevant_first=None)
    assert len(plain.neighbours_for_text(text, "aspect:painterly", k=10)) == 10  # the whole corpus, unserved
