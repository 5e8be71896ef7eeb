"""Save and load spaces: fp16 embeddings (`embeddings.npy`) + `manifest.json`, verified on load.

The manifest (sealed by its own checksum, explore/json_seal.py) records the cache key (corpus content hash + encoder fingerprint + text recipe) and
the embeddings file's sha256, shape and dtype. `load_space` raises `SpaceUnusable` saying why when
the space is stale (key differs) or corrupt (hash, shape or JSON wrong, file truncated); the
registry then rebuilds it. A space saved with its head in `encoder/` (a shipped head space) also
records each head file's sha256 (`encoder_files`), checked before anything loads the head.
fp16 halves the files (10k x 384 = 7.7 MB) at cosine error ~1e-4. A full-mode space (its vectors written by a
fine-tuned encoder, `trained: full`) can ship them as int8 (each row scaled to ±127; unit rows, so loading needs no
scale: it renormalises) beside the encoder that places free text: that fine-tuned encoder as a low-rank weight delta
of MiniLM (training/weight_delta.py), or a head or last layer distilled onto the vectors.
"""
from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import numpy as np

from explore.atomic_files import file_written_atomically, staging_directory_for, swap_directory_into_place
from explore.corpus.model import Corpus
from explore.encoders.encode_engine import LOCAL_ENGINE, EngineRecord
from explore.errors import AspectNavError
from explore.json_seal import SEAL_KEY, seal_problem, sealed
from explore.spaces.article_text import TEXT_RECIPE
from explore.spaces.quantized_index import quantized_rows
from explore.spaces.space import Space
from explore.spaces.vector_index import IndexKind, SearchPlan, file_sha256

FORMAT_VERSION = 1
MANIFEST_FILE = "manifest.json"
EMBEDDINGS_FILE = "embeddings.npy"
ENCODER_DIR = "encoder"  # a projection head copied in beside the manifest (shipped head spaces)
TRAINING_RECORD_FILE = "training.json"  # written by the training module; travels with the space when saved elsewhere
TRAINING_RECORD_KEY = "training_record"  # the sealed envelope's one key beside the checksum
STORED_DTYPE = "float16"
STORED_DTYPES = ("float16", "int8")  # int8: 3.9 MB for 10k x 384, nn@10 overlap with fp32 measured when shipped
TRAINING_MODES = ("head", "full")  # the manifest's `trained`: how the stored vectors were made
# From this many rows a space's vectors are memory-mapped instead of read into float32 (explore/spaces/space.py
# casts the rows a query touches); below it, as before: exact search wants the whole float32 matrix.
MEMORY_MAPPED_FROM = 200_000
_MANIFEST_KEYS = frozenset({"format_version", "name", "kind", "aspects", "encoder", "encoder_fingerprint", "encoder_files",
                            "precision", "backend", "corpus", "corpus_hash", "text_recipe", "search", "embeddings",
                            "created", "encode_seconds", "trained", "engine"})


class SpaceUnusable(Exception):
    """A stored space cannot answer for this corpus; `stale` tells outdated from damaged."""

    def __init__(self, reason: str, stale: bool):
        self.reason = reason
        self.stale = stale
        super().__init__(reason)


