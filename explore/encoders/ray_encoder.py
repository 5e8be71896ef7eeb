"""Encoding on a Ray cluster (Ray Data): texts in numbered rows, `map_batches` over a pool of actors that each
load the encoder once (one GPU each where the cluster has GPUs), vectors put back in row order. The same encoder,
backend and precision as a local encode, so the space it writes is the one a local build writes.

Ray is an optional extra (`pip install -e '.[ray]'`); the local encode stays the default.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import Enum

import numpy as np

from explore.encoders.encoder import DEFAULT_BATCH_SIZE, EncodeProgress, Encoder, TransformerEncoder
from explore.errors import AspectNavError

RAY_BATCH_ROWS = 512  # texts per Ray batch: large enough that scheduling is noise, small enough to balance actors
INSTALL_HINT = "pip install -e '.[ray]' (or pip install 'ray[data]')"


class EncodeEngine(Enum):
    """What runs a space's encode: this process (default) or a Ray cluster."""

    LOCAL = "local"
    RAY = "ray"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: "str | EncodeEngine | None") -> "EncodeEngine":
        if isinstance(text, cls):
            return text
        try:
            return cls(text or "local")
        except ValueError:
            raise AspectNavError(f"Unknown engine {text!r}; use {' or '.join(e.value for e in cls)}.") from None


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

    def __init__(self, spec: str, backend: str, precision: str):
        import os

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from explore.encoders import load_encoder

        self.encoder = load_encoder(spec, precision=precision, backend=backend)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        vectors = self.encoder.encode([str(t) for t in batch["text"]], progress=False)
        backend, precision = self.encoder.last_run or ("torch", "fp32")
        rows = len(batch["row"])
        return {"row": batch["row"], "vector": vectors,
                "backend": np.array([backend] * rows), "precision": np.array([precision] * rows)}


class RayEncoder(Encoder):
    """A TransformerEncoder whose `encode` runs on Ray. `address`: None starts (or joins) a local Ray; "auto"
    joins the cluster this machine is part of; "ray://HOST:10001" a remote one. `workers`: actors in the pool
    (default: one per GPU, else one per two CPUs of the cluster)."""

    def __init__(self, encoder: TransformerEncoder, address: str | None = None, workers: int | None = None,
                 rows_per_batch: int = RAY_BATCH_ROWS):
        if not isinstance(encoder, TransformerEncoder):
            raise AspectNavError(f"--engine ray encodes with a transformer; {encoder.spec} is not one "
                                 f"(a head projects its base space, which --engine ray encodes).")
        self.base_encoder = encoder
        self.spec = encoder.spec
        self.address = address
        self.workers = workers
        self.rows_per_batch = rows_per_batch
        self.last_run: tuple[str, str] | None = None
        self.pool_: dict | None = None  # the pool the last encode ran on: workers, CPUs and GPUs per worker

    @property
    def fingerprint(self) -> str:
        return self.base_encoder.fingerprint

    def _connect(self):
        ray = require_ray()
        if not ray.is_initialized():
            try:
                ray.init(address=self.address, ignore_reinit_error=True, log_to_driver=False,
                         include_dashboard=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = self.address or "a local Ray"
                raise AspectNavError(f"Could not reach {where}: {exc}. Start one with `ray start --head` and pass "
                                     f"--address auto (or ray://HOST:10001).") from exc
        return ray

    def pool(self, ray) -> dict:
        """Workers and the resources each asks for: a GPU each where the cluster has them, else its CPUs shared."""
        resources = ray.cluster_resources()
        gpus, cpus = int(resources.get("GPU", 0)), max(1, int(resources.get("CPU", 1)))
        workers = self.workers or (gpus or max(1, cpus // 2))
        if self.workers is not None and self.workers < 1:
            raise AspectNavError(f"--workers must be at least 1, not {self.workers}.")
        return {"workers": workers, "num_gpus": 1 if gpus else 0,
                "num_cpus": 1 if gpus else max(1, cpus // workers)}

    def encode(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH_SIZE,
               progress: "bool | EncodeProgress" = True) -> np.ndarray:
        from tqdm.auto import tqdm

        texts = [str(t) for t in texts]
        if not texts:
            return self.base_encoder.encode(texts)
        ray = self._connect()
        self.pool_ = pool = self.pool(ray)
        spec = self.base_encoder.spec
        import pyarrow as pa

        table = pa.table({"row": np.arange(len(texts), dtype=np.int64), "text": pa.array(texts, pa.large_string())})
        # one block per batch, at least two per worker, so every actor has work from the start
        step = max(1, min(self.rows_per_batch, -(-len(texts) // (2 * pool["workers"]))))
        dataset = ray.data.from_arrow([table.slice(start, step) for start in range(0, len(texts), step)])
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # ours below counts texts; Ray's would draw beside it
        encoded = dataset.map_batches(
            _EncodeActor, batch_size=step, batch_format="numpy",
            compute=ray.data.ActorPoolStrategy(size=pool["workers"]),
            num_gpus=pool["num_gpus"], num_cpus=pool["num_cpus"],
            fn_constructor_kwargs={"spec": str(spec), "backend": str(self.base_encoder.backend),  # spec: absolute
                                   "precision": str(self.base_encoder.precision)})
        out: np.ndarray | None = None
        report = progress if callable(progress) else None
        done = 0
        with tqdm(total=len(texts), unit="text", desc=f"encoding on Ray ({pool['workers']} workers)",
                  disable=not progress, file=sys.stderr) as bar:
            for batch in encoded.iter_batches(batch_format="numpy", batch_size=None):
                vectors = np.asarray(batch["vector"], dtype=np.float32)
                if out is None:
                    out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
                out[batch["row"]] = vectors  # rows come back in any order; each goes to its own place
                self.last_run = (str(batch["backend"][0]), str(batch["precision"][0]))
                done += len(vectors)
                bar.update(len(vectors))
                if report:
                    report(done, len(texts))
        if done != len(texts):
            raise AspectNavError(f"Ray returned {done} vectors for {len(texts)} texts.")
        return out
