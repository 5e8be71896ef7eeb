"""Encoding on a Ray cluster (Ray Data): texts in numbered rows, `map_batches` over a pool of actors that each
load the encoder once (one GPU each where the cluster has GPUs), vectors put back in row order. The same encoder,
backend and precision as a local encode, so the space it writes is the one a local build writes.

Ray is an optional extra (`pip install -e '.[ray]'`); the local encode stays the default.
"""
from __future__ import annotations

import logging
import math
import os
import socket
import sys
from collections.abc import Sequence
from contextlib import contextmanager

import numpy as np

from explore.encoders.encode_engine import EncodeEngine, EngineRecord, RayAddressKind, RayEngineConfig
from explore.encoders.batching import DEFAULT_BATCH_SIZE, EncodeProgress, length_order
from explore.encoders.encoder import Encoder, TransformerEncoder
from explore.errors import AspectNavError

HEAD_CONNECT_TIMEOUT_S = 10.0  # a head's GCS port that takes no TCP connection within this is not there
GCS_ATTEMPTS_ENV = "RAY_gcs_server_port_wait_time_s"  # read by ray.init (ray/_private/node.py) on each call
RAY_BATCH_ROWS = 512  # texts per Ray batch: large enough that scheduling is noise, small enough to balance actors
INSTALL_HINT = "pip install -e '.[ray]' (or pip install 'ray[data,client]')"


def require_ray():
    """The ray module, or an error that says how to install it."""
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError as exc:
        raise AspectNavError(f"--engine ray needs Ray, which is not installed here ({exc.name} is missing): "
                             f"{INSTALL_HINT}. Without --engine the space is encoded locally.") from None
    return ray


class _EncodeActor:
    """One Ray actor: loads the encoder once, then encodes each batch of rows it is handed."""

    def __init__(self, spec: str, backend: str, precision: str, batch_size: int):
        import os

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from explore.encoders import load_encoder

        self.encoder = load_encoder(spec, precision=precision, backend=backend)
        self.batch_size = batch_size

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        vectors = self.encoder.encode([str(t) for t in batch["text"]], batch_size=self.batch_size, progress=False)
        backend, precision = self.encoder.last_run or ("torch", "fp32")
        rows = len(batch["row"])
        return {"row": batch["row"], "vector": vectors,
                "backend": np.array([backend] * rows), "precision": np.array([precision] * rows)}


