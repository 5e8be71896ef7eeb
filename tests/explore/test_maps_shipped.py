"""Issue #14: shipped maps are used only when space, sample, parameters and checksum all match; a damaged
or edited one is logged and the map computed instead; the shipped files agree with the shipped spaces."""
from __future__ import annotations

import json
import logging
from dataclasses import asdict, replace

import numpy as np
import pytest

from explore import maps, shipped_maps
from explore.map_umap import UmapParams
from explore.maps import DEFAULT_SAMPLE, ProjectionParams, projection, select_sample
from explore.settings import ASSETS_DIR
from explore.shipped_maps import (MANIFEST_FILE, SHIPPED_MAPS_DIR, manifest_name, shipped_projection,
                                  write_shipped_maps)

PARAMS = ProjectionParams()
KEY = "toy/generic/hash0/fp0"


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A shipped-maps root with one toy corpus's map of a 40-row sample; t-SNE counted and instant."""
    vectors = np.random.default_rng(0).normal(size=(50, 4)).astype(np.float32)
    sample = select_sample(50, 40)
    coords = np.random.default_rng(1).uniform(-50, 50, size=(40, 2))
    write_shipped_maps(tmp_path / "toy", "toy", sample, 0, PARAMS, {"generic": (KEY, coords, "openTSNE")})
    monkeypatch.setattr(shipped_maps, "SHIPPED_MAPS_DIR", tmp_path)
    calls = []

    def counted(vectors, params, **_):
        calls.append(len(vectors))
        return np.asarray(vectors[:, :2], dtype=np.float32), "stub"

    monkeypatch.setattr(maps, "tsne", counted)
    return {"root": tmp_path / "toy", "vectors": vectors, "sample": sample, "coords": coords, "calls": calls}


def test_a_matching_shipped_map_is_used_without_computing(shipped):
    found = projection(KEY, shipped["vectors"], shipped["sample"], PARAMS)
    assert found.source == "shipped" and found.method == "openTSNE" and shipped["calls"] == []
    assert np.allclose(found.coords[:40], shipped["coords"], atol=0.05)  # float16: ±0.03 at 50


@pytest.mark.parametrize("ask", [
    {"key": "toy/generic/hash1/fp0"},  # another corpus content (or encoder): another space key
    {"params": replace(PARAMS, n_iter=500)},
    {"sample": select_sample(50, 40, random_state=1)},
    {"sample": select_sample(50, 30)},
], ids=["space", "params", "sample-seed", "sample-size"])
def test_a_shipped_map_for_anything_else_is_not_used(shipped, caplog, ask):
    with caplog.at_level(logging.WARNING):
        found = projection(ask.get("key", KEY), shipped["vectors"], ask.get("sample", shipped["sample"]),
                           ask.get("params", PARAMS))
    assert found.source == "computed" and len(shipped["calls"]) == 1 and not caplog.records  # not a fault


def _flip(path):
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01  # one bit of one coordinate
    path.write_bytes(bytes(data))


def _truncate(path):
    path.write_bytes(path.read_bytes()[:100])


def _edit_manifest(key, value):
    def edit(root):
        manifest = json.loads((root / MANIFEST_FILE).read_text())
        manifest["maps"]["generic"][key] = value
        (root / MANIFEST_FILE).write_text(json.dumps(manifest))
    return edit


FAULTS = {
    "flipped-bit": lambda root: _flip(root / "generic.npy"),
    "truncated": lambda root: _truncate(root / "generic.npy"),
    "missing-file": lambda root: (root / "generic.npy").unlink(),
    "manifest-sha256": _edit_manifest("sha256", "0" * 64),
    "manifest-dtype": _edit_manifest("dtype", "float32"),
    "manifest-garbage": lambda root: (root / MANIFEST_FILE).write_text("{not json"),
    "manifest-format": lambda root: (root / MANIFEST_FILE).write_text(json.dumps({"format_version": 99})),
}


@pytest.mark.parametrize("fault", FAULTS, ids=list(FAULTS))
def test_a_damaged_shipped_map_is_logged_and_the_map_computed_and_cached(shipped, caplog, fault):
    FAULTS[fault](shipped["root"])
    with caplog.at_level(logging.WARNING, logger="explore.shipped_maps"):
        found = projection(KEY, shipped["vectors"], shipped["sample"], PARAMS)
    assert found.source == "computed" and shipped["calls"] == [40] and found.coords.shape == (40, 2)
    assert len(caplog.records) == 1 and "instead" in caplog.records[0].getMessage()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="explore.shipped_maps"):
        again = projection(KEY, shipped["vectors"], shipped["sample"], PARAMS)
    assert again.source == "cache" and shipped["calls"] == [40] and not caplog.records  # logged once, not per rerun