def save_space(space: Space, directory: Path, encoder_spec: str | None = None, encoder_dir: Path | None = None,
               with_embeddings: bool = True, stored_dtype: str = STORED_DTYPE, trained: str | None = None) -> Path:
    """Write `space` into `directory` atomically (readers never see half a space). `encoder_dir`
    (a projection head) is copied in as `encoder/` so a shipped head space is self-contained.
    Without embeddings, the manifest says how to derive them (a head projects its base space in
    well under a second), which keeps many trained spaces inside the shipped-assets budget.
    `trained="full"` with `encoder_dir`: the embeddings are a fine-tuned encoder's and `encoder_dir` only places free
    text (a weight delta, a distilled head or layer); they are stored, `stored_dtype` int8 keeps five such spaces
    inside the budget."""
    if stored_dtype not in STORED_DTYPES:
        raise ValueError(f"stored_dtype {stored_dtype!r}: use one of {', '.join(STORED_DTYPES)}")
    if trained is not None and trained not in TRAINING_MODES:
        raise ValueError(f"trained {trained!r}: use one of {', '.join(TRAINING_MODES)}")
    directory = Path(directory)
    staging = staging_directory_for(directory)
    try:
        if encoder_dir is not None:
            shutil.copytree(encoder_dir, staging / ENCODER_DIR)
        if space.directory_:  # shipping a trained space keeps its split, seed and metrics
            copy_training_record(Path(space.directory_), staging)
        stored = quantized_rows(space.embeddings_) if stored_dtype == "int8" else space.embeddings_.astype(STORED_DTYPE)
        if with_embeddings:
            np.save(staging / EMBEDDINGS_FILE, stored, allow_pickle=False)
            digest = file_sha256(staging / EMBEDDINGS_FILE)
        else:  # the digest of what the file would hold: a regenerated head can be checked bit for bit
            buffer = io.BytesIO()
            np.save(buffer, stored, allow_pickle=False)
            digest = hashlib.sha256(buffer.getbuffer()).hexdigest()
        manifest = sealed({
            "format_version": FORMAT_VERSION,
            "name": space.name,
            "kind": space.kind,
            "aspects": list(space.aspects),
            "encoder": encoder_spec or space.encoder,
            "encoder_fingerprint": space.encoder_fingerprint_,
            **({"encoder_files": _file_digests(staging / ENCODER_DIR)} if encoder_dir is not None else {}),
            "precision": space.precision_,
            "backend": getattr(space, "backend_", "torch"),
            "engine": getattr(space, "engine_", LOCAL_ENGINE).as_dict(),
            "corpus": space.corpus_name_,
            "corpus_hash": space.corpus_hash_,
            "text_recipe": space.text_recipe_,
            "search": space.search_.as_dict(),  # vector_index.SearchPlan: its index kind is kept on load, the size decides the rest
            "embeddings": {
                "file": EMBEDDINGS_FILE if with_embeddings else None,
                "sha256": digest,
                "shape": list(stored.shape),
                "dtype": stored_dtype,
            },
            "created": space.created_,
            "encode_seconds": space.encode_seconds_,
            **({"trained": trained} if trained else {}),
        })
        (staging / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2))
        swap_directory_into_place(staging, directory)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return directory


def training_mode(directory: Path, manifest: dict) -> str | None:
    """How a stored space's vectors were made: `full` (a fine-tuned encoder), `head` (a projection head on the generic
    space), or None (no training: generic). The manifest says so for a shipped full space; otherwise the training
    record beside it does."""
    if manifest.get("trained"):
        return manifest["trained"]
    try:
        return (read_training_record(directory).get("config") or {}).get("mode")
    except AspectNavError:
        return None


def _file_digests(directory: Path) -> dict[str, str]:
    return {p.relative_to(directory).as_posix(): file_sha256(p) for p in sorted(directory.rglob("*")) if p.is_file()}


def check_encoder_files(directory: Path, manifest: dict) -> None:
    """Raise `SpaceUnusable` when a head file the manifest lists is missing or not the one it
    recorded: an edited head would silently answer with other vectors, a truncated one cannot load."""
    for relative, expected in (manifest.get("encoder_files") or {}).items():
        path = Path(directory) / ENCODER_DIR / relative
        if not path.is_file():
            raise SpaceUnusable(f"{path} is missing", stale=False)
        actual = file_sha256(path)
        if actual != expected:
            raise SpaceUnusable(f"{path} has sha256 {actual[:12]}…, its manifest expects {expected[:12]}…",
                                stale=False)


def check_embeddings_file(directory: Path, manifest: dict) -> None:
    """Raise `SpaceUnusable` when the stored embeddings file is missing or not the one the manifest recorded (read in
    blocks: what `spaces list` checks without loading the vectors)."""
    entry = manifest["embeddings"]
    path = Path(directory) / str(entry.get("file") or EMBEDDINGS_FILE)
    if not path.is_file():
        raise SpaceUnusable(f"{path} is missing", stale=False)
    actual = file_sha256(path)
    if actual != entry.get("sha256"):
        raise SpaceUnusable(f"{path} has sha256 {actual[:12]}…, its manifest expects {str(entry.get('sha256'))[:12]}…",
                            stale=False)


