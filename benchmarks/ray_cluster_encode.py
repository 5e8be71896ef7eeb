"""`python -m benchmarks ray_cluster_encode`: MiniLM encoding on a Ray cluster of three nodes simulated on this
machine (a head that runs no tasks and two worker nodes of one CPU each: tests/ray_cluster.py), reached by its GCS
address as `spaces build --engine ray --address HOST:PORT` reaches it, beside the local encode of the same texts in
the same run; then once more with a worker node killed after the first batch. Quality: the minimum cosine of each
text's vector against the local one. On one 2-core machine the nodes share the cores the local encode has to
itself, so the figure is the engine's overhead, not a cluster's speed-up."""
from __future__ import annotations

import time

from benchmarks.common import Row, cpu_description, load_average

TEXTS, QUICK_TEXTS = 500, 60


def run(quick: bool = False) -> list[Row]:
    from explore.corpus.vital import build_vital_corpus
    from explore.encoders import load_encoder
    from explore.encoders.encode_engine import RayAddress, RayEngineConfig
    from explore.encoders.ray_encoder import RayEncoder
    from explore.spaces.article_text import article_text
    from tests.ray_cluster import simulated_cluster

    texts = [article_text(a) for a in build_vital_corpus().articles[:QUICK_TEXTS if quick else TEXTS]]
    encoder = load_encoder("minilm", backend="torch")  # what each Ray actor runs on its batches
    encoder.encode(texts[:32], progress=False)  # the model loaded: timing the encode, not the load
    started = time.perf_counter()
    local = encoder.encode(texts, progress=False)
    local_rate = len(texts) / (time.perf_counter() - started)
    cpu = cpu_description()
    with simulated_cluster(workers=2, cpus_per_worker=1) as cluster:
        ray_encoder = RayEncoder(encoder, RayEngineConfig(RayAddress.parse(cluster.address), actors=2))
        started = time.perf_counter()
        ray_encoder.encode(texts[:64], progress=False)  # one batch per actor: what starting an encode costs
        startup = time.perf_counter() - started
        started = time.perf_counter()
        vectors = ray_encoder.encode(texts, progress=False)
        rate = len(texts) / (time.perf_counter() - started)
        load = load_average()
        killed_at: list[int] = []

        def kill_a_worker_after_the_first_batch(done: int, total: int) -> None:
            if not killed_at:
                killed_at.append(done)
                cluster.kill_worker(cluster.workers[0])

        started = time.perf_counter()
        survived = ray_encoder.encode(texts, progress=kill_a_worker_after_the_first_batch)
        killed_rate = len(texts) / (time.perf_counter() - started)
    cosine = float((vectors * local).sum(axis=1).min())
    killed_cosine = float((survived * local).sum(axis=1).min())
    common = (f"{encoder.last_run[0]} {encoder.last_run[1]}; each encode starts its 2 actors and loads the model in "
              f"each ({startup:.1f} s for 64 texts), included; 3 nodes (head 0 CPU, 2 workers x 1 CPU) on one "
              f"machine; {cpu}; load {load}")
    return [Row("ray encode", f"MiniLM on a simulated 3-node Ray cluster, 2 actors, {len(texts):,} texts, texts/s",
                rate, local_rate, "texts/s", "local encode, same encoder and texts, this process",
                lower_is_better=False, notes=f"min cosine vs local {cosine:.6f}; {common}"),
            Row("ray encode", f"the same with a worker node killed after the first batch ({killed_at[0]} texts), "
                              f"texts/s", killed_rate, local_rate, "texts/s",
                "local encode, same encoder and texts, this process", lower_is_better=False,
                notes=f"min cosine vs local {killed_cosine:.6f}; the job completed on the surviving node; {common}")]
