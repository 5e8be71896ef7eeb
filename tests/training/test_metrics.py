import math

import numpy as np
import pytest

from training.metrics import agts, neighbour_overlap, neighbours, retrieval_metrics


def same_group(groups):
    groups = np.asarray(groups)
    return lambda a, b: (groups[np.asarray(a)][:, None] == groups[np.asarray(b)][None, :]) & \
        (groups[np.asarray(a)][:, None] >= 0)


def same_group_pairs(groups):
    groups = np.asarray(groups)
    return lambda a, b: (groups[np.asarray(a)] == groups[np.asarray(b)]) & (groups[np.asarray(a)] >= 0)


# Five points on a line (cosine order is the index order around seed 0); groups: 0,1,0,0,-1 (-1: unlabelled)
ANGLES = np.array([0.0, 0.1, 0.2, 0.3, 0.4])
LINE = np.stack([np.cos(ANGLES), np.sin(ANGLES)], axis=1)
GROUPS = [0, 1, 0, 0, -1]


def test_hand_computed_metrics_exclude_the_seed():
    scores = retrieval_metrics(LINE, same_group(GROUPS), seeds=np.array([0]), pool=np.arange(5), k=2)
    # ranking for seed 0: 1 (irrelevant), 2 (relevant); relevant in pool: 2 and 3
    assert scores["precision@2"] == pytest.approx(0.5)
    assert scores["recall@2"] == pytest.approx(0.5)
    assert scores["mrr@2"] == pytest.approx(0.5)
    assert scores["map@2"] == pytest.approx((1 / 2) / 2)
    assert scores["seeds"] == 1


def test_seeds_without_relevant_article_in_the_pool_are_counted_apart():
    scores = retrieval_metrics(LINE, same_group(GROUPS), seeds=np.array([0, 1]), pool=np.arange(5), k=2)
    assert scores["seeds"] == 1 and scores["seeds_without_relevant"] == 1


def test_neighbours_and_overlap():
    assert neighbours(LINE, np.array([2]), np.arange(5), 2).tolist() == [[1, 3]]
    assert neighbour_overlap(LINE, LINE, np.array([0, 2]), np.arange(5), k=3) == 1.0


def test_agts_is_positive_when_same_label_pairs_are_closer():
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(4), 10)
    centres = rng.normal(size=(4, 8))
    good = centres[groups] + 0.3 * rng.normal(size=(40, 8))
    assert agts(good, same_group_pairs(groups), np.arange(40), pairs=2000) > 0.5
    assert abs(agts(rng.normal(size=(40, 8)), same_group_pairs(groups), np.arange(40), pairs=2000)) < 0.15
    assert math.isnan(agts(good, same_group_pairs(groups), np.arange(1)))


@pytest.mark.slow
def test_matches_sentence_transformers_information_retrieval_evaluator(fixture_corpus):
    """Same numbers as sentence-transformers on a fixture; it cannot exclude the query from the corpus,
    so it runs once per seed with that seed left out of its corpus, and the results are averaged."""
    from sentence_transformers.sentence_transformer.evaluation import InformationRetrievalEvaluator

    from training.embeddings import article_text, load_sentence_transformer
    from training.relevance import LabelIndex, RelevanceRule

    corpus = fixture_corpus
    model = load_sentence_transformer(device="cpu")
    embeddings = model.encode([article_text(a) for a in corpus.articles], normalize_embeddings=True)
    rule = RelevanceRule(LabelIndex(corpus, ["country"]), ("country",))
    seeds = np.array([r for r, a in enumerate(corpus.articles) if a.labels("country")][::15])
    pool = np.arange(len(corpus))
    ours = retrieval_metrics(embeddings, rule.matrix, seeds, pool, k=10)
    theirs = {"precision": [], "recall": [], "mrr": [], "map": []}
    for seed in seeds:
        docs = {str(r): article_text(corpus.articles[r]) for r in pool if r != seed}
        relevant = {str(r) for r in np.flatnonzero(rule.matrix([seed], pool)[0]) if r != seed}
        evaluator = InformationRetrievalEvaluator(
            {"q": article_text(corpus.articles[seed])}, docs, {"q": relevant}, precision_recall_at_k=[10],
            mrr_at_k=[10], map_at_k=[10], accuracy_at_k=[1], ndcg_at_k=[10], show_progress_bar=False,
            batch_size=64)
        result = evaluator(model)
        for name in theirs:
            key = next(k for k in result if k.endswith(f"cosine_{name}@10"))
            theirs[name].append(result[key])
    for name, values in theirs.items():
        assert ours[f"{name}@10"] == pytest.approx(np.mean(values), abs=1e-6), name


def graded_world(n=60, seed=0):
    """Random points and two random label groups per point: gain = how many of the two a pair shares."""
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(n, 8))
    first, second = rng.integers(0, 4, size=n), rng.integers(0, 3, size=n)

    def gains(a, b):
        a, b = np.asarray(a), np.asarray(b)
        return (first[a][:, None] == first[b][None, :]).astype(int) + (second[a][:, None] == second[b][None, :])

    return points, gains, (lambda a, b: gains(a, b) > 0)


def test_ndcg_matches_scikit_learn_on_graded_relevance():
    from sklearn.metrics import ndcg_score

    points, gains, relevance = graded_world()
    seeds = np.arange(0, 60, 3)
    ours = retrieval_metrics(points, relevance, seeds, None, k=10, gains=gains)["ndcg@10"]
    unit = points / np.linalg.norm(points, axis=1, keepdims=True)
    theirs = []
    for seed in seeds:
        others = np.array([r for r in range(60) if r != seed])
        theirs.append(ndcg_score([gains([seed], others)[0]], [unit[others] @ unit[seed]], k=10))
    assert ours == pytest.approx(np.mean(theirs), abs=1e-9)


def test_binary_ndcg_is_one_for_a_perfect_ranking_and_below_for_the_line():
    scores = retrieval_metrics(LINE, same_group(GROUPS), seeds=np.array([0]), pool=np.arange(5), k=2)
    # seed 0's list: 1 (gain 0), 2 (gain 1); ideal: 2, 3 (gains 1, 1)
    assert scores["ndcg@2"] == pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)))


@pytest.mark.slow  # ranx compiles its metrics with numba on first use (seconds)
def test_ranked_metrics_match_ranx():
    """MAP@k is left out: ranx divides by all relevant articles, we by min(k, relevant) as sentence-transformers
    does (checked against it above)."""
    from ranx import Qrels, Run, evaluate

    points, gains, relevance = graded_world(seed=1)
    seeds = np.arange(60)
    pool = np.arange(0, 60, 2)  # a pool smaller than the corpus, as the test pool is
    ours = retrieval_metrics(points, relevance, seeds, pool, k=10, gains=gains)
    unit = points / np.linalg.norm(points, axis=1, keepdims=True)
    qrels, run = {}, {}
    for seed in seeds:
        others = pool[pool != seed]
        grades = gains([seed], others)[0]
        if grades.any():
            qrels[f"q{seed}"] = {f"d{d}": int(g) for d, g in zip(others, grades) if g}
            run[f"q{seed}"] = {f"d{d}": float(unit[d] @ unit[seed]) for d in others}
    names = ["ndcg@10", "mrr@10", "precision@10", "recall@10"]
    theirs = evaluate(Qrels(qrels), Run(run), names)
    assert ours["seeds"] == len(qrels)
    for name in names:
        assert ours[name] == pytest.approx(theirs[name], abs=1e-9), name
