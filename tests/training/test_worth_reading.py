"""Worth reading and shares the aspect (training/worth_reading.py), nDCG cross-checked against ranx."""
import json

import pytest

from explore.corpus.model import Article, Corpus, Provenance
from training.judgements import Judgements
from training.worth_reading import AspectRule, column_figures, harmonic, seed_figures

ARTICLES = [Article("s", "Seed", "", aspects={"topic": ("Biology",), "country": ("France",)}),
            Article("a", "A", "", aspects={"topic": ("Biology",)}),
            Article("b", "B", "", aspects={"topic": ("Physics",)}),
            Article("c", "C", "", inferred={"topic": ("Biology",)}),  # inferred: never ground truth
            Article("d", "D", "", aspects={"topic": ("Biology",)}),
            Article("e", "E", "")]
CORPUS = Corpus("c", ARTICLES, Provenance(source="test", date="2026-01-01"))


def judgements(tmp_path, grades):
    path = tmp_path / "j.json"
    path.write_text(json.dumps({"corpus": "c", "seeds": [{"seed": "s", "grades": grades}]}))
    return Judgements.load(path)


def test_unjudged_cards_are_counted_and_left_out_never_assumed(tmp_path):
    judged = judgements(tmp_path, {"a": 2, "b": 0, "c": 1, "d": 2})
    figures = seed_figures(judged, CORPUS, "s", ["a", "e", "b", "c"], AspectRule(("topic",)))
    assert figures.unjudged == 1 and figures.shown == 4
    assert figures.precision == pytest.approx(2 / 3)  # a and c of the judged a, b, c
    assert figures.shares == pytest.approx(1 / 4)  # only a: c's Biology is inferred, e has none
    assert seed_figures(judged, CORPUS, "s", ["e"], AspectRule(("topic",))).ndcg is None


def test_ndcg_is_ranxs_on_the_condensed_list(tmp_path):
    from ranx import Qrels, Run, evaluate

    grades = {"a": 2, "b": 0, "c": 1, "d": 2}
    judged = judgements(tmp_path, grades)
    shown = ["b", "c", "a"]
    ours = seed_figures(judged, CORPUS, "s", shown, AspectRule(("topic",)), k=5).ndcg
    qrels = Qrels({"s": {c: g for c, g in grades.items() if g}})
    run = Run({"s": {c: float(10 - i) for i, c in enumerate(shown)}})
    assert ours == pytest.approx(evaluate(qrels, run, "ndcg@5"))


def test_intersection_needs_every_aspect_and_a_seed_without_an_own_label_has_no_share(tmp_path):
    judged = judgements(tmp_path, {"a": 1})
    both = AspectRule(("topic", "country"), every=True)
    assert not both.shares(ARTICLES[0], ARTICLES[1]) and AspectRule(("topic", "country")).shares(ARTICLES[0],
                                                                                                 ARTICLES[1])
    assert not AspectRule(("occupation",)).applies(ARTICLES[0])
    column = column_figures(judged, CORPUS, "x", {"s": ["a"], "not-judged": ["a"]}, lambda seed: AspectRule(()))
    assert list(column.per_seed) == ["s"] and column.summary()["shares"] is None
    assert harmonic(0.5, 1.0) == pytest.approx(2 / 3) and harmonic(None, 1.0) is None and harmonic(0, 0) == 0
