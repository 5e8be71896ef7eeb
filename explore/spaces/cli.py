"""`python -m explore spaces list|build`."""
from __future__ import annotations

import argparse
import os
import time

from explore.encoders.backend import BACKEND_ENV, EncoderBackend
from explore.encoders.backend import choices as backend_choices
from explore.encoders.precision import PRECISION_ENV, Precision
from explore.encoders.precision import choices as precision_choices
from explore.encoders.encode_engine import (DEFAULT_ACTOR_START_TIMEOUT_S, DEFAULT_CLIENT_PORT, DEFAULT_GCS_PORT,
                                           EncodeEngine, RayAddress, RayEngineConfig)
from explore.names import name_argument
from explore.spaces.vector_index import IndexKind


def register(subparsers: argparse._SubParsersAction) -> None:
    spaces = subparsers.add_parser("spaces", help="list and build embedding spaces")
    commands = spaces.add_subparsers(dest="spaces_command", required=True)

    listing = commands.add_parser("list", help="the spaces of a corpus and where each comes from")
    listing.add_argument("--corpus", default="vital")
    listing.set_defaults(func=_list)

    build = commands.add_parser("build", help="build (or verify) a space; --ship copies it into assets/")
    build.add_argument("--corpus", default="vital", type=name_argument("corpus"))
    build.add_argument("--name", default="generic", type=name_argument("space"), help="space name (an aspect space is named after its aspect)")
    build.add_argument("--kind", choices=["generic", "aspect", "union", "intersection"],
                       help="default: generic for 'generic', else aspect")
    build.add_argument("--encoder", help="encoder spec: minilm | mpnet | dir:/path | a head directory")
    build.add_argument("--aspects", default="", help="comma-separated aspects a union/intersection space combines")
    build.add_argument("--force", action="store_true", help="re-encode even if a valid space is stored")
    build.add_argument("--ship", action="store_true", help="also write it under assets/spaces/<corpus>/ (fp16)")
    build.add_argument("--backend", choices=backend_choices(), default=None,
                       help="what runs the encoder (default auto: the fastest installed backend whose vectors match "
                            "fp32, measured once per machine); openvino: pip install openvino; onnx: pip install "
                            "-e '.[onnx]'. Giving it re-encodes the space")
    build.add_argument("--precision", choices=precision_choices(), default=None,
                       help="compute precision (default auto: bf16 where the CPU or GPU has it natively and the "
                            "vectors match fp32); int8 only on request (onnx), its nn@10 overlap with fp32 is printed. "
                            "Giving it re-encodes the space")
    build.add_argument("--engine", choices=[str(e) for e in EncodeEngine], default=None,
                       help="what runs the encode: local (default, this process) or ray (Ray Data over an actor pool "
                            "on a Ray cluster; pip install -e '.[ray]'). Giving it re-encodes the space")
    build.add_argument("--address", default=None,
                       help="with --engine ray: the cluster (auto: the one this machine joined with `ray start`; "
                            "HOST[:PORT]: a head's GCS address, from a cluster node; ray://HOST[:PORT]: through the "
                            "Ray client, from anywhere that reaches the head); default: a local Ray started for "
                            "this build")
    build.add_argument("--port", type=int, default=None,
                       help=f"with --address HOST or ray://HOST: the head's port (default {DEFAULT_CLIENT_PORT} for "
                            f"ray://, the head's --ray-client-server-port; {DEFAULT_GCS_PORT} for a GCS address)")
    build.add_argument("--actors", "--workers", dest="actors", type=int, default=None,
                       help="with --engine ray: encoder actors (default: one per GPU, else one per two CPUs)")
    build.add_argument("--actor-start-timeout", type=float, default=None, metavar="SECONDS",
                       help=f"with --engine ray: fail with a message when the actors have not started within this "
                            f"(default {DEFAULT_ACTOR_START_TIMEOUT_S:g} s; a cluster short of CPUs or GPUs would "
                            f"otherwise wait for ever)")
    build.add_argument("--index", choices=[str(kind) for kind in IndexKind], default=None,
                       help="the index that serves a space of 50,000 rows or more, kept in its manifest (default auto: "
                            "ivfpq from 1,000,000 rows, below that hnsw, its parameters by size); ivfpq: faiss IVF-PQ, "
                            "58 bytes a row, memory-mapped, the top 100 rescored from the stored vectors (recall@10 "
                            "0.992 at 1M); quantized: usearch over int8 rows, memory-mapped, a third of hnswlib's "
                            "memory (recall@10 0.996 at 100k rows, 0.746 at 1M). Giving it builds that index now")
    build.set_defaults(func=_build)


def _list(args) -> int:
    from explore.corpus import open_corpus
    from explore.spaces import spaces_for

    registry = spaces_for(open_corpus(args.corpus))
    for name in registry.names():
        rows = []
        for where, directory, manifest in registry.stored(name):
            shape = "x".join(map(str, manifest["embeddings"]["shape"]))
            damage = registry.damage(name, directory)
            fresh = (f"DAMAGED, left out of Explore: {damage}" if damage else
                     "current" if manifest["corpus_hash"] == registry.corpus.content_hash else "stale corpus")
            rows.append(f"{where}: {manifest['kind']}, {trained_words(directory, manifest)}encoder "
                        f"{manifest['encoder']}, {shape}{_stored_as(manifest)}{_encoded_on(manifest)}, {fresh}")
        print(f"{name:<14} " + ("; ".join(rows) if rows else "default, not built yet (built on first use)"))
    return 0


