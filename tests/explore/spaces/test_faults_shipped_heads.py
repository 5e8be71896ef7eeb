"""Issue #13, item 2: a shipped head that fails its checksum leaves only its own space out.

Runs on a copy of the real shipped vital spaces (generic + three heads): `country` gets one byte
flipped (still loadable, silently different), `occupation` is cut in half (SafetensorError on load).
One data home serves the module, so the healthy head is projected and indexed once (a few seconds).
"""
from __future__ import annotations

import json
import logging
import shutil

import numpy as np
import pytest

from explore.cli import main
from explore.corpus import store_corpus
from explore.encoders import save_head
from explore.errors import AspectNavError
from explore.settings import HOME_ENV
from explore.spaces import Space, SpaceDefinition, SpaceRegistry, save_space
from explore.spaces import registry as registry_module
from explore.spaces.registry import SHIPPED_SPACES_DIR
from explore.spaces.store import MANIFEST_FILE
from explore.spaces.vector_index import file_sha256

COPIED = ("generic", "country", "occupation", "topic")
WEIGHTS = {"country": "encoder/delta.safetensors", "occupation": "encoder/delta.safetensors"}  # full: weight deltas


@pytest.fixture(scope="module")
def damaged_assets(tmp_path_factory):
    root = tmp_path_factory.mktemp("shipped")
    for name in COPIED:
        shutil.copytree(SHIPPED_SPACES_DIR / "vital" / name, root / "vital" / name)
    flipped = root / "vital" / "country" / WEIGHTS["country"]
    data = bytearray(flipped.read_bytes())
    data[-3] ^= 0xFF  # a weight's exponent byte: the file still loads, the projection changes
    flipped.write_bytes(bytes(data))
    cut = root / "vital" / "occupation" / WEIGHTS["occupation"]
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    return root


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory, vital_corpus):
    """One data home for the module, the corpus already stored in it (as after a first run)."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HOME_ENV, str(home))
        store_corpus(vital_corpus)
    return home


@pytest.fixture
def vital_on_copy(damaged_assets, shared_home, monkeypatch, vital_corpus):
    """The engine, the CLI and the app read the damaged copy instead of assets/."""
    monkeypatch.setattr(registry_module, "SHIPPED_SPACES_DIR", damaged_assets)
    monkeypatch.setenv(HOME_ENV, str(shared_home))
    return vital_corpus


def _manifest(root, name):
    return json.loads((root / "vital" / name / MANIFEST_FILE).read_text())


def test_every_shipped_head_records_its_checksum():
    for manifest_path in sorted((SHIPPED_SPACES_DIR / "vital").glob(f"*/{MANIFEST_FILE}")):
        directory = manifest_path.parent
        if not (directory / "encoder").is_dir():
            continue
        recorded = json.loads(manifest_path.read_text()).get("encoder_files")
        assert recorded, f"{manifest_path} records no checksum for its head"
        assert recorded == {p.name: file_sha256(p) for p in sorted((directory / "encoder").iterdir())}


def test_saving_a_head_space_records_the_head_checksum(tmp_path):
    head = save_head(tmp_path / "head", [np.eye(4, dtype=np.float32)], [None], ["identity"], base_encoder="minilm")
    space = Space("occupation", "aspect", f"dir:{head}")
    space._set_state(embeddings=np.eye(4, dtype=np.float32), corpus_name="c", corpus_hash="h",
                     encoder_fingerprint="f", precision="fp32", created="", encode_seconds=0.0, text_recipe="r")
    saved = save_space(space, tmp_path / "shipped" / "occupation", encoder_spec="encoder", encoder_dir=head,
                       with_embeddings=False)
    recorded = json.loads((saved / MANIFEST_FILE).read_text())["encoder_files"]
    assert recorded == {"head.json": file_sha256(head / "head.json"),
                        "head.safetensors": file_sha256(head / "head.safetensors")}


def test_damaged_heads_leave_only_their_spaces_out_with_one_line_each(vital_on_copy, damaged_assets, caplog):
    from explore.neighbours import Neighbourhood

    with caplog.at_level(logging.WARNING):
        engine = Neighbourhood.open(vital_on_copy, progress=False)
    assert sorted(engine.spaces) == ["generic", "topic"]
    for name in ("country", "occupation"):
        lines = [r.getMessage() for r in caplog.records if f"'{name}'" in r.getMessage()]
        assert len(lines) == 1, lines
        expected = _manifest(damaged_assets, name)["encoder_files"][WEIGHTS[name].split("/")[-1]]
        actual = file_sha256(damaged_assets / "vital" / name / WEIGHTS[name])
        script = "build_vital_full_spaces.sh" if _manifest(damaged_assets, name).get("trained") == "full" \
            else "build_vital_spaces.sh"
        assert all(part in lines[0] for part in (WEIGHTS[name], expected[:12], actual[:12], script))
    assert engine.neighbours(engine.resolve_seed("Marie Curie"), "aspect:topic", 3)


@pytest.mark.parametrize("name", ["country", "occupation"])  # flipped byte, truncated
def test_opening_a_damaged_head_directly_is_a_clear_error(vital_on_copy, tmp_path, name):
    registry = SpaceRegistry(vital_on_copy, home=tmp_path / "home", progress=False)
    with pytest.raises(AspectNavError, match=r"encoder/\w+\.safetensors has sha256 .* its manifest expects"):
        registry.open(name)
    assert registry.open("generic").name == "generic"


@pytest.mark.slow  # the generic index of 10k articles is built here (~2 s); the engine test covers open_all
def test_cli_neighbours_still_answers(vital_on_copy, capsys):
    assert main(["neighbours", "Marie Curie", "--kind", "generic", "-k", "3"]) == 0
    assert "Neighbours of Marie Curie" in capsys.readouterr().out
    assert main(["neighbours", "Marie Curie", "--kind", "aspect:country"]) == 2
    assert "Spaces:" in capsys.readouterr().err


def test_app_engine_loads_without_the_damaged_spaces(vital_on_copy):
    import streamlit as st

    from app_views.engine_cache import load_engine

    st.cache_resource.clear()
    try:
        engine, problem = load_engine(vital_on_copy)
    finally:
        st.cache_resource.clear()
    assert problem == "" and sorted(engine.spaces) == ["generic", "topic"]


@pytest.mark.slow  # projects and indexes 10k articles twice (~3 s)
def test_a_space_built_from_another_head_replaces_a_damaged_shipped_one(vital_corpus, tmp_path, caplog):
    """What the log line's second fix does for a head space: train again (here: the pristine head), build, ship."""
    shipped = tmp_path / "shipped"
    for name in ("generic", "topic"):
        shutil.copytree(SHIPPED_SPACES_DIR / "vital" / name, shipped / name)
    (shipped / "topic" / "encoder" / "head.safetensors").write_bytes(b"")
    trained = shutil.copytree(SHIPPED_SPACES_DIR / "vital" / "topic" / "encoder", tmp_path / "trained")
    registry = SpaceRegistry(vital_corpus, home=tmp_path / "home", shipped=shipped, progress=False)
    registry.build(SpaceDefinition("topic", "aspect", str(trained), ("topic",)))
    registry.ship("topic")
    with caplog.at_level(logging.WARNING):
        again = SpaceRegistry(vital_corpus, home=tmp_path / "fresh-home", shipped=shipped, progress=False)
        assert again.open("topic").embeddings_.shape == (len(vital_corpus), 384)
    assert not caplog.records


def test_spaces_list_calls_a_damaged_head_damaged_not_current(vital_on_copy, capsys):
    """Issue #25 item 9: `spaces list` said "current" for a space Explore leaves out."""
    assert main(["spaces", "list"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    for name in ("country", "occupation"):
        assert "DAMAGED, left out of Explore" in rows[name] and "current" not in rows[name]
    assert "current" in rows["topic"]


def test_the_engine_says_which_spaces_it_left_out(vital_on_copy):
    from explore.neighbours import Neighbourhood

    engine = Neighbourhood.open(vital_on_copy, progress=False)
    assert sorted(engine.left_out) == ["country", "occupation"]
