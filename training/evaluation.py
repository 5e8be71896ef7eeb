"""Evaluate a ranking as aspect retrieval: seeds are test articles, relevant = shares a label of the aspect."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np

from explore.corpus.model import Corpus
from training.metrics import agts, linked_share, neighbour_overlap, retrieval_metrics
from training.rankings import Ranking, as_ranking
from training.relevance import LabelIndex, RelevanceRule
from training.splits import ArticleSplit


COMBINED = {"any": "union", "all": "intersection"}  # column prefix of a combined aspect group
OWN = "own"  # column prefix of "the seed's own aspects" (graded: how many of them a neighbour shares)


class AspectRetrievalEvaluator:
    """Callable like a sentence-transformers evaluator; returns a flat dict of metrics.

    Keys: `{pool}/{aspect}/{precision,recall,mrr,map,ndcg}@k` for pools `test` (candidates: test articles)
    and `corpus` (candidates: every article, ranked exactly as the app serves them when the ranking
    is a training.rankings.QueryRanking), `test/{aspect}/agts` (Spearman of score vs same label
    over sampled test pairs), and `corpus/{aspect}/overlap@{overlap_k}` against `reference`
    (the generic space's ranking) when given. The seed is never a candidate. `primary_metric` is the mean
    test-pool MRR@k over the aspects.

    `combined` adds columns for groups of aspects: `any:a+b` (relevant = shares a label of a or of b:
    what a union space is trained for; nDCG's gain = how many of them it shares) and `all:a+b` (shares a
    label of both); their seeds are the test articles labelled in every aspect of the group. `own` adds the
    column `own:a+b+c`, "the seed's own aspects": seeds are the test articles labelled in any of them, a
    neighbour's nDCG gain is how many of the seed's aspects it shares a label of (what *your mix*, which
    mixes each seed's own aspect spaces, is for).

    `links` (the links column's ranking) adds `corpus/{column}/links@k`, the share of the top k the seed
    links to, wherever Overlap@n is measured (single aspects and `own`).

    `model` may be a Ranking, an embedding matrix in corpus row order, or anything with `encode(list[str])`.
    """

    def __init__(self, corpus: Corpus, split: ArticleSplit, aspects: Sequence[str], k: int = 10,
                 reference: "Ranking | np.ndarray | None" = None, overlap_k: int = 50, agts_pairs: int = 20000,
                 text_of=None, combined: Sequence[Sequence[str]] = (), own: Sequence[str] = (),
                 links: "Ranking | None" = None):
        self.corpus = corpus
        self.split = split
        self.combined = [tuple(group) for group in combined]
        self.own = tuple(own)
        self.aspects = list(dict.fromkeys([*aspects, *(a for group in self.combined for a in group), *self.own]))
        self.columns = list(aspects) + [f"{mode}:{'+'.join(g)}" for g in self.combined for mode in COMBINED]
        self.columns += [f"{OWN}:{'+'.join(self.own)}"] if self.own else []
        self.k = k
        self.reference = None if reference is None else as_ranking(reference)
        self.links = links
        self.overlap_k = overlap_k
        self.agts_pairs = agts_pairs
        self.text_of = text_of
        self.index = LabelIndex(corpus, self.aspects)
        self.primary_metric = f"test/mean/mrr@{k}"

    def pools(self) -> dict[str, np.ndarray | None]:
        """Candidates per pool; None = the whole corpus (the served ranking, hnswlib where it serves)."""
        return {"test": self.split.test, "corpus": None}

    def seeds(self, aspects: Sequence[str], every: bool = True) -> np.ndarray:
        """Test articles labelled in every one of `aspects` (`every` False: in any of them)."""
        labelled = (np.logical_and if every else np.logical_or).reduce([self.index.has(a) for a in aspects])
        return self.split.test[labelled[self.split.test]]

    def rule(self, column: str) -> RelevanceRule:
        mode, _, aspects = column.rpartition(":")
        combine = "graded" if mode == OWN else COMBINED.get(mode, "single")
        return RelevanceRule(self.index, tuple(aspects.split("+")), combine)

    def __call__(self, model, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        if isinstance(model, np.ndarray) or hasattr(model, "top"):
            ranking = as_ranking(model)
        else:
            from explore.spaces import article_text

            text_of = self.text_of or article_text
            ranking = as_ranking(np.asarray(model.encode([text_of(a) for a in self.corpus.articles])))
        metrics = self.evaluate(ranking)
        if output_path:
            Path(output_path).mkdir(parents=True, exist_ok=True)
            (Path(output_path) / "aspect_retrieval.json").write_text(json.dumps(metrics, indent=2))
        return metrics

    def evaluate(self, ranking: "Ranking | np.ndarray") -> dict[str, float]:
        ranking = as_ranking(ranking)
        metrics: dict[str, float] = {}
        for column in self.columns:
            rule = self.rule(column)
            seeds = self.seeds(rule.aspects, every=rule.combine != "graded")
            for pool_name, pool in self.pools().items():
                scores = retrieval_metrics(ranking, rule.matrix, seeds, pool, self.k, rule.gains)
                metrics.update({f"{pool_name}/{column}/{name}": value for name, value in scores.items()})
            metrics[f"test/{column}/agts"] = agts(ranking, rule.pairs, seeds, self.agts_pairs, self.split.seed)
            if len(rule.aspects) == 1 or rule.combine == "graded":  # descriptions, not scores
                if self.reference is not None:
                    metrics[f"corpus/{column}/overlap@{self.overlap_k}"] = neighbour_overlap(
                        self.reference, ranking, seeds, None, self.overlap_k)
                if self.links is not None:
                    metrics[f"corpus/{column}/links@{self.k}"] = linked_share(ranking, self.links, seeds, self.k)
        single = [c for c in self.columns if ":" not in c] or self.columns  # only combined columns: their mean
        metrics[self.primary_metric] = float(np.mean([metrics[f"test/{a}/mrr@{self.k}"] for a in single]))
        return metrics