def _stored_as(manifest: dict) -> str:
    """Say a dtype other than fp16 (what every other space stores): " int8"."""
    dtype = manifest["embeddings"].get("dtype", "float16")
    return "" if dtype == "float16" else f" {dtype}"


def _encoded_on(manifest: dict) -> str:
    """Say an engine other than local (what encodes every space unless asked): ", encoded on ray (…)"."""
    from explore.encoders.encode_engine import EncodeEngine, EngineRecord
    from explore.errors import AspectNavError

    try:
        record = EngineRecord.from_dict(manifest.get("engine"))
    except AspectNavError as exc:
        return f", {exc}"
    return "" if record.engine is EncodeEngine.LOCAL else f", encoded on {record}"


def trained_words(directory, manifest: dict) -> str:
    """How a stored space was trained, as `spaces list` says it ("" for the generic space)."""
    from explore.encoders.spec import DELTA_CONFIG, LAYER_CONFIG
    from explore.spaces.store import training_mode

    mode = training_mode(directory, manifest)
    if mode == "full":
        files = manifest.get("encoder_files") or {}
        free_text = ("its fine-tuned encoder as a low-rank weight delta" if DELTA_CONFIG in files
                     else "distilled last layer" if LAYER_CONFIG in files else "distilled head" if files
                     else "its fine-tuned encoder")
        return f"trained full (fine-tuned encoder's vectors; free text: {free_text}), "
    return "trained head (projection of generic), " if mode == "head" else ""


def _build(args) -> int:
    from explore.corpus import open_corpus
    from explore.spaces import SpaceDefinition, spaces_for
    from explore.spaces.registry import DEFAULT_SPACES

    _use_encoder_settings(args.backend, args.precision)
    engine = _engine(args)
    registry = spaces_for(open_corpus(args.corpus))
    registry.engine = engine
    start = time.perf_counter()
    asked_compute = args.backend is not None or args.precision is not None or args.engine is not None
    if args.encoder or args.force or asked_compute or args.name not in registry.names():
        known = DEFAULT_SPACES.get(args.name)
        kind = args.kind or (known.kind if known else "aspect")
        encoder = args.encoder or (known.encoder if known else registry.definition(args.name).encoder)
        aspects = tuple(a.strip() for a in args.aspects.split(",") if a.strip())
        space = registry.build(SpaceDefinition(args.name, kind, encoder, aspects))
    else:
        space = registry.open(args.name)
    if args.index is not None:
        space = registry.use_index(space.name, IndexKind.parse(args.index))
    seconds = time.perf_counter() - start
    print(f"{space.name}: {space.kind}, encoder {space.encoder} ({space.backend_} {space.precision_}), "
          f"{len(space)} x {space.dim}, encoded {_engine_words(space.engine_)}, search {space.search_.method}, "
          f"ready in {seconds:.1f} s -> {space.directory_}")
    if args.ship:
        path = registry.ship(args.name)
        size = sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        print(f"shipped -> {path} ({size / 1e6:.1f} MB)")
    return 0


def _engine_words(record) -> str:
    return "locally" if record.engine is EncodeEngine.LOCAL else f"on {record}"


def _engine(args):
    """None for a local encode; for --engine ray a wrapper that hands the encoder to Ray (Ray checked now)."""
    from explore.errors import AspectNavError

    engine = EncodeEngine.parse(args.engine)
    ray_flags = (args.address, args.port, args.actors, args.actor_start_timeout)
    if engine is EncodeEngine.LOCAL:
        if any(flag is not None for flag in ray_flags):
            raise AspectNavError("--address, --port, --actors and --actor-start-timeout go with --engine ray.")
        return None
    config = RayEngineConfig(RayAddress.parse(args.address, args.port), args.actors,
                             DEFAULT_ACTOR_START_TIMEOUT_S if args.actor_start_timeout is None
                             else args.actor_start_timeout)
    from explore.encoders.ray_encoder import RayEncoder, require_ray

    require_ray()
    return lambda encoder: RayEncoder(encoder, config)


def _use_encoder_settings(backend: str | None, precision: str | None) -> None:
    """Check the flags now (a missing package is an error before any work) and hand them to every
    encoder this process loads, through the environment variables load_encoder reads."""
    if backend is not None:
        parsed = EncoderBackend.parse(backend)
        if parsed is not EncoderBackend.AUTO:
            parsed.require()
        os.environ[BACKEND_ENV] = str(parsed)
    if precision is not None:
        parsed_precision = Precision.parse(precision)
        if parsed_precision is Precision.INT8 and backend in ("torch", "openvino"):
            from explore.errors import AspectNavError

            raise AspectNavError(f"int8 runs on the onnx backend, not {backend}: --backend onnx (or auto).")
        if parsed_precision is Precision.INT8:
            EncoderBackend.ONNX.require()
        os.environ[PRECISION_ENV] = str(parsed_precision)
