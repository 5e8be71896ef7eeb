"""A synthetic corpus of a million Wikipedia-like articles, made reproducibly from the vital leads, to serve
from one machine (benchmarks/serving.py, tests/explore/corpus/test_columnar_store.py).

How it is made (seeded, the same rows every time): rows 0..10,032 are vital's own articles (titles, texts,
aliases, labels and links unchanged); every later row recombines two vital articles A and B: title
"A · B", text A's first two sentences then B's first, A's description and labels, links to rows built
on the articles A links to (up to LINKS), no URL. Its generic vectors are not encoded: each is the
normalised 2:1 mean of A's and B's shipped MiniLM vectors (vital's `generic` space) plus a little noise,
so that the space answers in MiniLM's geometry; `agreement` measures how close they come to MiniLM
encoding the recombined texts. Links are declared hyperlinks (the rows they point at exist).

    python -m benchmarks.million_corpus --rows 1000000 --name million   # ~3 min on 2 cores, ~1.6 GB on disk

Measured on the 2-core machine of benchmarks/RESULTS.md, shared with other work: 1,000,000 rows in 2.6 min with the
faiss IVF-PQ index `auto` picks at that size (write 103 s, space 25 s, index 29 s; 0.84 GB corpus, 0.7 GB vectors,
55 MB index; peak RSS 6.8 GB, most likely `synthetic_vectors`' float32 temporaries); with `--index hnsw` 35 min, 25 of
them the hnswlib index (1.7 GB); 100,000 rows (hnswlib) in 3.5 min at load average 9-11 (write 23 s, space 6 s, index
182 s; peak RSS 0.9 GB). A killed build leaves nothing behind once the next one starts (its staging folder carries the
writer's process id, explore/atomic_files.py); it starts again, it does not resume.
"""
from __future__ import annotations

import argparse
import re
import time
from datetime import datetime, timezone

import numpy as np

from explore.corpus.columnar_store import save_columnar
from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.registry import corpus_path, open_corpus
from explore.spaces.article_text import TEXT_RECIPE
from explore.spaces.registry import spaces_for
from explore.spaces.space import Space
from explore.spaces.store import save_space
from explore.settings import spaces_dir
from explore.spaces.vector_index import IndexKind

SEED = 28
LINKS = 8
A_WEIGHT = 2 / 3  # the text is two sentences of A and one of B
NOISE = 0.02
BATCH = 20_000
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _sentences(text: str, n: int) -> str:
    return " ".join(_SENTENCE_END.split(text.strip())[:n])