def copy_training_record(source: Path, target: Path) -> None:
    """Carry the training module's record from one copy of a space to another, when there is one."""
    record = Path(source) / TRAINING_RECORD_FILE
    if record.is_file() and record.resolve() != (Path(target) / TRAINING_RECORD_FILE).resolve():
        shutil.copy2(record, Path(target) / TRAINING_RECORD_FILE)


def training_record_file(record: dict) -> str:
    """The text of `training.json`: the record inside an envelope sealed by its checksum (explore/json_seal.py),
    so a flipped bit in the split fingerprint or the objective cannot pass for the record training wrote."""
    return json.dumps(sealed({TRAINING_RECORD_KEY: record}), indent=2, default=float)


def read_training_record(directory: Path | None) -> dict:
    """The training module's record beside a space ({} for a space training did not make). A damaged one raises
    AspectNavError, as a damaged manifest makes a space unusable: `training evaluate` trusts its split."""
    path = Path(directory or ".") / TRAINING_RECORD_FILE
    if not path.is_file():
        return {}
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        problem = f"it cannot be read ({exc.__class__.__name__}: {exc})"
    else:
        problem = _training_record_problem(record)
    if problem:
        raise AspectNavError(f"Space {path.parent.name!r}: {TRAINING_RECORD_FILE} is damaged: {problem}. Train the "
                             "space again, or delete that file to use the space without its training record.")
    return record.get(TRAINING_RECORD_KEY, record)


def _training_record_problem(record) -> str | None:
    if not isinstance(record, dict):
        return "it is not a JSON object"
    if not set(record) & {TRAINING_RECORD_KEY, SEAL_KEY}:
        return None  # written before records were sealed: its keys are the record's own
    # A flip in either envelope key leaves an unknown key; a record with one of the two and not the other is damaged.
    problem = seal_problem(record, frozenset({TRAINING_RECORD_KEY}))
    if problem is None and not {TRAINING_RECORD_KEY, SEAL_KEY} <= set(record):
        problem = "it lacks its record or its checksum"
    if problem is None and not isinstance(record[TRAINING_RECORD_KEY], dict):
        problem = "its record is not a JSON object"
    return problem


def record_search(directory: Path, plan: SearchPlan) -> None:
    """Rewrite a stored space's manifest with another search plan (`spaces build --index`), resealed and atomically:
    the vectors stay as they are, the space opens with that index from then on."""
    manifest = {key: value for key, value in read_manifest(directory).items() if key != SEAL_KEY}
    with file_written_atomically(Path(directory) / MANIFEST_FILE) as staging:
        staging.write_text(json.dumps(sealed({**manifest, "search": plan.as_dict()}), indent=2))


def read_manifest(directory: Path) -> dict:
    try:
        manifest = json.loads((Path(directory) / MANIFEST_FILE).read_text())
    except (OSError, ValueError) as exc:
        raise SpaceUnusable(f"manifest unreadable ({exc.__class__.__name__}: {exc})", stale=False) from exc
    # a flipped byte in the manifest would otherwise rename the space or change what it says it was built from
    problem = seal_problem(manifest, _MANIFEST_KEYS) if isinstance(manifest, dict) else "it is not a JSON object"
    if problem:
        raise SpaceUnusable(f"{MANIFEST_FILE} is damaged: {problem}", stale=False)
    required = ("format_version", "name", "kind", "encoder", "encoder_fingerprint", "corpus_hash", "embeddings")
    missing = [key for key in required if key not in manifest] if isinstance(manifest, dict) else list(required)
    if missing:
        raise SpaceUnusable(f"manifest lacks {', '.join(missing)}", stale=False)
    if manifest["format_version"] != FORMAT_VERSION:
        raise SpaceUnusable(f"manifest format {manifest['format_version']}, expected {FORMAT_VERSION}", stale=True)
    return manifest


