"""Ship full-mode spaces without their 43 MiB encoders: the corpus vectors a fine-tuned encoder wrote (int8), and for
free text the fine-tuned encoder as a low-rank weight delta of MiniLM (training/weight_delta.py), or where a pack has
none, a head distilled onto the vectors (training/distilled_head.py) that places free text from the generic vectors.

Two steps, so the GPU step needs no shipping code and the shipping step no GPU:
`pack_full_vectors` (where the full-mode runs trained) writes, per space, `<name>.npz` (`corpus`: its vectors, fp16,
rows in corpus order; `queries_q` + `queries_scale`: its vectors of each article's short query, int8), `delta-<name>/`
(the weight delta) and the run's `training-<name>.json`; `ship_full_space` (anywhere) measures the delta (or distils
the head) against the packed vectors, checks the int8 vectors and writes the space into the shipped assets.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from explore.corpus.model import Corpus
from explore.spaces import Space
from explore.spaces.store import (ENCODER_DIR, TRAINING_RECORD_FILE, quantized_rows, read_training_record,
                                  save_space, training_record_file)
from training.distilled_head import DistilledHead, neighbour_overlap
from training.splits import split_by_article

SHIPPED_DTYPE = "int8"
INT8_NN10_FLOOR = 0.99  # below it the space ships fp16 (the int8 vectors must find the same neighbours)
QUERIES_RULE = "even rows: the title; odd rows: the description (the title where there is none)"
DELTA_BASE = "minilm"  # what the full-mode runs fine-tune, and what a shipped weight delta is applied to
# scripts/measure_weight_delta.py, docs/training.md "Free text through a weight delta": rank 32 for the transformer's
# matrices, 4 for the embedding tables (their 30,522 rows cost most of a delta, and rank 4 placed text as rank 24 did)
DELTA_RANK, DELTA_EMBEDDING_RANK = 32, 4


def short_queries(corpus: Corpus) -> list[str]:
    """One short free-text stand-in per article (`QUERIES_RULE`): what a reader types is a name or a phrase."""
    return [a.title if i % 2 == 0 else (a.description or a.title) for i, a in enumerate(corpus.articles)]


def pack_full_vectors(home: Path, corpus: Corpus, names: list[str], output: Path, delta_rank: int = DELTA_RANK,
                      delta_embedding_rank: int = DELTA_EMBEDDING_RANK) -> list[Path]:
    """Write each full-mode space's vectors (corpus and short queries), its fine-tuned encoder as a weight delta of
    MiniLM (`delta_rank` for matrices, `delta_embedding_rank` for embedding tables; a rank of 0: no delta) and its
    training record into `output`."""
    from explore.encoders import load_encoder, save_weight_delta
    from explore.spaces.store import read_manifest
    from training.weight_delta import weight_delta

    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    queries = short_queries(corpus)
    written = []
    for name in names:
        directory = Path(home) / "spaces" / corpus.name / name
        manifest = read_manifest(directory)
        vectors = np.load(directory / manifest["embeddings"]["file"]).astype(np.float16)
        tuned = load_encoder(manifest["encoder"], base_dir=directory)
        placed = np.asarray(tuned.encode(queries, progress=False), dtype=np.float32)
        if delta_rank:
            base = load_encoder(DELTA_BASE)
            save_weight_delta(output / f"delta-{name}", weight_delta(base.model, tuned.model, delta_rank,
                                                                      delta_embedding_rank, base_encoder=DELTA_BASE))
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
                    source: dict | None = None, delta: Path | None = None) -> dict:
    """Write `shipped/<name>` (int8 vectors when their nn@10 overlap with the float vectors is ≥ INT8_NN10_FLOOR, else
    fp16) with its free-text encoder: the packed weight delta `delta`, measured on the test articles' short queries
    and the held-out articles' texts; without one, a head distilled on the record's training articles. Returns the
    figures (also kept in the space's training record under `shipped`, the replaced space's under `before`)."""
    split = _checked_split(corpus, name, record)
    if delta is not None:
        figures = _delta_figures(corpus, Path(delta), split.test, full_corpus, full_queries)
        save_encoder = lambda target: Path(shutil.copytree(delta, target))  # noqa: E731
    else:
        figures, save_encoder = _distilled_head(record, head_kind, split, full_corpus,
                                                full_queries, generic_corpus, generic_queries)
    previous = read_training_record(Path(shipped) / name).get("shipped") if (Path(shipped) / name).is_dir() else None
    if previous:
        figures["before"] = {key: value for key, value in previous.items()
                             if key not in ("before", "stored") and not key.startswith("int8")}
    return write_full_space(corpus, name, kind, aspects, record, full_corpus, split.test, save_encoder, figures,
                            shipped, source)


def _checked_split(corpus: Corpus, name: str, record: dict):
    split = split_by_article(corpus, seed=record["split"]["seed"], test_fraction=record["split"]["test_fraction"])
    if split.fingerprint != record["split"]["fingerprint"]:
        raise ValueError(f"{name}: the record's split {record['split']['fingerprint']} is not this corpus's "
                         f"{split.fingerprint}")
    return split


def _delta_figures(corpus: Corpus, delta: Path, test: np.ndarray, full_corpus: np.ndarray,
                   full_queries: np.ndarray | None) -> dict:
    """Where the delta places the test articles' short queries and the held-out articles' texts, against where the
    fine-tuned encoder placed them (its packed query vectors; its corpus vectors, each text's own row left out)."""
    from explore.encoders import load_encoder
    from explore.spaces.article_text import article_text

    encoder = load_encoder(f"dir:{delta}", precision="fp32")
    carried = encoder.adaptation  # the WeightDelta it runs
    figures = {"free_text_encoder": f"{carried.base_encoder} with a rank-{carried.rank} weight delta of the "
                                    f"fine-tuned encoder (fp16)", "queries": QUERIES_RULE}
    texts = held_out_queries(test)
    figures[f"nn@10_{len(texts)}_held_out"] = round(neighbour_overlap(
        encoder.encode([article_text(corpus.articles[i]) for i in texts], progress=False), full_corpus[texts],
        full_corpus, exclude=texts), 4)
    if full_queries is not None:
        queries = short_queries(corpus)
        figures["nn@10_test_queries"] = round(neighbour_overlap(
            encoder.encode([queries[i] for i in test], progress=False), full_queries[test], full_corpus), 4)
    return figures


def _distilled_head(record: dict, head_kind: str, split, full_corpus: np.ndarray, full_queries: np.ndarray | None,
                    generic_corpus: np.ndarray, generic_queries: np.ndarray | None):
    """(figures, save) of a head distilled from the generic vectors onto the full ones (packs without a delta)."""
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
    return figures, distilled.head_.save


def write_full_space(corpus: Corpus, name: str, kind: str, aspects: tuple[str, ...], record: dict,
                     full_corpus: np.ndarray, test: np.ndarray, save_encoder, figures: dict, shipped: Path,
                     source: dict | None = None) -> dict:
    """Write `shipped/<name>`: the full-mode vectors (int8 when their nn@10 overlap with the float vectors is ≥
    INT8_NN10_FLOOR, else fp16), the free-text encoder `save_encoder(directory)` writes (a weight delta or a distilled head),
    and the training record with `figures` under `shipped`; `test`: the record's test articles, whose neighbours the
    int8 check compares. Returns the figures."""
    rounded = _unit(quantized_rows(full_corpus).astype(np.float32))  # the test articles as seeds, in int8 vectors
    figures = dict(figures, **{"int8_nn@10_vs_float": round(neighbour_overlap(
        rounded[test], full_corpus[test], rounded, exclude=test, reference_corpus=full_corpus), 4)})
    stored_dtype = SHIPPED_DTYPE if figures["int8_nn@10_vs_float"] >= INT8_NN10_FLOOR else "float16"
    figures["stored"] = stored_dtype
    with tempfile.TemporaryDirectory() as scratch:
        encoder_dir = save_encoder(Path(scratch) / ENCODER_DIR)
        from explore.encoders import load_encoder

        fingerprint = load_encoder(f"dir:{encoder_dir}").fingerprint
        space = Space(name, kind, ENCODER_DIR, tuple(aspects))
        source = source or {}
        space._set_state(embeddings=full_corpus.astype(np.float32), corpus_name=corpus.name,
                         corpus_hash=corpus.content_hash, encoder_fingerprint=fingerprint,
                         precision=source.get("precision", "fp32"), backend=source.get("backend", "torch"),
                         created=source.get("created", ""), encode_seconds=source.get("encode_seconds", 0.0),
                         text_recipe=source.get("text_recipe", "title. text (v1)"))
        directory = save_space(space, Path(shipped) / name, encoder_spec=ENCODER_DIR, encoder_dir=encoder_dir,
                               stored_dtype=stored_dtype, trained="full")
    config = dict(record.get("config") or {}, corpus=corpus.name, space_name=name)
    (directory / TRAINING_RECORD_FILE).write_text(training_record_file({**record, "config": config,
                                                                        "shipped": figures}))
    return figures


HELD_OUT_QUERIES = 200  # issue #39's free-text figure: this many held-out articles' texts used as queries
HELD_OUT_SHORT_QUERIES = 400  # the measuring scripts' draw of held-out short queries (titles and descriptions)
HELD_OUT_SEED = 0


def held_out_queries(test: np.ndarray, count: int = HELD_OUT_QUERIES, seed: int = HELD_OUT_SEED) -> np.ndarray:
    """`count` test articles drawn with `seed` (sorted): the held-out articles whose texts or short queries a space's
    free-text encoder is scored on. The same split gives the same draw whatever else was measured before it."""
    return np.sort(np.random.default_rng(seed).choice(test, min(count, len(test)), replace=False))


def free_text_lines(spaces: dict) -> list[str]:
    """One line per shipped full space among `spaces` (name -> Space): its free-text nn@10 on the held-out articles'
    texts, beside the previous free-text encoder's on the same queries (what `training evaluate` prints)."""
    from explore.spaces.store import read_training_record

    lines = []
    key = f"nn@10_{HELD_OUT_QUERIES}_held_out"
    for name, space in spaces.items():
        shipped = (read_training_record(getattr(space, "directory_", None)) or {}).get("shipped") or {}
        if key not in shipped:
            continue
        before = shipped.get("before") or {}
        previous = before.get("free_text_encoder") or f"{before.get('free_text_head', 'previous')} head"
        was = f"; {previous} before: {before[key]:.3f}" if key in before else ""
        lines.append(f"{name}: free text nn@10 {shipped[key]:.3f} on {HELD_OUT_QUERIES} held-out articles' texts "
                     f"against the fine-tuned encoder's neighbours ({shipped.get('free_text_encoder')}{was})")
    return lines
