import numpy as np
import pytest
import torch

from training.losses import AspectCSEFalseNegativeLoss
from training.relevance import LabelIndex, RelevanceRule


def rows_with_labels(corpus, aspect):
    return {row: a.labels(aspect) for row, a in enumerate(corpus.articles)}


def embeddings(n, dim=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(n, dim, generator=g, requires_grad=True) for _ in range(3)]


@pytest.mark.slow  # imports sentence-transformers (seconds)
def test_equals_mnrl_when_no_in_batch_candidate_shares_a_label(fixture_corpus):
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    rule = RelevanceRule(LabelIndex(fixture_corpus, ["occupation"]), ("occupation",))
    labels = rows_with_labels(fixture_corpus, "occupation")
    by_label = {}
    for row, ls in labels.items():
        if ls:
            by_label.setdefault(ls[0], []).append(row)
    painters, physicists, composers = (by_label[k] for k in ("painter", "physicist", "composer"))
    # one painter anchor, one physicist anchor, composer negatives: no candidate is relevant to the other anchor
    rows = torch.tensor([[painters[0], painters[1], composers[0]], [physicists[0], physicists[1], composers[1]]])
    emb = embeddings(2)
    ours = AspectCSEFalseNegativeLoss(torch.nn.Identity(), rule, temperature=0.05)
    theirs = MultipleNegativesRankingLoss(torch.nn.Identity(), scale=20.0)
    assert not ours.false_negative_mask(rows).any()
    assert torch.allclose(ours.compute_loss_from_embeddings(emb, rows), theirs.compute_loss_from_embeddings(emb, rows))


def test_masks_candidates_sharing_the_anchor_label_but_keeps_the_own_positive(fixture_corpus):
    rule = RelevanceRule(LabelIndex(fixture_corpus, ["occupation"]), ("occupation",))
    occupation = {row: a.labels("occupation") for row, a in enumerate(fixture_corpus.articles)}
    painters = [r for r, ls in occupation.items() if ls == ("painter",)]
    others = [r for r, ls in occupation.items() if ls and ls != ("painter",)]
    rows = torch.tensor([[painters[0], painters[1], others[0]], [painters[2], painters[3], others[1]]])
    loss = AspectCSEFalseNegativeLoss(torch.nn.Identity(), rule)
    mask = loss.false_negative_mask(rows)
    # candidates: positives (cols 0, 1) then negatives (cols 2, 3); anchor 0's own positive is col 0
    assert mask.tolist() == [[False, True, False, False], [True, False, False, False]]
    emb = embeddings(2)
    value = loss.compute_loss_from_embeddings(emb, rows)
    unmasked = torch.nn.functional.cross_entropy(
        torch.nn.functional.normalize(emb[0], dim=-1) @ torch.nn.functional.normalize(torch.cat(emb[1:]), dim=-1).T
        / 0.05, torch.arange(2))
    assert value < unmasked  # fewer terms in each denominator
    value.backward()
    assert all(e.grad is not None and torch.isfinite(e.grad).all() for e in emb)


def test_union_and_intersection_rules_decide_what_is_masked(fixture_corpus):
    index = LabelIndex(fixture_corpus, ["country", "occupation"])
    a = fixture_corpus.articles
    people = [r for r, x in enumerate(a) if x.aspects]
    anchor = people[0]
    same_country_only = next(r for r in people if a[r].shared_labels(a[anchor]).keys() == {"country"})
    rows = np.array([anchor]), np.array([same_country_only])
    assert RelevanceRule(index, ("country", "occupation"), "union").matrix(*rows)[0, 0]
    assert not RelevanceRule(index, ("country", "occupation"), "intersection").matrix(*rows)[0, 0]