def load_space(directory: Path, corpus: Corpus, check_encoder: bool = True) -> Space:
    """Load and verify a saved space against `corpus`; raise `SpaceUnusable` with the reason."""
    directory = Path(directory)
    manifest = read_manifest(directory)
    if manifest["corpus_hash"] != corpus.content_hash:
        raise SpaceUnusable(f"built for corpus hash {manifest['corpus_hash']}, corpus is now {corpus.content_hash}",
                            stale=True)
    if manifest.get("text_recipe") != TEXT_RECIPE:
        raise SpaceUnusable(f"text recipe {manifest.get('text_recipe')!r} is not {TEXT_RECIPE!r}", stale=True)
    try:
        space = Space(manifest["name"], manifest["kind"], manifest["encoder"], tuple(manifest.get("aspects") or ()))
        engine = EngineRecord.from_dict(manifest.get("engine"))  # from before engines were recorded: local
    except AspectNavError as exc:
        raise SpaceUnusable(str(exc), stale=False) from exc
    space.directory_ = directory
    if check_encoder:
        try:
            fingerprint = space.load_encoder().fingerprint
        except AspectNavError:
            fingerprint = None  # encoder not installed: the vectors still answer article seeds
        if fingerprint is not None and fingerprint != manifest["encoder_fingerprint"]:
            raise SpaceUnusable(f"encoder {manifest['encoder']} changed (fingerprint {fingerprint}, "
                                f"space built with {manifest['encoder_fingerprint']})", stale=True)
    embeddings = _read_embeddings(directory, manifest["embeddings"], len(corpus))
    return space._set_state(
        embeddings=embeddings, corpus_name=manifest.get("corpus", corpus.name), corpus_hash=manifest["corpus_hash"],
        encoder_fingerprint=manifest["encoder_fingerprint"], precision=manifest.get("precision", "fp32"),
        backend=manifest.get("backend", "torch"),  # manifests from before backends were recorded: torch
        engine=engine,
        created=manifest.get("created", ""), encode_seconds=manifest.get("encode_seconds", 0.0),
        text_recipe=manifest["text_recipe"], index_kind=IndexKind.recorded(manifest.get("search")),
    )


def _read_embeddings(directory: Path, entry: dict, rows: int) -> np.ndarray:
    path = directory / str(entry.get("file", EMBEDDINGS_FILE))
    if rows >= MEMORY_MAPPED_FROM:
        return _mapped_embeddings(path, entry, rows)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SpaceUnusable(f"embeddings unreadable ({exc})", stale=False) from exc
    if hashlib.sha256(raw).hexdigest() != entry.get("sha256"):
        raise SpaceUnusable(f"{path.name} does not match its sha256 (damaged or edited)", stale=False)
    try:
        stored = np.load(io.BytesIO(raw), allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise SpaceUnusable(f"{path.name} unreadable ({exc})", stale=False) from exc
    _check_shape(path, stored, entry, rows)
    embeddings = stored.astype(np.float32)
    if not np.isfinite(embeddings).all():
        raise SpaceUnusable(f"{path.name} holds non-finite values", stale=False)
    # fp16 storage leaves norms at 1 +- 1e-3; renormalise so scores are exact cosines.
    embeddings /= np.maximum(np.linalg.norm(embeddings, axis=1, keepdims=True), 1e-12)
    return embeddings


def _check_shape(path: Path, stored: np.ndarray, entry: dict, rows: int) -> None:
    """The stored vectors are what the manifest says, one row per article (else the space is rebuilt)."""
    if stored.ndim != 2 or list(stored.shape) != list(entry.get("shape", [])) or str(stored.dtype) != entry.get("dtype"):
        raise SpaceUnusable(f"{path.name} has shape {stored.shape} {stored.dtype}, manifest says "
                            f"{entry.get('shape')} {entry.get('dtype')}", stale=False)
    if stored.shape[0] != rows:
        raise SpaceUnusable(f"{stored.shape[0]} rows for {rows} articles", stale=True)


def _mapped_embeddings(path: Path, entry: dict, rows: int) -> np.ndarray:
    """The stored fp16 vectors memory-mapped, as stored (norms 1 +- 1e-3, so scores are cosines to ~1e-3):
    a million rows would otherwise cost 1.5 GB of float32 in every process. The sha256 is read through in
    blocks, never the whole file at once."""
    try:
        if file_sha256(path) != entry.get("sha256"):
            raise SpaceUnusable(f"{path.name} does not match its sha256 (damaged or edited)", stale=False)
        stored = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise SpaceUnusable(f"{path.name} unreadable ({exc})", stale=False) from exc
    _check_shape(path, stored, entry, rows)
    return stored
