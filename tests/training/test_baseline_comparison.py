"""Each column against Wikipedia's Read more (training/baseline_comparison.py): paired by seed, a 95% interval, and
plain sentences on where the baseline wins or ties."""
import pytest

from training.baseline_comparison import ABOVE, BELOW, WITHIN, Difference, paired_difference, where_the_baseline_wins


def test_a_paired_difference_is_above_within_or_below_by_its_interval():
    assert paired_difference([1, 1, 1, 0.9], [0, 0.1, 0, 0]).verdict == ABOVE
    assert paired_difference([0, 0.1, 0, 0], [1, 1, 1, 0.9]).verdict == BELOW
    tie = paired_difference([1, 0, 1, 0], [0, 1, 0, 1])
    assert tie.verdict == WITHIN and tie.low < 0 < tie.high and tie.seeds == 4
    assert paired_difference([0.5], [0.25]) == Difference(0.25, 0.25, 0.25, 1)  # one seed: no spread to show
    assert paired_difference([], []) is None
    same = paired_difference([0.5, 0.5], [0.5, 0.5])
    assert same.mean == 0 and same.verdict == WITHIN


def test_the_sentences_say_where_read_more_wins_and_where_it_ties():
    def entry(low, high):
        return {"mean": (low + high) / 2, "low": low, "high": high, "seeds": 10}

    versus = {"generic": {"ndcg": entry(0.1, 0.2), "precision": entry(0.1, 0.2), "shares": entry(0.2, 0.3)},
              "aspect:field": {"ndcg": entry(-0.3, -0.1), "precision": entry(-0.1, 0.1), "shares": entry(0.1, 0.2)}}
    assert where_the_baseline_wins(versus) == [
        "Read more beats aspect:field on worth reading nDCG@5.",
        "On worth reading P@5 it ties aspect:field (within the spread)."]
    calm = {"generic": versus["generic"]}
    assert where_the_baseline_wins(calm, name_of=str.upper) == [
        "Read more beats no column on worth reading or on sharing the aspect."]


@pytest.mark.parametrize("low, high, verdict", [(0.01, 0.2, ABOVE), (-0.2, -0.01, BELOW), (-0.1, 0.1, WITHIN)])
def test_the_verdict_reads_the_interval(low, high, verdict):
    assert Difference(0.0, low, high, 5).verdict == verdict
