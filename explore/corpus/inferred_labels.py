"""Labels inferred for articles that have none of an aspect: a classifier trained on the labelled articles,
kept only above a confidence threshold calibrated on held-out labelled articles to a target precision.

Works on any corpus with one label per article of the aspect (the vital `topic`) and embeddings of every
article (its generic space). Features: the embedding, TF-IDF of the short description, and the share of
each label among the labelled articles the article links to. Everything runs locally with fixed seeds, so
a rebuild infers the same labels. Inferred labels go to `Article.inferred`, never to `Article.aspects`.
"""
from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

import numpy as np

from explore.corpus.model import Corpus

log = logging.getLogger(__name__)

TARGET_PRECISION = 0.97
HELD_OUT_SHARE = 0.2
SEED = 0


@dataclass
class AspectClassifier:
    """`fit` trains on a seeded share of the labelled articles and calibrates `threshold_` on the rest: the
    lowest confidence at which the held-out predictions at or above it reach `target_precision`."""

    aspect: str
    target_precision: float = TARGET_PRECISION
    held_out_share: float = HELD_OUT_SHARE
    seed: int = SEED

    def fit(self, corpus: Corpus, embeddings: np.ndarray) -> "AspectClassifier":
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression

        labelled = np.array([row for row, a in enumerate(corpus) if len(a.labels(self.aspect)) == 1])
        targets = np.array([corpus.articles[row].labels(self.aspect)[0] for row in labelled])
        if len(labelled) < 50 or len(set(targets)) < 2:
            raise ValueError(f"aspect {self.aspect!r} has too few single-labelled articles to learn from")
        rng = np.random.default_rng(self.seed)
        shuffled = rng.permutation(len(labelled))
        cut = int(len(labelled) * (1 - self.held_out_share))
        train, held_out = labelled[shuffled[:cut]], labelled[shuffled[cut:]]
        self.link_columns_ = {label: i for i, label in enumerate(sorted(set(targets)))}
        label_of = dict(zip(labelled, targets))
        # Only the training articles' labels feed the link features: a held-out label must not leak in.
        self.link_labels_ = {corpus.articles[row].id: label_of[row] for row in train}
        self.descriptions_ = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
        self.descriptions_.fit([a.description for a in corpus])
        self.model_ = LogisticRegression(C=8.0, max_iter=3000, random_state=self.seed)
        self.model_.fit(self._features(corpus, embeddings, train), [label_of[row] for row in train])
        self.classes_ = self.model_.classes_
        probabilities = self.model_.predict_proba(self._features(corpus, embeddings, held_out))
        correct = self.classes_[probabilities.argmax(1)] == np.array([label_of[row] for row in held_out])
        self.threshold_, self.held_out_coverage_, self.held_out_precision_ = calibrate(
            probabilities.max(1), correct, self.target_precision)
        return self

    def _features(self, corpus: Corpus, embeddings: np.ndarray, rows: np.ndarray):
        import scipy.sparse as sparse

        column = self.link_columns_
        linked = np.zeros((len(rows), len(column)), dtype=np.float32)
        for i, row in enumerate(rows):
            for target in corpus.articles[row].links:
                if target in self.link_labels_:
                    linked[i, column[self.link_labels_[target]]] += 1
        linked /= np.maximum(linked.sum(1, keepdims=True), 1)
        descriptions = self.descriptions_.transform([corpus.articles[row].description for row in rows])
        dense = sparse.csr_matrix(np.hstack([np.asarray(embeddings[rows], dtype=np.float32), linked]))
        return sparse.hstack([dense, descriptions]).tocsr()

    def infer(self, corpus: Corpus, embeddings: np.ndarray) -> dict[str, tuple[str, ...]]:
        """The label of each article without one of the aspect, where the classifier is confident enough."""
        rows = np.array([row for row, a in enumerate(corpus) if not a.labels(self.aspect)], dtype=int)
        if not len(rows):
            return {}
        probabilities = self.model_.predict_proba(self._features(corpus, embeddings, rows))
        best, confidence = probabilities.argmax(1), probabilities.max(1)
        return {corpus.articles[row].id: (str(self.classes_[b]),)
                for row, b, c in zip(rows, best, confidence) if c >= self.threshold_}


def calibrate(confidence: np.ndarray, correct: np.ndarray, target: float) -> tuple[float, float, float]:
    """(threshold, coverage, precision): the lowest confidence whose predictions at or above it are right at
    least `target` of the time, with the share of predictions kept and their precision. None reach it: inf."""
    order = np.argsort(-confidence, kind="stable")
    precision = np.cumsum(correct[order]) / np.arange(1, len(order) + 1)
    reaching = np.flatnonzero(precision >= target)
    if not len(reaching):
        return float("inf"), 0.0, 0.0
    last = reaching[-1]
    return float(confidence[order][last]), (last + 1) / len(order), float(precision[last])


def with_inferred_labels(corpus: Corpus, aspect: str, embeddings: np.ndarray,
                         classifier: AspectClassifier | None = None) -> Corpus:
    """`corpus` with the labels of `aspect` inferred for the articles without one (in `Article.inferred`)."""
    classifier = (classifier or AspectClassifier(aspect)).fit(corpus, embeddings)
    inferred = classifier.infer(corpus, embeddings)
    log.info("Inferred %s for %d of %d unlabelled articles (threshold %.3f, held-out precision %.3f, coverage %.3f).",
             aspect, len(inferred), sum(1 for a in corpus if not a.labels(aspect)), classifier.threshold_,
             classifier.held_out_precision_, classifier.held_out_coverage_)
    articles = [
        dataclasses.replace(a, inferred={**a.inferred, aspect: inferred[a.id]}) if a.id in inferred else a
        for a in corpus
    ]
    return Corpus(name=corpus.name, articles=articles, provenance=corpus.provenance)
