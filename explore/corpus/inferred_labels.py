"""Labels inferred for articles that have none of an aspect, kept only above a confidence threshold calibrated
on held-out labelled articles to a target precision.

Works on any corpus with labels of the aspect on some articles and embeddings of every article (its generic
space). Both classifiers read the same votes (`label_votes`): the share of each label among an article's nearest
labelled articles in the embedding space, among the labelled articles it links to, and among those linking to it.

* `AspectClassifier` — one label per article from a fixed set (the vital `topic`): logistic regression on the
  embedding, TF-IDF of the short description and the three votes.
* `VoteClassifier` — any label set, even one of hundreds of labels (a person's `country` or `occupation`): for
  each label the votes propose, logistic regression on the votes says how likely it is the article's; the best
  one is kept. Optionally only among `members` (people learn from people).

Everything runs locally with fixed seeds, so a rebuild infers the same labels. Inferred labels go to
`Article.inferred`, never to `Article.aspects`.
"""
from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from explore.corpus.model import Article, Corpus

log = logging.getLogger(__name__)

TARGET_PRECISION = 0.97
HELD_OUT_SHARE = 0.2
SEED = 0
# Neighbours that vote in the embedding space: on vital's topics 10 kept more held-out articles at 97% than 5 or 25.
NEIGHBOURS = 10
CURVE_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def label_votes(corpus: Corpus, embeddings: np.ndarray, aspect: str, rows: np.ndarray, voters: np.ndarray,
                columns: dict[str, int], link_voters: np.ndarray | None = None,
                neighbours: int = NEIGHBOURS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(nearest, linked to, linked from): for each of `rows`, the share of each label (column) of `aspect` among
    its `neighbours` nearest `voters` by cosine similarity (weighted by it), among the `link_voters` (by default
    the voters) it links to and among those that link to it. An article never votes for itself; a voter with
    several labels splits its vote."""
    nearest = _nearest_votes(corpus, embeddings, aspect, rows, voters, columns, neighbours)
    voters = voters if link_voters is None else link_voters
    label_matrix = _label_matrix(corpus, aspect, voters, columns)
    voter_index = {int(row): i for i, row in enumerate(voters)}
    position = corpus.position
    linking_to: dict[int, list[int]] = {}
    for voter in voters:
        for target in set(corpus.articles[voter].links):
            if target in position:
                linking_to.setdefault(position[target], []).append(voter_index[int(voter)])
    linked_to = np.zeros_like(nearest)
    linked_from = np.zeros_like(nearest)
    for i, row in enumerate(rows):
        for target in set(corpus.articles[row].links):
            voter = voter_index.get(position.get(target, -1))
            if voter is not None and int(voters[voter]) != row:
                linked_to[i] += label_matrix[voter]
        for voter in linking_to.get(int(row), ()):
            if int(voters[voter]) != row:
                linked_from[i] += label_matrix[voter]
    return tuple(votes / np.maximum(votes.sum(1, keepdims=True), 1e-9) for votes in (nearest, linked_to, linked_from))


def _label_matrix(corpus: Corpus, aspect: str, voters: np.ndarray, columns: dict[str, int]) -> np.ndarray:
    matrix = np.zeros((len(voters), len(columns)), dtype=np.float32)
    for i, row in enumerate(voters):
        known = [columns[label] for label in corpus.articles[row].labels(aspect) if label in columns]
        matrix[i, known] = 1 / max(len(known), 1)
    return matrix


def _nearest_votes(corpus: Corpus, embeddings: np.ndarray, aspect: str, rows: np.ndarray, voters: np.ndarray,
                   columns: dict[str, int], neighbours: int) -> np.ndarray:
    label_matrix = _label_matrix(corpus, aspect, voters, columns)
    voter_index = {int(row): i for i, row in enumerate(voters)}
    vectors = np.asarray(embeddings, dtype=np.float32)
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    nearest = np.zeros((len(rows), len(columns)), dtype=np.float32)
    k = min(neighbours, len(voters) - 1)
    for start in range(0, len(rows), 2048):
        chunk = rows[start:start + 2048]
        similarity = vectors[chunk] @ vectors[voters].T
        for i, row in enumerate(chunk):
            if int(row) in voter_index:
                similarity[i, voter_index[int(row)]] = -np.inf
        top = np.argpartition(-similarity, k, axis=1)[:, :k]
        weights = np.take_along_axis(similarity, top, axis=1).clip(0)
        nearest[start:start + len(chunk)] = np.einsum("rk,rkc->rc", weights, label_matrix[top])
    return nearest


def _split(labelled: np.ndarray, held_out_share: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    shuffled = np.random.default_rng(seed).permutation(len(labelled))
    cut = int(len(labelled) * (1 - held_out_share))
    return labelled[shuffled[:cut]], labelled[shuffled[cut:]]


@dataclass
class AspectClassifier:
    """One label of a fixed set per article. `fit` trains on a seeded share of the single-labelled articles and
    calibrates `threshold_` on the rest: the lowest confidence at which the held-out predictions at or above it
    reach `target_precision` (one threshold for all labels: per-label thresholds, calibrated on half the held-out
    articles of vital's topics, fell to 95.5-96% on the other half)."""

    aspect: str
    target_precision: float = TARGET_PRECISION
    held_out_share: float = HELD_OUT_SHARE
    seed: int = SEED
    neighbours: int = NEIGHBOURS

    def fit(self, corpus: Corpus, embeddings: np.ndarray) -> "AspectClassifier":
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression

        labelled = np.array([row for row, a in enumerate(corpus) if len(a.labels(self.aspect)) == 1])
        targets = [corpus.articles[row].labels(self.aspect)[0] for row in labelled]
        if len(labelled) < 50 or len(set(targets)) < 2:
            raise ValueError(f"aspect {self.aspect!r} has too few single-labelled articles to learn from")
        train, held_out = _split(labelled, self.held_out_share, self.seed)
        self.columns_ = {label: i for i, label in enumerate(sorted(set(targets)))}
        # Only the training articles vote: a held-out label must not leak into its own features.
        self.voters_ = train
        self.descriptions_ = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
        self.descriptions_.fit([a.description for a in corpus])
        self.model_ = LogisticRegression(C=8.0, max_iter=3000, random_state=self.seed)
        self.model_.fit(self._features(corpus, embeddings, train), [corpus.articles[r].labels(self.aspect)[0]
                                                                    for r in train])
        self.classes_ = self.model_.classes_
        probabilities = self.model_.predict_proba(self._features(corpus, embeddings, held_out))
        truth = np.array([corpus.articles[row].labels(self.aspect)[0] for row in held_out])
        self.held_out_confidence_ = probabilities.max(1)
        self.held_out_correct_ = self.classes_[probabilities.argmax(1)] == truth
        self.threshold_, self.held_out_coverage_, self.held_out_precision_ = calibrate(
            self.held_out_confidence_, self.held_out_correct_, self.target_precision)
        return self

    def _features(self, corpus: Corpus, embeddings: np.ndarray, rows: np.ndarray):
        import scipy.sparse as sparse

        votes = label_votes(corpus, embeddings, self.aspect, rows, self.voters_, self.columns_,
                            neighbours=self.neighbours)
        descriptions = self.descriptions_.transform([corpus.articles[row].description for row in rows])
        dense = sparse.csr_matrix(np.hstack([np.asarray(embeddings[rows], dtype=np.float32), *votes]))
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


@dataclass
class VoteClassifier:
    """The best label the votes propose, for articles without one of the aspect (among `members` only, when
    given: a person's country is learnt from people). `fit` trains on a seeded share of the members with labels
    of their own and calibrates `threshold_` on the rest as `AspectClassifier` does; a held-out prediction is
    right when it is one of the article's labels, and a held-out article the votes propose nothing for counts as
    not kept."""

    aspect: str
    members: Callable[[Article], bool] | None = None
    target_precision: float = TARGET_PRECISION
    held_out_share: float = HELD_OUT_SHARE
    seed: int = SEED
    neighbours: int = NEIGHBOURS

    def fit(self, corpus: Corpus, embeddings: np.ndarray) -> "VoteClassifier":
        from sklearn.linear_model import LogisticRegression

        labelled = np.array([row for row in self._member_rows(corpus) if corpus.articles[row].labels(self.aspect)])
        if len(labelled) < 50:
            raise ValueError(f"aspect {self.aspect!r} has too few labelled articles to learn from")
        train, held_out = _split(labelled, self.held_out_share, self.seed)
        counts: dict[str, int] = {}
        for row in train:
            for label in corpus.articles[row].labels(self.aspect):
                counts[label] = counts.get(label, 0) + 1
        self.columns_ = {label: i for i, label in enumerate(sorted(counts))}
        self.prior_ = np.log1p(np.array([counts[label] for label in self.columns_], dtype=np.float32))
        self.voters_ = train
        # Links count from every article labelled with the aspect (a person linking to Vienna), held-out ones aside.
        held = set(held_out.tolist())
        self.link_voters_ = np.array([row for row, a in enumerate(corpus) if a.labels(self.aspect) and row not in held])
        pairs, features = self._candidates(corpus, embeddings, train)
        truth = [label in corpus.articles[train[i]].labels(self.aspect) for i, label in pairs]
        if len(set(truth)) < 2:
            raise ValueError(f"the votes for {self.aspect!r} propose no wrong (or no right) label to learn from")
        self.model_ = LogisticRegression(C=1.0, max_iter=2000, random_state=self.seed).fit(features, truth)
        best = self._best(corpus, embeddings, held_out)
        self.held_out_confidence_ = np.array([best[i][1] if i in best else 0.0 for i in range(len(held_out))])
        self.held_out_correct_ = np.array([i in best and best[i][0] in corpus.articles[row].labels(self.aspect)
                                           for i, row in enumerate(held_out)])
        self.threshold_, self.held_out_coverage_, self.held_out_precision_ = calibrate(
            self.held_out_confidence_, self.held_out_correct_, self.target_precision)
        return self

    def _member_rows(self, corpus: Corpus) -> list[int]:
        return [row for row, a in enumerate(corpus) if self.members is None or self.members(a)]

    def _candidates(self, corpus: Corpus, embeddings: np.ndarray,
                    rows: np.ndarray) -> tuple[list[tuple[int, str]], np.ndarray]:
        """(row index, label) of every label some vote proposes for each row, and its features: the three votes,
        whether it leads the nearest-neighbour vote, how common the label is and whether the text names it."""
        votes = label_votes(corpus, embeddings, self.aspect, rows, self.voters_, self.columns_, self.link_voters_,
                            self.neighbours)
        nearest = votes[0]
        labels = list(self.columns_)
        texts = [corpus.articles[row].text for row in rows]
        pairs, features = [], []
        for i in range(len(rows)):
            leader = nearest[i].argmax()
            for column in np.flatnonzero(sum(votes)[i] > 0):
                pairs.append((i, labels[column]))
                features.append([*(v[i, column] for v in votes), float(column == leader), self.prior_[column],
                                 float(_mentions(texts[i], labels[column]))])
        return pairs, np.array(features, dtype=np.float32).reshape(len(pairs), 6)

    def _best(self, corpus: Corpus, embeddings: np.ndarray, rows: np.ndarray) -> dict[int, tuple[str, float]]:
        pairs, features = self._candidates(corpus, embeddings, rows)
        best: dict[int, tuple[str, float]] = {}
        if not pairs:
            return best
        for (i, label), probability in zip(pairs, self.model_.predict_proba(features)[:, 1]):
            if i not in best or probability > best[i][1]:
                best[i] = (label, float(probability))
        return best

    def infer(self, corpus: Corpus, embeddings: np.ndarray) -> dict[str, tuple[str, ...]]:
        """The label of each member without one of the aspect (own or inferred), where confident enough."""
        rows = np.array([row for row in self._member_rows(corpus)
                         if not corpus.articles[row].labels(self.aspect, inferred=True)], dtype=int)
        if not len(rows):
            return {}
        return {corpus.articles[rows[i]].id: (label,)
                for i, (label, confidence) in self._best(corpus, embeddings, rows).items()
                if confidence >= self.threshold_}


def _mentions(text: str, label: str) -> bool:
    import re

    return re.search(rf"\b{re.escape(label)}\b", text, flags=re.I) is not None


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


def precision_coverage_curve(classifier: AspectClassifier | VoteClassifier,
                             thresholds: tuple[float, ...] = CURVE_THRESHOLDS) -> list[tuple[float, float, float]]:
    """(threshold, coverage, precision) of a fitted classifier's held-out predictions at each threshold."""
    confidence, correct = classifier.held_out_confidence_, classifier.held_out_correct_
    curve = []
    for threshold in thresholds:
        kept = confidence >= threshold
        curve.append((threshold, float(kept.mean()), float(correct[kept].mean()) if kept.any() else 1.0))
    return curve


def precision_at_coverage(classifier: AspectClassifier | VoteClassifier, coverage: float) -> float:
    """Precision of a fitted classifier's surest `coverage` share of its held-out predictions: what keeping that
    many would cost (the curve read the other way round)."""
    order = np.argsort(-classifier.held_out_confidence_, kind="stable")
    kept = order[:max(1, round(coverage * len(order)))]
    return float(classifier.held_out_correct_[kept].mean())


Classifier = AspectClassifier | VoteClassifier


def with_inferred_labels(corpus: Corpus, aspect: str, embeddings: np.ndarray,
                         classifier: Classifier | None = None) -> Corpus:
    """`corpus` with the labels of `aspect` inferred for the articles without one (in `Article.inferred`)."""
    classifier = (classifier or AspectClassifier(aspect)).fit(corpus, embeddings)
    inferred = classifier.infer(corpus, embeddings)
    log.info("Inferred %s for %d articles (threshold %.3f, held-out precision %.3f, coverage %.3f).",
             aspect, len(inferred), classifier.threshold_, classifier.held_out_precision_,
             classifier.held_out_coverage_)
    return with_labels(corpus, aspect, inferred)


def with_labels(corpus: Corpus, aspect: str, inferred: dict[str, tuple[str, ...]]) -> Corpus:
    """`corpus` with `inferred` (article id → labels) added to the articles' inferred labels of `aspect`."""
    articles = [
        dataclasses.replace(a, inferred={**a.inferred, aspect: inferred[a.id]}) if a.id in inferred else a
        for a in corpus
    ]
    return Corpus(name=corpus.name, articles=articles, provenance=corpus.provenance)
