"""Choosing a column's serving on judged seeds (training/column_choice.py): the bar first, then the column score,
and folds that never choose on the seeds they score."""
from training.column_choice import best, cross_validate, folds_of, verdict
from training.worth_reading import ColumnFigures, SeedFigures


def column(name, per_seed):
    figures = ColumnFigures(name)
    figures.per_seed = {s: SeedFigures(ndcg, precision, shares, 0, 5) for s, (ndcg, precision, shares) in
                        per_seed.items()}
    return figures


SEEDS = [f"s{i}" for i in range(10)]
GENERIC = column("generic", {s: (0.8, 0.9, 0.6) for s in SEEDS})
BEFORE = column("before", {s: (0.4, 0.5, 0.9) for s in SEEDS})


def test_a_setting_below_the_bar_loses_to_one_that_meets_it_whatever_its_score():
    shares_more = column("a", {s: (0.6, 0.85, 0.95) for s in SEEDS})  # meets: P 0.94x, shares ≥ 0.9
    reads_better = column("b", {s: (0.9, 0.95, 0.8) for s in SEEDS})  # higher score, shares fall below before
    assert verdict(reads_better, GENERIC, BEFORE, SEEDS).score > verdict(shares_more, GENERIC, BEFORE, SEEDS).score
    assert best({"a": [(shares_more, GENERIC, BEFORE)], "b": [(reads_better, GENERIC, BEFORE)]}, SEEDS) == "a"


def test_folds_hold_every_stratum_and_each_fold_chooses_on_the_others():
    strata = {s: ("people" if i % 2 else "places") for i, s in enumerate(SEEDS)}
    folds = folds_of(strata, n_folds=5, seed=1)
    assert sorted(s for fold in folds for s in fold) == sorted(SEEDS)
    assert all({strata[s] for s in fold} == {"people", "places"} for fold in folds)
    # a setting that is best only on s0's fold's seeds is never chosen for that fold
    odd = column("odd", {s: ((1.0, 1.0, 1.0) if s in folds[0] else (0.1, 0.1, 0.1)) for s in SEEDS})
    even = column("even", {s: (0.7, 0.9, 0.95) for s in SEEDS})
    result = cross_validate({"odd": [(odd, GENERIC, BEFORE)], "even": [(even, GENERIC, BEFORE)]}, folds)
    assert result.per_fold[0] == "even"
