"""Ship full-mode spaces without their encoders: the corpus vectors a fine-tuned encoder wrote (int8), and a head
distilled onto them (training/distilled_head.py) that places free text from the generic vectors.

Two steps, so the GPU step needs no shipping code and the shipping step no GPU:
`pack_full_vectors` (where the full-mode runs trained) writes, per space, `<name>.npz` (`corpus`: its vectors, fp16,
rows in corpus order; `queries_q` + `queries_scale`: its vectors of each article's short query, int8) and the run's
`training-<name>.json`; `ship_full_space` (anywhere) distils the head on the training articles, checks the int8
vectors and writes the space into the shipped assets.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np

from explore.corpus.model import Corpus
from explore.spaces import Space
from explore.spaces.store import (ENCODER_DIR, TRAINING_RECORD_FILE, quantized_rows, save_space,
                                  training_record_file)
from training.distilled_head import DistilledHead, neighbour_overlap
from training.splits import split_by_article

SHIPPED_DTYPE = "int8"
INT8_NN10_FLOOR = 0.99  # below it the space ships fp16 (the int8 vectors must find the same neighbours)
QUERIES_RULE = "even rows: the title; odd rows: the description (the title where there is none)"


def short_queries(corpus: Corpus) -> list[str]:
    """One short free-text stand-in per article (`QUERIES_RULE`): what a reader types is a name or a phrase."""
    return [a.title if i % 2 == 0 else (a.description or a.title) for i, a in enumerate(corpus.articles)]


def pack_full_vectors(home: Path, corpus: Corpus, names: list[str], output: Path) -> list[Path]:
    """Write each full-mode space's vectors (corpus and short queries) and its training record into `output`."""
    from explore.encoders import load_encoder
    from explore.spaces.store import read_manifest

    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    queries = short_queries(corpus)
    written = []
    for name in names:
        directory = Path(home) / "spaces" / corpus.name / name
        manifest = read_manifest(directory)
        vectors = np.load(directory / manifest["embeddings"]["file"]).astype(np.float16)
        placed = np.asarray(load_encoder(manifest["encoder"]).encode(queries, progress=False), dtype=np.float32)
        scale = np.abs(placed).max(axis=1, keepdims=True) / 127
        np.savez(output / f"{name}.npz", corpus=vectors, queries_q=np.round(placed / scale).astype(np.int8),
                 queries_scale=scale.astype(np.float32).ravel())
        (output / f"training-{name}.json").write_text((directory / TRAINING_RECORD_FILE).read_text())
        (output / f"manifest-{name}.json").write_text(json.dumps(manifest, indent=2))
        written.append(output / f"{name}.npz")
    return written


def read_packed(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(corpus vectors, query vectors) of one packed space, float32, rows L2-normalised."""
    with np.load(path) as packed:
        corpus = packed["corpus"].astype(np.float32)
        queries = packed["queries_q"].astype(np.float32) * packed["queries_scale"][:, None]
    return _unit(corpus), _unit(queries)


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


def ship_full_space(corpus: Corpus, name: str, kind: str, aspects: tuple[str, ...], record: dict,
                    full_corpus: np.ndarray, full_queries: np.ndarray | None, generic_corpus: np.ndarray,
                    generic_queries: np.ndarray | None, shipped: Path, head_kind: str = "linear",
                    source: dict | None = None) -> dict:
    """Distil the free-text head on the record's training articles, measure it on its test articles, and write
    `shipped/<name>` (int8 vectors when their nn@10 overlap with the float vectors is ≥ INT8_NN10_FLOOR, else fp16).
    Returns the figures (also kept in the space's training record under `shipped`)."""
    split = split_by_article(corpus, seed=record["split"]["seed"], test_fraction=record["split"]["test_fraction"])
    if split.fingerprint != record["split"]["fingerprint"]:
        raise ValueError(f"{name}: the record's split {record['split']['fingerprint']} is not this corpus's "
                         f"{split.fingerprint}")
    train, test = split.train, split.test
    inputs, targets = [generic_corpus[train]], [full_corpus[train]]
    if full_queries is not None and generic_queries is not None:
        inputs.append(generic_queries[train])
        targets.append(full_queries[train])
    distilled = DistilledHead(kind=head_kind, seed=record["split"]["seed"]).fit(np.concatenate(inputs),
                                                                                np.concatenate(targets))
    figures = {"free_text_head": head_kind, "fitted_on": f"{len(train)} training articles"
               + (" and their short queries" if len(inputs) > 1 else ""), "queries": QUERIES_RULE}
    # a test article's own text, placed by the head, against its full-mode vector (its own row left out)
    figures["nn@10_test_articles"] = round(neighbour_overlap(distilled.transform(generic_corpus[test]),
                                                             full_corpus[test], full_corpus, exclude=test), 4)
    figures["nn@10_test_articles_generic_as_is"] = round(neighbour_overlap(generic_corpus[test], full_corpus[test],
                                                                           full_corpus, exclude=test), 4)
    if full_queries is not None and generic_queries is not None:
        figures["nn@10_test_queries"] = round(neighbour_overlap(distilled.transform(generic_queries[test]),
                                                                full_queries[test], full_corpus), 4)
        figures["nn@10_test_queries_generic_as_is"] = round(neighbour_overlap(generic_queries[test],
                                                                              full_queries[test], full_corpus), 4)
    rounded = _unit(quantized_rows(full_corpus).astype(np.float32))  # the test articles as seeds, in int8 vectors
    figures["int8_nn@10_vs_float"] = round(neighbour_overlap(rounded[test], full_corpus[test], rounded, exclude=test,
                                                                reference_corpus=full_corpus), 4)
    stored_dtype = SHIPPED_DTYPE if figures["int8_nn@10_vs_float"] >= INT8_NN10_FLOOR else "float16"
    figures["stored"] = stored_dtype
    with tempfile.TemporaryDirectory() as scratch:
        head_dir = distilled.head_.save(Path(scratch) / ENCODER_DIR)
        from explore.encoders import load_encoder

        fingerprint = load_encoder(f"dir:{head_dir}").fingerprint
        space = Space(name, kind, ENCODER_DIR, tuple(aspects))
        source = source or {}
        space._set_state(embeddings=full_corpus.astype(np.float32), corpus_name=corpus.name,
                         corpus_hash=corpus.content_hash, encoder_fingerprint=fingerprint,
                         precision=source.get("precision", "fp32"), backend=source.get("backend", "torch"),
                         created=source.get("created", ""), encode_seconds=source.get("encode_seconds", 0.0),
                         text_recipe=source.get("text_recipe", "title. text (v1)"))
        directory = save_space(space, Path(shipped) / name, encoder_spec=ENCODER_DIR, encoder_dir=head_dir,
                               stored_dtype=stored_dtype, trained="full")
    config = dict(record.get("config") or {}, corpus=corpus.name, space_name=name)
    (directory / TRAINING_RECORD_FILE).write_text(training_record_file({**record, "config": config,
                                                                        "shipped": figures}))
    return figures
