"""Cheap, stable identity of a model directory: what spaces use as the encoder half of their cache key.

Small files (configs, tokenizer, head.json) are hashed whole. Weight files are hashed by size plus
three 1 MiB samples (start, middle, end): retraining changes bytes everywhere, and hashing 420 MB of
mpnet weights on every app start would cost a second. No torch import, so the app can check a
shipped space's key without loading a model.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

SAMPLE_BYTES = 1 << 20
WHOLE_FILE_LIMIT = 8 << 20
_SKIPPED = {".gitattributes", "README.md"}


def directory_fingerprint(directory: Path) -> str:
    digest = hashlib.sha256()
    directory = Path(directory)
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        relative = path.relative_to(directory).as_posix()
        if path.name in _SKIPPED or any(part.startswith(".") for part in path.relative_to(directory).parts):
            continue
        digest.update(relative.encode() + b"\0")
        digest.update(_file_digest(path))
    return digest.hexdigest()[:16]


def _file_digest(path: Path) -> bytes:
    size = path.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with path.open("rb") as handle:
        if size <= WHOLE_FILE_LIMIT:
            digest.update(handle.read())
        else:
            for offset in (0, size // 2, size - SAMPLE_BYTES):
                handle.seek(offset)
                digest.update(handle.read(SAMPLE_BYTES))
    return digest.digest()