def test_writing_is_deterministic(tmp_path):
    sample = select_sample(50, 40)
    coords = np.random.default_rng(1).normal(size=(40, 2))
    for name in ("one", "two"):
        write_shipped_maps(tmp_path / name, "toy", sample, 0, PARAMS, {"generic": (KEY, coords, "openTSNE")})
    assert all((tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes()
               for f in ("generic.npy", MANIFEST_FILE))
    assert shipped_projection(KEY, sample, PARAMS, root=tmp_path) is not None


def test_the_shipped_vital_maps_verify_and_match_the_shipped_spaces():
    """Every shipped space of vital has a verified map of the page's default sample (the whole corpus, issue #26)
    under today's defaults,
    keyed by that space's corpus hash, encoder fingerprint, backend and precision: retraining a space without regenerating the
    maps (scripts/build_vital_maps.py) fails here, not silently in the app."""
    manifest = json.loads((SHIPPED_MAPS_DIR / "vital" / MANIFEST_FILE).read_text())
    spaces = sorted(p.parent.name for p in (ASSETS_DIR / "spaces" / "vital").glob("*/manifest.json"))
    assert sorted(manifest["maps"]) == spaces and manifest["params"] == asdict(PARAMS)
    for name in spaces:
        space = json.loads((ASSETS_DIR / "spaces" / "vital" / name / "manifest.json").read_text())
        key = (f"vital/{name}/{space['corpus_hash']}/{space['encoder_fingerprint']}/"
               f"{space.get('backend', 'torch')}-{space['precision']}")
        assert manifest["maps"][name]["space_key"] == key
        sample = select_sample(space["embeddings"]["shape"][0], DEFAULT_SAMPLE, random_state=0)
        coords, method = shipped_projection(key, sample, PARAMS)
        assert sample.whole and len(sample.base) == space["embeddings"]["shape"][0] == 10_033  # the whole corpus
        assert coords.shape == (10_033, 2) and method == "openTSNE" and np.ptp(coords, axis=0).min() > 10


def test_a_projection_s_files_leave_the_other_projection_s_alone(tmp_path):
    """t-SNE's maps and UMAP's share a folder, each with its own manifest: writing one keeps the other usable."""
    sample = select_sample(50, 40)
    coords = np.random.default_rng(1).normal(size=(40, 2))
    write_shipped_maps(tmp_path / "toy", "toy", sample, 0, PARAMS, {"generic": (KEY, coords, "openTSNE")})
    write_shipped_maps(tmp_path / "toy", "toy", sample, 0, UmapParams(), {"generic": (KEY, -coords, "UMAP")}, "umap")
    write_shipped_maps(tmp_path / "toy", "toy", sample, 0, PARAMS, {"generic": (KEY, coords, "openTSNE")})
    assert sorted(p.name for p in (tmp_path / "toy").iterdir()) == [
        "generic.npy", manifest_name("umap"), MANIFEST_FILE, "umap-generic.npy"]
    tsne_coords, tsne_method = shipped_projection(KEY, sample, PARAMS, root=tmp_path)
    umap_coords, umap_method = shipped_projection(KEY, sample, UmapParams(), root=tmp_path)
    assert (tsne_method, umap_method) == ("openTSNE", "UMAP")
    assert np.allclose(tsne_coords, coords, atol=0.01) and np.allclose(umap_coords, -coords, atol=0.01)


def test_the_shipped_vital_umap_maps_of_the_default_pair_verify_and_match_the_shipped_spaces():
    """The Maps page's default pair (generic, country) is shipped under UMAP too (issue #37): verified, keyed by the
    spaces as they are, the whole corpus, today's UMAP settings, and kept small (float16, 40 KB a map)."""
    root = SHIPPED_MAPS_DIR / "vital"
    manifest = json.loads((root / manifest_name("umap")).read_text())
    assert sorted(manifest["maps"]) == ["country", "generic"] and manifest["params"] == asdict(UmapParams())
    for name in manifest["maps"]:
        space = json.loads((ASSETS_DIR / "spaces" / "vital" / name / "manifest.json").read_text())
        key = (f"vital/{name}/{space['corpus_hash']}/{space['encoder_fingerprint']}/"
               f"{space.get('backend', 'torch')}-{space['precision']}")
        sample = select_sample(space["embeddings"]["shape"][0], DEFAULT_SAMPLE, random_state=0)
        coords, method = shipped_projection(key, sample, UmapParams())
        assert coords.shape == (10_033, 2) and method == "UMAP" and np.ptp(coords, axis=0).min() > 5
        assert (root / f"umap-{name}.npy").stat().st_size < 50_000
        found = maps.stored_projection(key, sample, UmapParams())
        assert found is not None and found[2] in ("shipped", "cache")