def recipe(vital: Corpus, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The (A, B) vital rows each synthetic row recombines: the corpus's one random draw."""
    rng = np.random.default_rng(SEED)
    extra = max(rows - len(vital), 0)
    return rng.integers(0, len(vital), extra), rng.integers(0, len(vital), extra)


def synthetic_text(vital: Corpus, a: int, b: int) -> str:
    return f"{_sentences(vital.articles[a].text, 2)} {_sentences(vital.articles[b].text, 1)}"


def _batches(vital: Corpus, first: np.ndarray, second: np.ndarray):
    yield list(vital.articles)
    start = len(vital)
    rows_of = {}  # vital row -> the synthetic rows built on it (link targets)
    for row, a in enumerate(first.tolist()):
        rows_of.setdefault(a, []).append(start + row)
    rng = np.random.default_rng(SEED + 1)
    lead_a = [_sentences(article.text, 2) for article in vital.articles]
    lead_b = [_sentences(article.text, 1) for article in vital.articles]
    for begin in range(0, len(first), BATCH):
        batch = []
        for row in range(begin, min(begin + BATCH, len(first))):
            a, b = int(first[row]), int(second[row])
            source, other = vital.articles[a], vital.articles[b]
            targets = [vital.position[i] for i in source.links[:LINKS] if i in vital.position]
            links = tuple(f"S{int(rng.choice(rows_of[t]))}" if t in rows_of else vital.articles[t].id for t in targets)
            batch.append(Article(id=f"S{start + row}", title=f"{source.title} · {other.title}",
                                 text=f"{lead_a[a]} {lead_b[b]}", description=source.description,
                                 links=links + (source.id,), aspects=source.aspects, inferred=source.inferred))
        yield batch


def synthetic_vectors(vital_vectors: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    noise = np.random.default_rng(SEED + 2).standard_normal((len(first), vital_vectors.shape[1])).astype(np.float32)
    mixed = A_WEIGHT * vital_vectors[first] + (1 - A_WEIGHT) * vital_vectors[second] + NOISE * noise
    mixed /= np.linalg.norm(mixed, axis=1, keepdims=True)
    return np.concatenate([vital_vectors, mixed])


def make_million_corpus(rows: int = 1_000_000, name: str = "million", index: bool = True,
                        kind: IndexKind = IndexKind.AUTO) -> dict:
    """Write the corpus and its generic space, served by a `kind` index (recorded in its manifest), into the data
    home (replacing earlier ones); returns timings."""
    timings = {}
    start = time.perf_counter()
    vital = open_corpus("vital")
    vital_generic = spaces_for(vital, progress=False).open("generic")
    vital_vectors = np.asarray(vital_generic.embeddings_, dtype=np.float32)
    first, second = recipe(vital, rows)
    provenance = Provenance(
        source="synthetic from Wikipedia's vital articles", date=datetime.now(timezone.utc).date().isoformat(),
        version=f"benchmarks/million_corpus.py seed {SEED}", links="hyperlinks",
        details={"made_by": "benchmarks/million_corpus.py: vital leads recombined (A · B), not real articles",
                 "vectors": "generic: 2:1 mean of A's and B's shipped MiniLM vectors plus noise, not encoded"})
    save_columnar(name, provenance, _batches(vital, first, second), corpus_path(name))
    timings["write_s"] = time.perf_counter() - start
    corpus = open_corpus(name)
    vectors = synthetic_vectors(vital_vectors, first, second)
    space = Space("generic", "generic", vital_generic.encoder)._set_state(
        embeddings=vectors, corpus_name=name, corpus_hash=corpus.content_hash,
        encoder_fingerprint=vital_generic.encoder_fingerprint_, precision=vital_generic.precision_,
        backend=vital_generic.backend_, created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        encode_seconds=0.0, text_recipe=TEXT_RECIPE, index_kind=kind)
    save_space(space, spaces_dir() / name / "generic")
    del vectors, space
    timings["space_s"] = time.perf_counter() - start - timings["write_s"]
    if index:
        begin = time.perf_counter()
        generic = spaces_for(corpus, progress=False).open("generic")
        if not generic.search_.exact:
            generic.index  # built once and cached beside the space (explore/spaces/vector_index.py)
        timings["index_s"] = time.perf_counter() - begin
    return timings


def agreement(sample: int = 200) -> dict:
    """How close the synthetic vectors come to MiniLM encoding the recombined texts: mean and 5th-percentile
    cosine over `sample` rows (the encoder's own text recipe, explore/spaces/article_text.py)."""
    from explore.encoders import load_encoder
    from explore.spaces.article_text import article_text

    vital = open_corpus("vital")
    generic = spaces_for(vital, progress=False).open("generic")
    first, second = recipe(vital, len(vital) + sample)
    derived = synthetic_vectors(np.asarray(generic.embeddings_, np.float32), first, second)[len(vital):]
    texts = [article_text(Article(id="x", title=f"{vital.articles[a].title} · {vital.articles[b].title}",
                                  text=synthetic_text(vital, a, b), description=vital.articles[a].description))
             for a, b in zip(first.tolist(), second.tolist())]
    encoded = load_encoder(generic.encoder).encode(texts, progress=False)
    cosines = np.einsum("ij,ij->i", derived, encoded / np.linalg.norm(encoded, axis=1, keepdims=True))
    return {"rows": sample, "mean_cosine": float(cosines.mean()), "p5_cosine": float(np.percentile(cosines, 5))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.million_corpus", description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--name", default="million")
    parser.add_argument("--no-index", action="store_true", help="leave the index to the first open")
    parser.add_argument("--index", choices=[str(kind) for kind in IndexKind], default=str(IndexKind.AUTO),
                        help="the index the generic space is served by, as `spaces build --index` (default auto: "
                             "ivfpq from 1,000,000 rows, hnsw below)")
    args = parser.parse_args(argv)
    timings = make_million_corpus(args.rows, args.name, index=not args.no_index, kind=IndexKind.parse(args.index))
    print(f"corpus {args.name!r}: {args.rows:,} articles at {corpus_path(args.name)}; "
          + ", ".join(f"{k} {v:.1f}" for k, v in timings.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
