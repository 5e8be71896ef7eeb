"""Full mode: fine-tune the encoder with sentence-transformers' trainer (GPU, bf16/fp16 when present).

Multi-GPU works unchanged through `accelerate launch -m training train ...` or
`torchrun --nproc_per_node N -m training train ...` (the trainer handles the distribution).
"""
from __future__ import annotations

import logging
from pathlib import Path

from explore.corpus.model import Corpus
from training.checkpoints import last_complete_trainer_checkpoint
from training.config import TrainingConfig
from explore.spaces import article_text
from training.embeddings import load_sentence_transformer
from training.objectives import build_loss, columns_for, uses_row_labels
from training.relevance import RelevanceRule
from training.triplets import TripletSet

logger = logging.getLogger(__name__)


def precision_flags() -> dict:
    """bf16 where the GPU supports it, else fp16 on GPU, full precision on CPU."""
    import torch

    if not torch.cuda.is_available():
        return {}
    return {"bf16": True} if torch.cuda.is_bf16_supported() else {"fp16": True}


def triplet_dataset(corpus: Corpus, triplets: TripletSet, objective: str):
    from datasets import Dataset

    texts = [article_text(article) for article in corpus.articles]
    columns = {name: [texts[r] for r in triplets.rows[:, i]] for i, name in enumerate(columns_for(objective))}
    if uses_row_labels(objective):
        columns["label"] = triplets.rows.tolist()
    return Dataset.from_dict(columns)


def train_full(config: TrainingConfig, corpus: Corpus, rule: RelevanceRule, triplets: TripletSet,
               checkpoints: Path, output: Path, progress: bool = True) -> Path:
    """Fine-tune the base encoder on `triplets`; resumes from the newest checkpoint; saves to `output`."""
    from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
    from sentence_transformers.sentence_transformer.training_args import BatchSamplers

    model = load_sentence_transformer()
    model.max_seq_length = config.max_seq_length
    dataset = triplet_dataset(corpus, triplets, config.objective)
    args = SentenceTransformerTrainingArguments(
        output_dir=str(checkpoints),
        num_train_epochs=config.epochs,
        per_device_train_batch_size=config.batch_size,
        learning_rate=config.learning_rate,
        warmup_ratio=0.1,
        batch_sampler=BatchSamplers.NO_DUPLICATES,
        save_strategy="steps",
        save_steps=config.save_steps,
        save_total_limit=2,
        logging_steps=max(1, min(50, config.save_steps)),
        seed=config.seed,
        data_seed=config.seed,
        report_to="none",
        disable_tqdm=not progress,
        dataloader_pin_memory=bool(precision_flags()),  # pinning only helps a GPU
        **precision_flags(),
    )
    trainer = SentenceTransformerTrainer(model=model, args=args, train_dataset=dataset,
                                         loss=build_loss(config, model, rule))
    resume = last_complete_trainer_checkpoint(checkpoints)
    if resume:
        logger.info("Resuming %s from %s", config.run_name, resume)
    trainer.train(resume_from_checkpoint=resume)
    model.save(str(output))
    return output

