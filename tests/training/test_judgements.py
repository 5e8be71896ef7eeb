"""Read-next judgements (training/judgements.py) and the shipped ones (assets/judgements/): frozen, blind, complete."""
import json
from pathlib import Path

import pytest

from training.judgements import Judgements
from training.validation import TrainingInputError

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "judgements"
POOLS = [ASSETS / f"vital-pool{i}.json" for i in (1, 2, 3, 4)]


def write(path, seeds, corpus="c"):
    path.write_text(json.dumps({"corpus": corpus, "seeds": seeds}))
    return path


def test_pools_merge_and_a_pair_graded_twice_or_a_bad_grade_is_refused(tmp_path):
    first = write(tmp_path / "1.json", [{"seed": "s", "stratum": "people", "grades": {"a": 2, "b": 0}}])
    second = write(tmp_path / "2.json", [{"seed": "s", "grades": {"c": 1}}, {"seed": "t", "grades": {"a": 1}}])
    judged = Judgements.load(first, second)
    assert judged.grade("s", "a") == 2 and judged.grade("s", "c") == 1 and judged.grade("s", "z") is None
    assert judged.pairs() == 4 and judged.strata == {"s": "people", "t": ""}
    again = write(tmp_path / "3.json", [{"seed": "s", "grades": {"a": 1}}])
    with pytest.raises(TrainingInputError, match="graded in an earlier pool"):
        Judgements.load(first, again)
    for bad in (3, -1, True, "2", None):
        with pytest.raises(TrainingInputError, match="grades are 0, 1 or 2"):
            Judgements.load(write(tmp_path / "bad.json", [{"seed": "s", "grades": {"a": bad}}]))
    other = write(tmp_path / "o.json", [{"seed": "s", "grades": {"x": 1}}], corpus="d")
    with pytest.raises(TrainingInputError, match="of corpus 'd'"):
        Judgements.load(first, other)
    (tmp_path / "junk.json").write_text("[1, 2")
    with pytest.raises(TrainingInputError, match="Cannot read judgements"):
        Judgements.load(tmp_path / "junk.json")


def test_the_shipped_pools_grade_every_pooled_pair_once():
    judged = Judgements.load(*POOLS)
    first = json.loads(POOLS[0].read_text())
    assert len(first["seeds"]) == 80
    strata = [entry["stratum"] for entry in first["seeds"]]
    assert {s: strata.count(s) for s in set(strata)} == dict.fromkeys(first["draw"]["strata"], 16)
    excluded = {t.casefold() for t in first["draw"]["excluded"]}
    assert not any(entry["title"].casefold() in excluded for entry in first["seeds"])
    for entry in first["seeds"]:
        pooled = {c for ids in [*entry["columns"].values(), *entry["deeper"].values()] for c in ids}
        assert set(entry["candidates"]) == pooled == set(entry["grades"])
        assert all(len(ids) <= 5 for ids in entry["columns"].values())
    assert judged.pairs() == sum(len(json.loads(p.read_text())["seeds"][i]["grades"])
                                 for p in POOLS for i in range(len(json.loads(p.read_text())["seeds"])))


def test_the_reported_agreement_is_that_of_the_re_judged_pairs():
    from sklearn.metrics import cohen_kappa_score

    agreement = json.loads((ASSETS / "vital-pool1-agreement.json").read_text())
    judged = Judgements.load(POOLS[0])
    pairs = agreement["pairs_graded"]
    assert len(pairs) == agreement["pairs"] == round(0.1 * judged.pairs())
    assert all(judged.grade(p["seed"], p["candidate"]) == p["first"] for p in pairs)
    first, second = [p["first"] for p in pairs], [p["second"] for p in pairs]
    assert agreement["exact"] == pytest.approx(sum(a == b for a, b in zip(first, second)) / len(pairs))
    assert agreement["kappa_quadratic"] == pytest.approx(cohen_kappa_score(first, second, weights="quadratic"))


def test_a_deeply_nested_file_is_refused_in_words_not_a_recursion_error(tmp_path):
    """Issue #49 item 3: the bound the other readers of a user's JSON keep (explore/user_files.py)."""
    deep = tmp_path / "deep.json"
    deep.write_text('{"corpus": "c", "seeds": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(TrainingInputError, match=r"deep\.json: values nested more than 64 deep"):
        Judgements.load(deep)


def _small_corpus():
    from explore.corpus.model import Article, Corpus, Provenance

    articles = [Article(i, i.title(), f"Text {i}.", "", "", (), {}) for i in ("s", "a", "b", "c")]
    return Corpus("c", articles, Provenance("test", "2026"))


def _pool(path, corpus, grades, **fields):
    path.write_text(json.dumps({"corpus": "c", "corpus_content_hash": corpus.content_hash, "depth": 5, **fields,
                                "seeds": [{"seed": "s", "grades": grades}]}))
    return path


def test_a_pool_that_does_not_fit_the_corpus_is_refused_not_counted(tmp_path):
    """Issue #49 item 4: a candidate outside the corpus was counted (a row's nDCG fell from 0.660 to 0.466 without a
    word), another corpus's content hash and a depth of -3 or 10^6 were accepted."""
    corpus = _small_corpus()
    Judgements.load(_pool(tmp_path / "good.json", corpus, {"a": 2, "b": 0})).check_against(corpus)
    ghost = Judgements.load(_pool(tmp_path / "ghost.json", corpus, {"a": 2, "ghost": 0, "gone": 1}))
    with pytest.raises(TrainingInputError, match=r"2 graded candidates are not in corpus 'c' \('ghost' \(seed 's'\), "
                                                 r"'gone' \(seed 's'\)\)"):
        ghost.check_against(corpus)
    other = Judgements.load(_pool(tmp_path / "other.json", corpus, {"a": 2}, corpus_content_hash="0123456789abcdef"))
    with pytest.raises(TrainingInputError, match=r"other\.json were judged on corpus 'c' with content hash "
                                                 r"0123456789abcdef; it is now " + corpus.content_hash):
        other.check_against(corpus)
    for depth in (-3, 0, 10**6, 2.5, "5", True):
        with pytest.raises(TrainingInputError, match=r"depth .* a whole number from 1 to 100"):
            Judgements.load(_pool(tmp_path / "depth.json", corpus, {"a": 2}, depth=depth))
    unhashed = tmp_path / "unhashed.json"  # a pool written before the hash was recorded is checked by its ids alone
    unhashed.write_text(json.dumps({"corpus": "c", "seeds": [{"seed": "s", "grades": {"a": 1}}]}))
    Judgements.load(unhashed).check_against(corpus)


@pytest.mark.parametrize("seeds", [[1], [{"grades": {"a": 1}}], [{"seed": "s", "grades": ["a"]}], {"s": 1}])
def test_a_seed_entry_of_the_wrong_shape_is_refused_in_words(tmp_path, seeds):
    path = tmp_path / "shape.json"
    path.write_text(json.dumps({"corpus": "c", "seeds": seeds}))
    with pytest.raises(TrainingInputError, match=r"shape\.json: each of `seeds` is an object with `seed` and `grades`"):
        Judgements.load(path)
