"""Evaluation ranks through the engine: the figures it reports are those of the lists the app serves."""
import numpy as np
import pytest

from explore.neighbours import Neighbourhood
from explore.spaces import Space
from training.evaluation import AspectRetrievalEvaluator
from training.rankings import EmbeddingRanking, QueryRanking
from training.splits import split_by_article

from tests.fixture_corpora import make_corpus, make_embeddings

BLEND = "blend:country:0.6,occupation:0.4"


def _space(name: str, kind: str, corpus, embeddings) -> Space:
    return Space(name, kind, "not-installed")._set_state(embeddings, corpus.name, corpus.content_hash, "test", "fp32",
                                                          "", 0.0, "")


@pytest.fixture(scope="module")
def engine():
    corpus = make_corpus(people=900, unlabelled=300)  # large enough for hnswlib and blend candidates to matter
    spaces = [_space("generic", "generic", corpus, make_embeddings(corpus, signal=0.3, seed=1)),
              _space("country", "aspect", corpus, make_embeddings(corpus, signal=0.9, seed=2)),
              _space("occupation", "aspect", corpus, make_embeddings(corpus, signal=0.9, seed=3))]
    return Neighbourhood(corpus, spaces)


@pytest.mark.parametrize("query", [BLEND, "aspect:country", "generic"])
def test_the_evaluated_top_k_is_the_served_top_k(engine, query):
    seeds = np.random.default_rng(0).choice(len(engine.corpus), size=40, replace=False)
    evaluated = QueryRanking(engine, query).top(seeds, None, 10)
    for seed, rows in zip(seeds, evaluated):
        served = [n.id for n in engine.neighbours(engine.corpus.articles[seed], query, 10)]
        assert [engine.corpus.articles[r].id for r in rows] == served


def test_reported_mrr_is_computed_from_the_served_lists(engine):
    split = split_by_article(engine.corpus)
    evaluator = AspectRetrievalEvaluator(engine.corpus, split, ["country"], k=10)
    metrics = evaluator(QueryRanking(engine, BLEND))
    reciprocal = []
    for row in evaluator.seeds(["country"]):
        seed = engine.corpus.articles[row]
        served = engine.neighbours(seed, BLEND, 10)
        hits = [bool(set(seed.labels("country")) & set(engine.corpus[n.id].labels("country"))) for n in served]
        reciprocal.append(1 / (hits.index(True) + 1) if any(hits) else 0.0)
    assert metrics["corpus/country/mrr@10"] == pytest.approx(np.mean(reciprocal))


def test_in_a_pool_one_space_ranks_as_exact_cosine(engine):
    split = split_by_article(engine.corpus)
    evaluator = AspectRetrievalEvaluator(engine.corpus, split, ["country", "occupation"], k=10)
    served = evaluator(QueryRanking(engine, "aspect:country"))
    exact = evaluator(EmbeddingRanking(engine.spaces["country"].embeddings_))
    for key in ("test/country/mrr@10", "test/occupation/precision@10", "test/country/agts"):
        assert served[key] == pytest.approx(exact[key])


def test_links_are_evaluated_as_the_links_column_serves_them():
    from explore.errors import UnknownSpaceError
    from tests.fixture_corpora import fixture_corpus

    corpus = fixture_corpus()
    engine = Neighbourhood(corpus, [_space("generic", "generic", corpus, make_embeddings(make_corpus(), seed=4)[
        np.arange(len(corpus)) % 84])])
    links = QueryRanking(engine, "links")
    seeds = np.arange(0, 120, 7)
    for seed, rows in zip(seeds, links.top(seeds, None, 10)):
        served = [n.id for n in engine.neighbours(corpus.articles[seed], "links", 10)]
        assert [corpus.articles[r].id for r in rows if r >= 0] == served
    pool = np.arange(0, 120, 2)
    for seed, rows in zip(seeds, links.top(seeds, pool, 10)):  # inside a pool: the served links that lie in it
        served = [corpus.position[n.id] for n in engine.neighbours(corpus.articles[seed], "links", 10)]
        assert [r for r in rows if r >= 0] == [r for r in served if r in set(pool)]
    evaluator = AspectRetrievalEvaluator(corpus, split_by_article(corpus), ["country"], k=10)
    metrics = evaluator(links)
    assert 0 <= metrics["corpus/country/mrr@10"] <= 1 and np.isnan(metrics["test/country/agts"])
    from explore.corpus.model import Corpus, Provenance

    no_links = Neighbourhood(Corpus("bare", make_corpus().articles, Provenance(source="test", date="", links="none")), [])
    with pytest.raises(UnknownSpaceError, match="has no links"):
        QueryRanking(no_links, "links")


def test_a_default_mix_row_ranks_each_seed_by_its_own_default_mix():
    from explore.mix import default_mix
    from explore.query import Query
    from tests.app_pages.conftest import fixture_engine
    from tests.fixture_corpora import fixture_corpus
    from training.rankings import DefaultMix, DefaultMixRanking

    engine = fixture_engine(fixture_corpus())
    ranking = DefaultMixRanking(engine, DefaultMix.parse("default-mix:0.1"))
    seeds = np.arange(0, len(engine.corpus), 7)
    for seed, rows in zip(seeds, ranking.top(seeds, None, 5)):
        article = engine.corpus.articles[seed]
        served = [n.id for n in engine.neighbours(article, Query.blended(default_mix(engine, article, 0.1)), 5)]
        assert [engine.corpus.articles[r].id for r in rows if r >= 0] == served
    assert ranking.pair_scores(seeds, seeds) is None  # each seed has its own mix: no AgTS


def test_default_mix_rows_are_spelt_once_and_round_trip():
    from explore.errors import InvalidQueryError
    from explore.mix import DEFAULT_LINKS_SHARE
    from training.rankings import DefaultMix

    assert DefaultMix.parse("default-mix") == DefaultMix(DEFAULT_LINKS_SHARE)
    assert str(DefaultMix.parse("default-mix:0.05")) == "default-mix:0.05"
    assert DefaultMix.parse(str(DefaultMix(0.15))) == DefaultMix(0.15)
    assert not DefaultMix.spelt("default-mixer")
    with pytest.raises(InvalidQueryError, match="from 0 to 1"):
        DefaultMix.parse("default-mix:lots")


def test_a_blend_with_links_is_evaluated_without_agts():
    from tests.app_pages.conftest import fixture_engine
    from tests.fixture_corpora import fixture_corpus

    engine = fixture_engine(fixture_corpus())
    ranking = QueryRanking(engine, "blend:links:0.3,country:0.7")
    assert ranking.pair_scores(np.array([0, 1]), np.array([2, 3])) is None
