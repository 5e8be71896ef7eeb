"""Issue #39: a full-mode space ships its fine-tuned encoder's vectors (int8) and the head distilled onto them.

The vectors are what answers a seed, the head only places free text; neither can be rebuilt where the app runs, so
a damaged file leaves the space out with one clear error instead of a silent rebuild through the head.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from explore.cli import main
from explore.encoders import load_encoder, save_head
from explore.errors import AspectNavError
from explore.spaces import Space, SpaceRegistry, save_space
from explore.spaces.registry import SHIPPED_BUDGET_BYTES, SHIPPED_SPACES_DIR
from explore.spaces.store import EMBEDDINGS_FILE, MANIFEST_FILE, load_space, quantized_rows, training_mode
from tests.fixture_corpora import aspect_corpus


def _unit(rows):
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def full_space(tmp_path, minilm):
    """A shipped full-mode space of the tiny corpus: random vectors (standing for a fine-tuned encoder's) and an
    identity head over MiniLM (standing for the distilled one)."""
    corpus = aspect_corpus()
    vectors = _unit(np.random.default_rng(0).normal(size=(len(corpus), 384)).astype(np.float32))
    head = save_head(tmp_path / "head", [np.eye(384, dtype=np.float32)], [None], ["identity"], base_encoder="minilm")
    space = Space("country", "aspect", "encoder", ("country",))
    space._set_state(embeddings=vectors, corpus_name=corpus.name, corpus_hash=corpus.content_hash,
                     encoder_fingerprint=load_encoder(f"dir:{head}").fingerprint, precision="bf16", created="",
                     encode_seconds=0.0, text_recipe="title. text (v1)")
    shipped = tmp_path / "shipped"
    save_space(space, shipped / "country", encoder_spec="encoder", encoder_dir=head, stored_dtype="int8",
               trained="full")
    return corpus, shipped, vectors


def _registry(corpus, shipped, tmp_path):
    return SpaceRegistry(corpus, home=tmp_path / "home", shipped=shipped, progress=False)


def test_a_full_space_ships_int8_vectors_and_its_head(full_space):
    corpus, shipped, vectors = full_space
    manifest = json.loads((shipped / "country" / MANIFEST_FILE).read_text())
    assert manifest["trained"] == "full" and manifest["embeddings"]["dtype"] == "int8"
    assert manifest["embeddings"]["file"] == EMBEDDINGS_FILE and set(manifest["encoder_files"]) == {
        "head.json", "head.safetensors"}
    assert np.load(shipped / "country" / EMBEDDINGS_FILE).dtype == np.int8
    loaded = load_space(shipped / "country", corpus)
    assert np.min(np.sum(loaded.embeddings_ * vectors, axis=1)) > 0.999  # int8 rows, renormalised on load
    assert training_mode(shipped / "country", manifest) == "full"


def test_the_registry_serves_the_stored_vectors_not_a_projection(full_space, tmp_path, count_encodes):
    corpus, shipped, vectors = full_space
    space = _registry(corpus, shipped, tmp_path).open("country")
    np.testing.assert_allclose(space.embeddings_, vectors, atol=1e-2)
    assert count_encodes == []  # nothing encoded: neither the corpus nor a base space
    assert not (tmp_path / "home" / "country").exists()


def test_free_text_goes_through_the_distilled_head(full_space, tmp_path):
    corpus, shipped, _ = full_space
    space = _registry(corpus, shipped, tmp_path).open("country")
    encoder = space.load_encoder()
    assert type(encoder).__name__ == "HeadEncoder"
    assert encoder.encode(["a painter from France"], progress=False).shape == (1, 384)


def test_damaged_vectors_are_a_clear_error_never_a_rebuild(full_space, tmp_path):
    corpus, shipped, _ = full_space
    stored = shipped / "country" / EMBEDDINGS_FILE
    data = bytearray(stored.read_bytes())
    data[-5] ^= 0x40
    stored.write_bytes(bytes(data))
    registry = _registry(corpus, shipped, tmp_path)
    with pytest.raises(AspectNavError, match="full-mode vectors are damaged: .*does not match its sha256.*"
                                             "build_vital_full_spaces.sh"):
        registry.open("country")
    assert not (tmp_path / "home" / "country").exists()
    assert "full-mode vectors are damaged" in registry.damage("country", shipped / "country")
    assert "country" in registry.left_out or registry.open_all(encode=False).get("country") is None


def test_a_damaged_distilled_head_is_a_clear_error(full_space, tmp_path):
    corpus, shipped, _ = full_space
    head = shipped / "country" / "encoder" / "head.safetensors"
    head.write_bytes(head.read_bytes()[:100])
    with pytest.raises(AspectNavError, match="head.safetensors has sha256 .* its manifest expects"):
        _registry(corpus, shipped, tmp_path).open("country")


def test_int8_rows_keep_their_direction():
    rows = _unit(np.random.default_rng(1).normal(size=(50, 384)).astype(np.float32))
    stored = quantized_rows(rows)
    assert stored.dtype == np.int8 and np.abs(stored).max(axis=1).min() == 127
    assert np.min(np.sum(_unit(stored.astype(np.float32)) * rows, axis=1)) > 0.999


def test_saving_refuses_an_unknown_dtype_or_mode(tmp_path):
    space = Space("x", "aspect", "minilm")
    space._set_state(embeddings=np.eye(4, dtype=np.float32), corpus_name="c", corpus_hash="h", encoder_fingerprint="f",
                     precision="fp32", created="", encode_seconds=0.0, text_recipe="r")
    with pytest.raises(ValueError, match="stored_dtype"):
        save_space(space, tmp_path / "x", stored_dtype="int4")
    with pytest.raises(ValueError, match="trained"):
        save_space(space, tmp_path / "x", trained="lora")


def test_every_shipped_vital_space_says_how_it_was_trained_and_all_fit_the_budget():
    root = SHIPPED_SPACES_DIR / "vital"
    modes = {p.parent.name: training_mode(p.parent, json.loads(p.read_text())) for p in root.glob(f"*/{MANIFEST_FILE}")}
    assert modes.pop("generic") is None
    assert modes and all(mode in ("full", "head") for mode in modes.values()), modes
    total = sum(p.stat().st_size for p in SHIPPED_SPACES_DIR.rglob("*") if p.is_file())
    assert total <= SHIPPED_BUDGET_BYTES, f"{total / 1e6:.1f} MB"


def test_spaces_list_says_full_or_head(capsys):
    assert main(["spaces", "list", "--corpus", "vital"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert "trained" not in lines["generic"]
    for name in ("country", "occupation", "topic", "union", "intersection"):
        assert "trained full" in lines[name] or "trained head" in lines[name], lines[name]


def test_spaces_list_says_what_places_a_full_space_s_free_text(tmp_path):
    from explore.spaces.cli import trained_words

    said = {files: trained_words(tmp_path, {"trained": "full", "encoder_files": {name: "0" * 64 for name in files}})
            for files in (("delta.json", "delta.safetensors"), ("layer.json", "layer.safetensors"),
                          ("head.json", "head.safetensors"), ())}
    assert [words.split("free text: ")[1].split(")")[0] for words in said.values()] == [
        "its fine-tuned encoder as a low-rank weight delta", "distilled last layer", "distilled head",
        "its fine-tuned encoder"]
