"""One training run end to end: checks, split, triplets, training, engine space, evaluation, records."""
from __future__ import annotations

import logging
import time
from typing import Callable

import numpy as np

from explore.corpus.model import Corpus
from explore.corpus.registry import open_corpus
from explore.spaces import Space
from training.config import TrainingConfig
from training.embeddings import generic_embeddings
from training.evaluation import AspectRetrievalEvaluator
from training.export import export_space, write_training_record
from training.relevance import LabelIndex, RelevanceRule
from training.runs import Run
from training.splits import split_by_article
from training.triplets import TripletSampler
from training.validation import TrainingInputError, check_config, check_corpus, check_triplets

logger = logging.getLogger(__name__)
HEAD_DIR = "head"  # engine head format: `load_encoder(<run>/head)` gives minilm + this head
MODEL_DIR = "model"  # full mode: a sentence-transformers directory


def prepare(config: TrainingConfig, corpus: Corpus):
    """Everything that can fail on bad input, done before any training: returns (split, rule, sampler, triplets)."""
    check_config(config)
    split = split_by_article(corpus, config.seed, config.test_fraction)
    check_corpus(corpus, config, split)
    index = LabelIndex(corpus, config.aspects, min_label_size=max(1, config.drop_labels_below))
    rule = RelevanceRule(index, config.aspects, config.combine)
    sampler = TripletSampler(rule, split, config.sampling, config.unlabelled_negatives)
    triplets = sampler.sample(seed=config.seed * 1000, per_anchor=config.triplets_per_anchor)
    check_triplets(triplets.rows, config)
    return split, rule, sampler, triplets


def train(config: TrainingConfig, corpus: Corpus | None = None, generic: np.ndarray | None = None,
          progress: bool = True, force: bool = False, export: bool = True, prepared: tuple | None = None,
          on_step: Callable[[float, str], None] | None = None) -> Run:
    """Train (or resume) the run `config.run_name` and build its space; a finished run with the same
    config is kept as is. `generic` (tests) replaces the engine's generic space; `export=False` builds
    no engine space and evaluates the model's own embeddings; `prepared` is what `prepare` returned
    for this config and corpus (the CLI checks every run first and does not sample twice); `on_step`
    hears (share done, what now) at each step (head mode: each epoch)."""
    step = on_step or (lambda share, what: None)
    check_config(config)
    corpus = corpus if corpus is not None else open_corpus(config.corpus)
    split, rule, sampler, triplets = prepared or prepare(config, corpus)
    run = Run.named(config.run_name)
    with run.lock():  # a second `train` of this run refuses, naming this one
        if (run.path / "config.json").exists():
            if not run.config.same_training(config):
                raise TrainingInputError(f"Run {config.run_name!r} exists with other settings ({run.path}); pass "
                                         "another --run-name or delete it.")
            if run.finished and not force:
                logger.info("Run %s is already finished; kept as is (--force retrains).", config.run_name)
                return run
            if force:
                run.reset()
        began = time.perf_counter()
        run.start(config, {"split": split.describe(), "triplets": triplets.describe(),
                           "corpus_hash": corpus.content_hash})
        if generic is None:
            step(0.0, "Opening the generic space (encoded once if the corpus has none yet)")
            generic = generic_embeddings(corpus, progress=progress)
        if config.mode == "head":
            from training.head_trainer import HeadTrainer

            step(0.05, f"Training epoch 1 of {config.epochs}")
            trainer = HeadTrainer(config, rule, sampler, generic, run.checkpoints, progress=progress,
                                  on_epoch=lambda done, total: step(0.05 + 0.8 * done / total,
                                                                    f"Trained epoch {done} of {total}")).fit()
            encoder_dir = trainer.head_.save(run.path / HEAD_DIR)
            history = trainer.history_
        else:
            from training.full_trainer import train_full

            encoder_dir = train_full(config, corpus, rule, triplets, run.checkpoints, run.path / MODEL_DIR, progress)
            history = []
        trained = time.perf_counter() - began
        step(0.85, "Building the space")
        space: Space | None = export_space(config, corpus, encoder_dir, progress) if export else None
        if space is not None:
            embeddings = space.embeddings_
        elif config.mode == "head":
            embeddings = trainer.head_.transform(generic)
        else:  # a full-mode model without a space: encode the corpus for the evaluation
            from explore.encoders import load_encoder
            from explore.spaces import article_text

            embeddings = load_encoder(f"dir:{encoder_dir}").encode([article_text(a) for a in corpus],
                                                                   progress=progress)
        step(0.9, "Evaluating it on the test articles")
        evaluator = AspectRetrievalEvaluator(corpus, split, config.aspects, reference=generic)
        metrics = evaluator.evaluate(embeddings)
        run.save_metrics(metrics)
        run.finish({"train_seconds": round(trained, 2), "history": history,
                    "space": config.space_name if space else None,
                    "space_dir": str(space.directory_) if space else None,
                    "primary_metric": {evaluator.primary_metric: metrics[evaluator.primary_metric]}})
        if space is not None:
            write_training_record(space, {"config": config.to_dict(), "run_dir": str(run.path), **run.info,
                                          "metrics": metrics})
    step(1.0, "Done")
    return run
