import numpy as np
import pytest

from training.relevance import LabelIndex, RelevanceRule
from training.splits import split_by_article
from training.triplets import TripletSampler


def test_split_is_seeded_disjoint_and_complete(fixture_corpus):
    first, again = split_by_article(fixture_corpus, seed=7), split_by_article(fixture_corpus, seed=7)
    other = split_by_article(fixture_corpus, seed=8)
    assert np.array_equal(first.test, again.test) and first.fingerprint == again.fingerprint
    assert not np.array_equal(first.test, other.test)
    assert not set(first.train) & set(first.test)
    assert sorted([*first.train, *first.test]) == list(range(len(fixture_corpus)))
    assert len(first.test) == round(0.2 * len(fixture_corpus))


@pytest.mark.parametrize("aspects,combine,sampling", [
    (("country",), "single", "aspect-first"),
    (("country", "occupation"), "union", "pooled"),
    (("country", "occupation"), "union", "aspect-first"),
    (("country", "occupation"), "intersection", "aspect-first"),
])
def test_no_test_article_appears_in_any_training_example(fixture_corpus, aspects, combine, sampling):
    split = split_by_article(fixture_corpus, seed=3)
    rule = RelevanceRule(LabelIndex(fixture_corpus, aspects), aspects, combine)
    sampler = TripletSampler(rule, split, sampling, unlabelled_negatives=0.3)
    for epoch in range(3):
        triplets = sampler.sample(seed=epoch, per_anchor=2)
        assert len(triplets) > 0
        assert not set(triplets.rows.ravel()) & set(split.test)
