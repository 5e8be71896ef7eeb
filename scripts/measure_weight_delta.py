"""How close a low-rank weight delta (training/weight_delta.py) places free text to the fine-tuned encoder it is cut
from, per rank: nn@10 overlap with the fine-tuned encoder's own neighbours, for held-out articles' short queries
(titles and descriptions, training/full_spaces.py QUERIES_RULE) and for held-out articles' texts, with the size.

    python scripts/measure_weight_delta.py --home DIR --ranks 8,16,24,32/8 country occupation union intersection

(--ranks: each rank, and after a slash the embedding table's rank where it differs.)

DIR is the data home the full-mode runs trained in (their fine-tuned encoders are there); the queries are the
seeded draws of `training.full_spaces.held_out_queries` (400 short queries, 200 texts) that
`scripts/measure_free_text_queries.py` and the ship step score the shipped encoders on, so the figures sit beside theirs. Beside each: the median ms of one short
query encoded alone (fp32, torch), the encoders taking turns, the fine-tuned encoder itself the peer; and the CPU.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, required=True, help="the data home the full-mode runs trained in")
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--ranks", default="8/4,16/4,32/4")
    parser.add_argument("--embedding-rank", type=int, default=None, help="default: the rank; 0: embeddings as the base")
    parser.add_argument("--queries", type=int, default=None, help="held-out short queries (default: 400)")
    parser.add_argument("--out", type=Path, default=None, help="also write the figures here (JSON)")
    parser.add_argument("spaces", nargs="+")
    args = parser.parse_args()
    os.environ["ASPECTNAV_HOME"] = str(args.home)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from explore.corpus import open_corpus
    from benchmarks.common import cpu_description
    from explore.encoders import load_encoder, save_weight_delta
    from explore.spaces.article_text import article_text
    from explore.spaces.store import read_manifest, read_training_record
    from training.distilled_head import neighbour_overlap
    from training.full_spaces import HELD_OUT_SHORT_QUERIES, held_out_queries, short_queries
    from training.splits import split_by_article
    from training.weight_delta import delta_bytes, weight_delta

    corpus = open_corpus(args.corpus)
    queries = short_queries(corpus)
    base = load_encoder("minilm", precision="fp32")
    base.encode(["warm"], progress=False)
    figures = {"cpu": cpu_description(), "spaces": {}}
    print(figures["cpu"], flush=True)
    for name in args.spaces:
        directory = args.home / "spaces" / corpus.name / name
        manifest, record = read_manifest(directory), read_training_record(directory)
        tuned = load_encoder(manifest["encoder"], precision="fp32", base_dir=directory)
        split = split_by_article(corpus, seed=record["split"]["seed"], test_fraction=record["split"]["test_fraction"])
        test = np.asarray(split.test)
        drawn = held_out_queries(test, args.queries or HELD_OUT_SHORT_QUERIES)
        texts = held_out_queries(test)
        vectors = np.load(directory / manifest["embeddings"]["file"]).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        short = [queries[i] for i in drawn]
        long = [article_text(corpus.articles[i]) for i in texts]
        wanted = tuned.encode(short, progress=False)
        rows = {"generic as is": _scores(base, short, long, wanted, vectors, texts, neighbour_overlap) | {"MB": 0},
                # the ceiling: the fine-tuned encoder itself (fp32) against its stored vectors (encoded as it trained)
                "fine-tuned encoder": _scores(tuned, short, long, wanted, vectors, texts, neighbour_overlap)}
        timed = {"generic as is": base, "fine-tuned encoder": tuned}
        with tempfile.TemporaryDirectory() as scratch:
            for rank, embedding_rank in _ranks(args.ranks, args.embedding_rank):
                started = time.perf_counter()
                delta = weight_delta(base.model, tuned.model, rank, embedding_rank)
                label = f"rank {rank}" + ("" if embedding_rank is None else f", embeddings {embedding_rank}")
                saved = save_weight_delta(Path(scratch) / label.replace(" ", "").replace(",", "-"), delta)
                timed[label] = encoder = load_encoder(f"dir:{saved}", precision="fp32")
                rows[label] = _scores(encoder, short, long, wanted, vectors, texts, neighbour_overlap) | {
                    "MB": round(delta_bytes(delta) / 1e6, 2), "seconds": round(time.perf_counter() - started, 1)}
                print(name, label, json.dumps(rows[label]), flush=True)
            for label, ms in _query_times(timed, short).items():  # the fine-tuned encoder is the peer
                rows[label]["ms per short query"] = ms
        figures["spaces"][name] = rows
        print(name, json.dumps(rows), flush=True)
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2))
    return 0


def _ranks(text: str, embedding_rank: int | None) -> list[tuple[int, int | None]]:
    """"8,16,24/8": (8, default), (16, default), (24, 8): a rank, and after a slash the embedding table's."""
    pairs = []
    for part in text.split(","):
        rank, _, embeddings = part.partition("/")
        pairs.append((int(rank), int(embeddings) if embeddings else embedding_rank))
    return pairs


def _scores(encoder, short, long, wanted, vectors, texts, overlap) -> dict:
    """nn@10 of the short queries (against the fine-tuned encoder's own query vectors) and of the held-out texts
    (against their stored vectors, their own row left out), as the shipped encoders are scored."""
    placed_short = encoder.encode(short, progress=False)
    placed_long = encoder.encode(long, progress=False)
    return {"nn@10 short queries": round(overlap(placed_short, wanted, vectors), 4),
            "nn@10 held-out texts": round(overlap(placed_long, vectors[texts], vectors, exclude=texts), 4)}


def _query_times(encoders: dict, short: list[str], rounds: int = 50) -> dict:
    """Median ms of one short query encoded alone, per encoder (what a reader's search costs a space), the encoders
    taking turns query by query so a busy machine slows all alike."""
    for encoder in encoders.values():
        encoder.encode(short[:4], progress=False)
    seconds = {label: [] for label in encoders}
    for query in (short * rounds)[:rounds]:
        for label, encoder in encoders.items():
            started = time.perf_counter()
            encoder.encode([query], progress=False)
            seconds[label].append(time.perf_counter() - started)
    return {label: round(1000 * statistics.median(values), 1) for label, values in seconds.items()}


if __name__ == "__main__":
    raise SystemExit(main())
