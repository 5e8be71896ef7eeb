"""Relevance rules: the pairwise form agrees with the matrix form for every way of combining aspects."""
import numpy as np
import pytest

from training.relevance import LabelIndex, RelevanceRule


@pytest.mark.parametrize("aspects, combine", [(("country",), "single"), (("country", "occupation"), "union"),
                                              (("country", "occupation"), "intersection")])
def test_pairs_are_the_diagonal_of_the_matrix(fixture_corpus, aspects, combine):
    rule = RelevanceRule(LabelIndex(fixture_corpus, ["country", "occupation"]), aspects, combine)
    rng = np.random.default_rng(0)
    a, b = rng.integers(len(fixture_corpus), size=(2, 300))
    pairs = rule.pairs(a, b)
    assert pairs.dtype == bool and pairs.shape == (300,)
    np.testing.assert_array_equal(pairs, np.diag(rule.matrix(a, b)))
    assert pairs.any() and not pairs.all()
