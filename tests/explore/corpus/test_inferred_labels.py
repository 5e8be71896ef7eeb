"""Inferred labels: the classifier, its calibration, and that a guess never becomes ground truth."""
from __future__ import annotations

import numpy as np
import pytest

from explore.corpus.inferred_labels import AspectClassifier, calibrate, with_inferred_labels
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