class RayEncoder(Encoder):
    """A TransformerEncoder whose `encode` runs on Ray, as `config` says: where the cluster is (a Ray started for
    this build, `auto`, HOST:PORT or ray://HOST:PORT), how many actors, how long they may take to start."""

    def __init__(self, encoder: TransformerEncoder, config: RayEngineConfig = RayEngineConfig(),
                 rows_per_batch: int = RAY_BATCH_ROWS):
        if not isinstance(encoder, TransformerEncoder):
            raise AspectNavError(f"--engine ray encodes with a transformer; {encoder.spec} is not one "
                                 f"(a head projects its base space, which --engine ray encodes).")
        self.base_encoder = encoder
        self.spec = encoder.spec
        self.config = config
        self.rows_per_batch = rows_per_batch
        self.last_run: tuple[str, str] | None = None
        self.pool_: dict | None = None  # the pool the last encode ran on: workers, CPUs and GPUs per worker

    @property
    def fingerprint(self) -> str:
        return self.base_encoder.fingerprint

    @property
    def engine_record(self) -> EngineRecord:
        """What the last encode ran on, for the space's manifest."""
        actors = self.pool_["workers"] if self.pool_ else self.config.actors
        return EngineRecord(EncodeEngine.RAY, self.config.address.kind, actors)

    def _connect(self):
        ray = require_ray()
        address = self.config.address
        if address.kind is RayAddressKind.CLIENT:
            _require_ray_client()
        if not ray.is_initialized():
            start = (f"`ray start --head --ray-client-server-port {address.port}` on {address.host}"
                     if address.kind is RayAddressKind.CLIENT else
                     f"`ray start --head --port {address.port}` on {address.host}" if address.kind is RayAddressKind.GCS
                     else "`ray start --head` on the head node")
            if address.kind is RayAddressKind.GCS:
                _refuse_silent_head(address, start)
            try:
                with _one_gcs_attempt():
                    ray.init(address=address.for_ray_init(), ignore_reinit_error=True, log_to_driver=False,
                             logging_level=logging.WARNING, include_dashboard=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise AspectNavError(f"Could not reach Ray at {address}: {str(exc).strip()}. Is a cluster running "
                                     f"there? Start one with {start}.") from exc
        return ray

    def pool(self, ray) -> dict:
        """Workers and the resources each asks for: a GPU each where the cluster has them, else its CPUs shared."""
        resources = ray.cluster_resources()
        gpus, cpus = int(resources.get("GPU", 0)), max(1, int(resources.get("CPU", 1)))
        workers = self.config.actors or (gpus or max(1, cpus // 2))
        return {"workers": workers, "num_gpus": 1 if gpus else 0,
                "num_cpus": 1 if gpus else max(1, cpus // workers)}

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE,
               progress: "bool | EncodeProgress" = True) -> np.ndarray:
        from tqdm.auto import tqdm

        texts = [str(t) for t in texts]
        if not texts:
            return self.base_encoder.encode(texts)
        ray = self._connect()
        pool = self.pool(ray)
        rows_per_block = _rows_per_block(len(texts), pool["workers"], self.rows_per_batch, batch_size)
        pool["workers"] = min(pool["workers"], -(-len(texts) // rows_per_block))  # an actor for every block at most
        self.pool_ = pool
        report = progress if callable(progress) else None
        done = 0
        with tqdm(total=len(texts), unit="text", desc=f"encoding on Ray ({pool['workers']} actors)",
                  disable=not progress, file=sys.stderr) as bar:
            def on_batch(rows: int) -> None:
                nonlocal done
                done += rows
                bar.update(rows)
                if report:
                    report(done, len(texts))

            try:
                if _through_client():
                    vectors, self.last_run = self._encode_from_client(ray, texts, pool, batch_size,
                                                                      rows_per_block, on_batch)
                else:
                    vectors, self.last_run = _encode_on_cluster(
                        texts, pool, self._actor_kwargs(batch_size), rows_per_block,
                        self.config.actor_start_timeout_s, on_batch)
            except ray.exceptions.GetTimeoutError as exc:
                free = ray.available_resources()
                raise AspectNavError(
                    f"The Ray cluster at {self.config.address} did not start {pool['workers']} encoder actors "
                    f"({pool['num_cpus']} CPU{', 1 GPU' if pool['num_gpus'] else ''} each) within "
                    f"{self.config.actor_start_timeout_s:g} s; it has {free.get('CPU', 0):g} CPUs and "
                    f"{free.get('GPU', 0):g} GPUs free of {ray.cluster_resources().get('CPU', 0):g} CPUs. Give "
                    f"fewer --actors, add nodes, or a longer --actor-start-timeout.") from exc
            except ray.exceptions.RayError as exc:  # an actor that cannot load the encoder fails here, at once
                cause = str(exc).strip().splitlines()
                raise AspectNavError(
                    f"The encode on the Ray cluster at {self.config.address} failed: "
                    f"{cause[-1] if cause else type(exc).__name__}. Every node needs AspectNav installed "
                    f"({INSTALL_HINT}) and the encoder {self.spec} (a dir: encoder at the same path); Ray's "
                    f"full log is in the session's logs/ray-data/.") from exc
        if done != len(texts):
            raise AspectNavError(f"Ray returned {done} vectors for {len(texts)} texts.")
        return vectors

    def _actor_kwargs(self, batch_size: int) -> dict:
        return {"spec": str(self.base_encoder.spec),  # spec: absolute
                "backend": str(self.base_encoder.backend), "precision": str(self.base_encoder.precision),
                "batch_size": batch_size}

    def _encode_from_client(self, ray, texts: list[str], pool: dict, batch_size: int, rows_per_block: int,
                            on_batch) -> tuple[np.ndarray, tuple]:
        """Ray Data cannot run its executor in a Ray client, so one task on the cluster (no CPUs: it only drives)
        runs the encode and reports each batch through a queue that the bar here follows."""
        from ray.util.queue import Empty, Queue

        batches = Queue(actor_options={"num_cpus": 0})
        remote = ray.remote(num_cpus=0, max_retries=0)(_encode_on_cluster_reporting)
        result = remote.remote(texts, pool, self._actor_kwargs(batch_size), rows_per_block,
                               self.config.actor_start_timeout_s, batches)
        try:
            while True:
                finished, _ = ray.wait([result], timeout=0.5)
                try:
                    while True:
                        on_batch(batches.get_nowait())
                except Empty:
                    pass
                if finished:
                    return ray.get(result)
        finally:
            batches.shutdown()


def _through_client() -> bool:
    from ray.util.client import ray as client

    return client.is_connected()


def _encode_on_cluster_reporting(texts, pool, actor_kwargs, rows_per_block, actor_start_timeout_s, batches):
    """`_encode_on_cluster` in a task on the cluster, each batch's row count put on `batches`."""
    return _encode_on_cluster(texts, pool, actor_kwargs, rows_per_block, actor_start_timeout_s, batches.put)


def _rows_per_block(texts: int, workers: int, rows_per_batch: int, batch_size: int) -> int:
    """At least two blocks per worker, so every actor has work from the start, each a whole number of the
    encoder's batches (so each actor pads as a local encode does)."""
    rows = min(rows_per_batch, -(-texts // (2 * workers)))
    return max(1, -(-rows // batch_size)) * batch_size


def _encode_on_cluster(texts: list[str], pool: dict, actor_kwargs: dict, step: int,
                       actor_start_timeout_s: float, on_batch) -> tuple[np.ndarray, tuple[str, str]]:
    """The Ray Data pipeline, run where a Ray driver is (this process, or a task on the cluster), `step` rows to a
    block: the vectors in row order, and the backend and precision that computed them."""
    import pyarrow as pa
    import ray

    order = length_order(texts)  # blocks cut along it at whole batches: each actor pads as a local encode does
    table = pa.table({"row": order.astype(np.int64), "text": pa.array([texts[i] for i in order], pa.large_string())})
    out: np.ndarray | None = None
    last_run = ("torch", "fp32")
    with _ray_data_quiet(ray, actor_start_timeout_s):
        dataset = ray.data.from_arrow([table.slice(start, step) for start in range(0, len(texts), step)])
        encoded = dataset.map_batches(
            _EncodeActor, batch_size=step, batch_format="numpy",
            compute=ray.data.ActorPoolStrategy(size=pool["workers"]),
            num_gpus=pool["num_gpus"], num_cpus=pool["num_cpus"], fn_constructor_kwargs=actor_kwargs)
        for batch in encoded.iter_batches(batch_format="numpy", batch_size=None):
            vectors = np.asarray(batch["vector"], dtype=np.float32)
            if out is None:
                out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            out[batch["row"]] = vectors  # rows come back in any order; each goes to its own place
            last_run = (str(batch["backend"][0]), str(batch["precision"][0]))
            on_batch(len(vectors))
    return out, last_run


def _refuse_silent_head(address, start: str) -> None:
    """AspectNavError at once when nothing takes a connection at a head's GCS address (HOST:PORT): Ray itself would
    try for minutes (below), warning every 40 s."""
    try:
        socket.create_connection((address.host, address.port), timeout=HEAD_CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        why = ("nothing listens there" if isinstance(exc, ConnectionRefusedError) else
               f"no answer within {HEAD_CONNECT_TIMEOUT_S:g} s" if isinstance(exc, TimeoutError) else
               exc.strerror or type(exc).__name__)
        raise AspectNavError(f"Could not reach Ray at {address}: {why}. Is a cluster's head running there? Start "
                             f"one with {start}.") from None


@contextmanager
def _one_gcs_attempt():
    """`ray.init` to a HOST:PORT head tries its GCS connection RAY_gcs_server_port_wait_time_s times (default 20),
    each attempt bounded by Ray's own connect timeouts (RAY_gcs_rpc_server_connect_timeout_s, 5 s, and
    RAY_py_gcs_connect_timeout_s, 30 s): over 13 minutes for a head that takes the connection and never answers.
    One attempt bounds it to Ray's timeouts, as a ray:// address is; a value the user set is kept."""
    if GCS_ATTEMPTS_ENV in os.environ:
        yield
        return
    os.environ[GCS_ATTEMPTS_ENV] = "1"
    try:
        yield
    finally:
        os.environ.pop(GCS_ATTEMPTS_ENV, None)


def _require_ray_client():
    """A ray:// address needs Ray's client (grpcio), which `ray[data]` alone does not bring."""
    try:
        import grpc  # noqa: F401
    except ImportError:
        raise AspectNavError(f"--address ray://… needs Ray's client (grpcio is missing): {INSTALL_HINT}.") from None


@contextmanager
def _ray_data_quiet(ray, actor_start_timeout_s: float):
    """Our progress bar is the only one: Ray Data's own bars and its progress log (one block of lines every few
    seconds when stderr is not a terminal) are off, its console log shows errors only (the full log stays in
    the session's logs/ray-data/), and the actor pool must start within the timeout. Put back afterwards."""
    context = ray.data.DataContext.get_current()
    saved = {name: getattr(context, name) for name in _QUIET_DATA_CONTEXT}
    handlers = [h for h in logging.getLogger("ray.data").handlers if isinstance(h, logging.StreamHandler)]  # console
    levels = [h.level for h in handlers]
    for name, value in _QUIET_DATA_CONTEXT.items():
        setattr(context, name, value)
    context.wait_for_min_actors_s = max(1, math.ceil(actor_start_timeout_s))
    for handler in handlers:
        handler.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(context, name, value)
        for handler, level in zip(handlers, levels):
            handler.setLevel(level)


_QUIET_DATA_CONTEXT = {"enable_progress_bars": False, "enable_operator_progress_bars": False,
                       "print_on_execution_start": False, "wait_for_min_actors_s": -1}
