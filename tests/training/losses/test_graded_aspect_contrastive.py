import numpy as np
import torch

from training.losses import AspectCSEFalseNegativeLoss, GradedAspectContrastiveLoss
from training.relevance import LabelIndex, RelevanceRule

ASPECTS = ("country", "occupation")


def embeddings(n, dim=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(n, dim, generator=g, requires_grad=True) for _ in range(3)]


def people_by_shared(corpus):
    """anchor, a shares-both, a shares-country-only, a shares-occupation-only and an unrelated row."""
    a = corpus.articles
    people = [r for r, x in enumerate(a) if x.labels("country") and x.labels("occupation")]
    for anchor in people:
        kinds = {}
        for r in people:
            if r != anchor:
                kinds.setdefault(frozenset(a[r].shared_labels(a[anchor]).keys() & set(ASPECTS)), r)
        wanted = [frozenset(ASPECTS), frozenset({"country"}), frozenset({"occupation"}), frozenset()]
        if all(k in kinds for k in wanted):
            return anchor, *(kinds[k] for k in wanted)
    raise AssertionError("the fixture corpus lacks a person with every kind of neighbour")


def test_grades_count_the_shared_aspects(fixture_corpus):
    rule = RelevanceRule(LabelIndex(fixture_corpus, ASPECTS), ASPECTS, "graded")
    anchor, both, country, occupation, none = people_by_shared(fixture_corpus)
    assert rule.grades([anchor], [both, country, occupation, none]).tolist() == [[2, 1, 1, 0]]
    assert rule.matrix([anchor], [both, country, occupation, none]).tolist() == [[True, True, True, False]]


def test_equals_the_false_negative_loss_for_one_aspect(fixture_corpus):
    """One level, positives = the own positive and candidates sharing the label: the same terms as aspectcse-fn
    when nothing but the own positive is relevant."""
    rule = RelevanceRule(LabelIndex(fixture_corpus, ["occupation"]), ("occupation",))
    occupation = {row: a.labels("occupation") for row, a in enumerate(fixture_corpus.articles)}
    painters = [r for r, ls in occupation.items() if ls == ("painter",)]
    physicists = [r for r, ls in occupation.items() if ls == ("physicist",)]
    composers = [r for r, ls in occupation.items() if ls == ("composer",)]
    rows = torch.tensor([[painters[0], painters[1], composers[0]], [physicists[0], physicists[1], composers[1]]])
    emb = embeddings(2)
    graded = GradedAspectContrastiveLoss(torch.nn.Identity(), rule).compute_loss_from_embeddings(emb, rows)
    masked = AspectCSEFalseNegativeLoss(torch.nn.Identity(), rule).compute_loss_from_embeddings(emb, rows)
    assert torch.allclose(graded, masked)


def test_a_shares_both_candidate_ranked_first_costs_less_than_a_shares_one(fixture_corpus):
    rule = RelevanceRule(LabelIndex(fixture_corpus, ASPECTS), ASPECTS, "graded")
    anchor, both, country, occupation, none = people_by_shared(fixture_corpus)
    rows = torch.tensor([[anchor, country, none], [occupation, both, none]])
    loss = GradedAspectContrastiveLoss(torch.nn.Identity(), rule)
    # anchor 0's candidates: positives (country, both), then negatives (none, none)
    assert loss.grade_matrix(rows)[0].tolist() == [1, 2, 0, 0]
    near, far, away = torch.tensor([1.0, 0, 0]), torch.tensor([0.6, 0.8, 0]), torch.tensor([-1.0, 0, 0])
    anchors = torch.stack([torch.tensor([1.0, 0, 0]), torch.tensor([0, 0, 1.0])])  # anchor 1 is equally far from all

    def value(both_vector, country_vector):
        emb = [anchors, torch.stack([country_vector, both_vector]), torch.stack([away, away])]
        return loss.compute_loss_from_embeddings(emb, rows)

    assert value(near, far) < value(far, near)
    emb = embeddings(2)
    loss.compute_loss_from_embeddings(emb, rows).backward()
    assert all(e.grad is not None and torch.isfinite(e.grad).all() for e in emb)


def test_graded_sampling_draws_a_shares_all_positive_first(fixture_corpus):
    from training.splits import split_by_article
    from training.triplets import TripletSampler

    rule = RelevanceRule(LabelIndex(fixture_corpus, ASPECTS), ASPECTS, "graded")
    split = split_by_article(fixture_corpus, 0, 0.2)
    sampler = TripletSampler(rule, split)
    triplets = sampler.sample(seed=1, per_anchor=2)
    first, second = triplets.rows[0::2], triplets.rows[1::2]
    shares_all = [rule.grades([a], [p])[0, 0] == 2 for a, p, _ in first]
    could = [len(sampler.positive_pool(int(a), np.random.default_rng(0), 0)) > 0
             and rule.grades([a], sampler.positive_pool(int(a), np.random.default_rng(0), 0)).min() == 2
             for a, _, _ in first]
    assert shares_all == could and any(shares_all)
    assert any(rule.grades([a], [p])[0, 0] == 1 for a, p, _ in second)
    assert all(rule.grades([a], [n])[0, 0] == 0 for a, _, n in triplets.rows)
