"""Inferred labels: the classifier, its calibration, and that a guess never becomes ground truth."""
from __future__ import annotations

import numpy as np
import pytest

from explore.corpus.inferred_labels import (AspectClassifier, VoteClassifier, calibrate, label_votes,
                                            precision_at_coverage, precision_coverage_curve, with_inferred_labels)
from explore.corpus.model import Article, Corpus, Provenance


def test_calibration_picks_the_lowest_confidence_that_keeps_the_target_precision():
    confidence = np.array([0.99, 0.95, 0.9, 0.8, 0.7, 0.6])
    correct = np.array([True, True, True, False, True, False])
    threshold, coverage, precision = calibrate(confidence, correct, target=0.75)
    assert (threshold, coverage, precision) == (0.7, 5 / 6, 0.8)  # 0.6 would bring it to 4/6
    assert calibrate(confidence, correct, target=1.0)[0] == 0.9
    assert calibrate(np.array([0.9]), np.array([False]), target=0.5) == (float("inf"), 0.0, 0.0)


def _clustered_corpus(seed: int = 1) -> tuple[Corpus, np.ndarray]:
    """Two well-separated clusters of 60 articles each; the last 5 of each have no topic."""
    rng = np.random.default_rng(seed)
    articles, vectors = [], []
    for topic, centre in (("Arts", 1.0), ("Mathematics", -1.0)):
        for i in range(60):
            labelled = i < 55
            articles.append(Article(f"{topic}-{i}", f"{topic} {i}", "text", description=f"{topic.lower()} thing",
                                    aspects={"topic": (topic,)} if labelled else {}))
            vectors.append(centre + 0.1 * rng.standard_normal(8))
    return Corpus("clusters", articles, Provenance("test", "2026-01-01")), np.array(vectors, dtype=np.float32)


def test_inferred_labels_fill_only_unlabelled_articles_and_stay_apart():
    corpus, embeddings = _clustered_corpus()
    inferred = with_inferred_labels(corpus, "topic", embeddings)
    for before, after in zip(corpus, inferred):
        assert after.aspects == before.aspects  # ground truth untouched
        if before.labels("topic"):
            assert after.inferred == {}
        else:
            assert after.inferred == {"topic": (before.id.split("-")[0],)}
            assert after.is_inferred("topic")


def test_the_classifier_is_reproducible():
    corpus, embeddings = _clustered_corpus()
    first = AspectClassifier("topic").fit(corpus, embeddings)
    second = AspectClassifier("topic").fit(corpus, embeddings)
    assert first.threshold_ == second.threshold_
    assert first.infer(corpus, embeddings) == second.infer(corpus, embeddings)


def test_too_few_labels_is_refused():
    corpus, embeddings = _clustered_corpus()
    few = Corpus("few", corpus.articles[:10], corpus.provenance)
    with pytest.raises(ValueError, match="too few"):
        AspectClassifier("topic").fit(few, embeddings[:10])


def _people_corpus(seed: int = 2) -> tuple[Corpus, np.ndarray]:
    """Two countries' people in two clusters, plus places that do not vote by neighbours; the last 5 people of
    each cluster have no country; every third person links to a place of the other country (a vote to resist)."""
    rng = np.random.default_rng(seed)
    articles, vectors = [], []
    for country, centre in (("Austria", 1.0), ("Japan", -1.0)):
        for i in range(40):
            aspects = {"topic": ("People",)} | ({"country": (country,)} if i < 35 else {})
            other = "Japan" if country == "Austria" else "Austria"
            links = (f"{other}-city",) if i % 3 == 0 else ()
            articles.append(Article(f"{country}-{i}", f"{country} person {i}", "text", links=links, aspects=aspects))
            vectors.append(centre + 0.1 * rng.standard_normal(8))
        articles.append(Article(f"{country}-city", f"{country} city", "text",
                                aspects={"topic": ("Geography",), "country": (country,)}))
        vectors.append(-centre + 0.1 * rng.standard_normal(8))  # near the other country's people
    return Corpus("people", articles, Provenance("test", "2026-01-01")), np.array(vectors, dtype=np.float32)


def _is_person(article: Article) -> bool:
    return article.labels("topic") == ("People",)


def test_vote_classifier_infers_members_labels_from_their_neighbours_and_keeps_them_apart():
    corpus, embeddings = _people_corpus()
    inferred = with_inferred_labels(corpus, "country", embeddings, VoteClassifier("country", _is_person))
    for before, after in zip(corpus, inferred):
        assert after.aspects == before.aspects
        if before.labels("country") or not _is_person(before):
            assert "country" not in after.inferred
        else:
            assert after.inferred["country"] == (before.id.split("-")[0],)
            assert after.is_inferred("country")


def test_vote_classifier_is_reproducible_and_calibrated():
    corpus, embeddings = _people_corpus()
    first = VoteClassifier("country", _is_person).fit(corpus, embeddings)
    second = VoteClassifier("country", _is_person).fit(corpus, embeddings)
    assert first.threshold_ == second.threshold_ and first.held_out_precision_ >= first.target_precision
    assert first.infer(corpus, embeddings) == second.infer(corpus, embeddings)
    curve = precision_coverage_curve(first, thresholds=(0.0, 2.0))
    assert curve[0][1] == 1.0 and curve[1] == (2.0, 0.0, 1.0)  # a threshold above every confidence keeps none


def test_precision_at_coverage_keeps_the_surest_share():
    fitted = VoteClassifier("country")
    fitted.held_out_confidence_ = np.array([0.9, 0.2, 0.8, 0.5])
    fitted.held_out_correct_ = np.array([True, False, True, False])
    assert precision_at_coverage(fitted, 0.5) == 1.0  # 0.9 and 0.8
    assert precision_at_coverage(fitted, 0.75) == pytest.approx(2 / 3)
    assert precision_at_coverage(fitted, 1.0) == 0.5


def test_votes_count_neighbours_and_links_both_ways_but_never_the_article_itself():
    articles = [Article("a", "A", "t", links=("b",), aspects={"c": ("X",)}),
                Article("b", "B", "t", aspects={"c": ("Y",)}),
                Article("d", "D", "t", links=("a",), aspects={"c": ("Y",)})]
    corpus = Corpus("votes", articles, Provenance("test", "2026-01-01"))
    embeddings = np.array([[1, 0], [1, 0.1], [0, 1]], dtype=np.float32)
    voters = np.arange(3)
    nearest, linked_to, linked_from = label_votes(corpus, embeddings, "c", np.array([0]), voters,
                                                  {"X": 0, "Y": 1}, neighbours=1)
    assert nearest.tolist() == [[0.0, 1.0]]  # b, its nearest other article
    assert linked_to.tolist() == [[0.0, 1.0]] and linked_from.tolist() == [[0.0, 1.0]]  # b; d links to a
