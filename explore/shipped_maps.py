"""Shipped maps: the base t-SNE coordinates of the default Maps page for the shipped spaces (and the UMAP ones of
the default pair), stored small (float16, 40 KB a map of 10,033 points) under assets/maps/<corpus>/ and verified
before use, in the spirit of the shipped spaces.

One manifest per projection (`manifest.json` for t-SNE, `manifest-umap.json` for UMAP, whose files are named
`umap-<space>.npy`) records, per space, the map key (`explore.maps.projection_key`: corpus, space, corpus
content hash, encoder fingerprint, backend and precision), and for the whole corpus the sample (its key, size and random
state) and the projection's parameters; per file its sha256, shape and dtype. A projection is used only when
all of them match what the page asks for and the file's bytes hash to the recorded sha256. A file or
manifest that is damaged or edited is logged and ignored: the map is computed as if nothing were
shipped. scripts/build_vital_maps.py regenerates them.
"""
from __future__ import annotations

import hashlib
import io
import json
import logging
from dataclasses import asdict
from pathlib import Path

import numpy as np

from explore.settings import ASSETS_DIR

log = logging.getLogger(__name__)

SHIPPED_MAPS_DIR = ASSETS_DIR / "maps"
MANIFEST_FILE = "manifest.json"  # t-SNE's (the first shipped); another projection's is manifest-<projection>.json
FORMAT_VERSION = 1
STORED_DTYPE = "float16"  # t-SNE coordinates span ±60: 0.03 at worst, far below a marker's size


def shipped_projection(space_key: str, sample, params, root: Path | None = None) -> tuple[np.ndarray, str] | None:
    """The verified shipped (coordinates, method) of `sample` in the space `space_key` under `params`, or None
    (none shipped for them, or a damaged one: logged)."""
    root = Path(root) if root is not None else SHIPPED_MAPS_DIR
    for manifest_path in sorted(root.glob("*/manifest*.json")) if root.is_dir() else ():
        manifest = _read_manifest(manifest_path)
        if manifest is None or not _same_sample_and_params(manifest, sample, params):
            continue
        for name, entry in manifest["maps"].items():
            if isinstance(entry, dict) and entry.get("space_key") == space_key:
                return _read_coordinates(manifest_path.parent, name, entry, len(sample.base))
    return None


def _read_manifest(path: Path) -> dict | None:
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        log.warning("Shipped maps manifest %s is unreadable (%s: %s): maps are computed instead.", path,
                    error.__class__.__name__, error)
        return None
    if not isinstance(manifest, dict) or manifest.get("format_version") != FORMAT_VERSION or \
            not isinstance(manifest.get("maps"), dict) or not isinstance(manifest.get("sample"), dict):
        log.warning("Shipped maps manifest %s is not of format %d: maps are computed instead.", path, FORMAT_VERSION)
        return None
    return manifest


def _same_sample_and_params(manifest: dict, sample, params) -> bool:
    shipped = manifest["sample"]
    return (shipped.get("key") == sample.key and shipped.get("size") == len(sample.base)
            and manifest.get("params") == asdict(params))


def _read_coordinates(directory: Path, name: str, entry: dict, rows: int) -> tuple[np.ndarray, str] | None:
    path = directory / str(entry.get("file", ""))
    try:
        raw = path.read_bytes()
        if hashlib.sha256(raw).hexdigest() != entry.get("sha256"):
            raise ValueError("its sha256 does not match the manifest's (damaged or edited)")
        coords = np.load(io.BytesIO(raw), allow_pickle=False)
        if coords.shape != (rows, 2) or str(coords.dtype) != entry.get("dtype"):
            raise ValueError(f"it holds {coords.shape} {coords.dtype} for {rows} sampled rows")
        coords = coords.astype(np.float32)
        if not np.isfinite(coords).all():
            raise ValueError("it holds non-finite coordinates")
    except (OSError, ValueError, EOFError) as error:
        log.warning("Shipped map of %r (%s) is unusable: %s. Computing the map instead.", name, path, error)
        return None
    return coords, str(entry.get("method", ""))


def manifest_name(projection: str = "tsne") -> str:
    return MANIFEST_FILE if projection == "tsne" else f"manifest-{projection}.json"


def write_shipped_maps(directory: Path, corpus_name: str, sample, sample_random_state: int, params,
                       maps: dict[str, tuple[str, np.ndarray, str]], projection: str = "tsne") -> Path:
    """Write `maps` ({space name: (space key, base coordinates, method)}) of one `projection` and their manifest
    into `directory` (replacing that projection's files, leaving the others'); the same inputs give the same
    bytes."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    prefix = "" if projection == "tsne" else f"{projection}-"
    for old in directory.glob("*.npy"):
        if old.name.startswith(prefix) and (prefix or "-" not in old.name):
            old.unlink()
    entries = {}
    for name, (space_key, coords, method) in sorted(maps.items()):
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(coords).astype(STORED_DTYPE), allow_pickle=False)
        (directory / f"{prefix}{name}.npy").write_bytes(buffer.getvalue())
        entries[name] = {"space_key": space_key, "file": f"{prefix}{name}.npy",
                         "sha256": hashlib.sha256(buffer.getvalue()).hexdigest(), "shape": [len(coords), 2],
                         "dtype": STORED_DTYPE, "method": method}
    manifest = {"format_version": FORMAT_VERSION, "corpus": corpus_name,
                "sample": {"key": sample.key, "size": len(sample.base), "random_state": sample_random_state},
                "params": asdict(params), "maps": entries}
    path = directory / manifest_name(projection)
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return path
