import numpy as np
import pytest

from explore.corpus.model import Article, Corpus, Provenance

from training.relevance import LabelIndex, RelevanceRule
from training.splits import split_by_article
from training.triplets import TripletSampler

BOTH = ("country", "occupation")


def sampler_for(corpus, aspects, combine, sampling="aspect-first", unlabelled=0.0):
    rule = RelevanceRule(LabelIndex(corpus, aspects), aspects, combine)
    return rule, TripletSampler(rule, split_by_article(corpus, seed=1), sampling, unlabelled)


@pytest.mark.parametrize("aspects,combine", [(("country",), "single"), (BOTH, "union"), (BOTH, "intersection")])
def test_positives_are_relevant_and_negatives_are_not(fixture_corpus, aspects, combine):
    rule, sampler = sampler_for(fixture_corpus, aspects, combine, unlabelled=0.2)
    triplets = sampler.sample(seed=0, per_anchor=3)
    for anchor, positive, negative in triplets.rows:
        assert anchor != positive and rule.related(anchor, positive)
        assert not rule.related(anchor, negative)


def test_intersection_positive_shares_every_aspect_and_negative_misses_one(fixture_corpus):
    _, sampler = sampler_for(fixture_corpus, BOTH, "intersection")
    a = fixture_corpus.articles
    for anchor, positive, negative in sampler.sample(seed=0).rows:
        assert a[anchor].shared_labels(a[positive], BOTH).keys() == set(BOTH)
        assert len(a[anchor].shared_labels(a[negative], BOTH)) < 2


def test_union_negative_shares_no_label_of_any_aspect(fixture_corpus):
    _, sampler = sampler_for(fixture_corpus, BOTH, "union")
    a = fixture_corpus.articles
    for anchor, _, negative in sampler.sample(seed=0).rows:
        assert a[anchor].shared_labels(a[negative], BOTH) == {}


def test_unlabelled_articles_are_extra_negatives(fixture_corpus):
    _, sampler = sampler_for(fixture_corpus, ("country",), "single", unlabelled=0.5)
    negatives = sampler.sample(seed=0, per_anchor=4).rows[:, 2]
    unlabelled = [r for r in negatives if not fixture_corpus.articles[r].aspects]
    assert 0.3 < len(unlabelled) / len(negatives) < 0.7


def test_aspect_first_balances_aspects_where_pooled_follows_group_size():
    """Occupation groups (2 labels, 36 people) dwarf country groups (6 labels, 12): pooled follows size."""
    corpus = Corpus("skewed", [
        Article(f"p{i}", f"P{i}", "", aspects={"country": (f"c{i % 6}",), "occupation": (f"o{(i // 6) % 2}",)})
        for i in range(72)], Provenance(source="test", date="2026-01-01"))

    def country_share(sampling):
        """Share of positives that share the (small-group) country aspect with their anchor."""
        _, sampler = sampler_for(corpus, BOTH, "union", sampling)
        a = corpus.articles
        rows = sampler.sample(seed=0, per_anchor=20).rows
        return np.mean([bool(a[anchor].shared_labels(a[positive], ("country",))) for anchor, positive, _ in rows])

    assert country_share("aspect-first") >= 0.5  # half the draws pick country, some occupation draws share it too
    assert country_share("pooled") < 0.35  # ≈ 11 same-country of ~41 candidates


def test_sampling_is_reproducible(fixture_corpus):
    _, sampler = sampler_for(fixture_corpus, BOTH, "union")
    assert np.array_equal(sampler.sample(seed=5).rows, sampler.sample(seed=5).rows)
    assert not np.array_equal(sampler.sample(seed=5).rows, sampler.sample(seed=6).rows)
