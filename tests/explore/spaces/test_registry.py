import gc
import json
import logging
from dataclasses import replace

import numpy as np
import pytest

from explore.encoders import save_head
from explore.errors import UnknownSpaceError
from explore.spaces import SpaceDefinition, SpaceRegistry
from explore.spaces.store import EMBEDDINGS_FILE, MANIFEST_FILE, TRAINING_RECORD_FILE
from tests.fixture_corpora import ARTICLES, aspect_corpus


def _again(registry):
    return SpaceRegistry(registry.corpus, home=registry.home, shipped=registry.shipped, progress=False)


def test_default_space_is_built_once_then_loaded_from_the_cache(registry, count_encodes, indexed):
    assert registry.names() == ["generic"]
    first = registry.open("generic")
    assert count_encodes == [12] and (registry.home / "generic" / MANIFEST_FILE).exists()
    second = _again(registry).open("generic")
    assert count_encodes == [12]
    np.testing.assert_allclose(second.embeddings_, first.embeddings_, atol=2e-3)
    assert second.index_path_ == first.index_path_


def test_stale_space_is_rebuilt_and_the_reason_logged(registry, count_encodes, caplog):
    registry.open("generic")
    edited = [replace(ARTICLES[0], text="Changed lead.")] + ARTICLES[1:]
    fresh = SpaceRegistry(aspect_corpus(articles=edited), home=registry.home, shipped=registry.shipped, progress=False)
    with caplog.at_level(logging.WARNING):
        space = fresh.open("generic")
    assert "corpus hash" in caplog.text and count_encodes == [12, 12]
    assert space.corpus_hash_ == fresh.corpus.content_hash


def test_corrupt_space_is_rebuilt_never_a_crash(registry, count_encodes, caplog):
    registry.open("generic")
    path = registry.home / "generic" / EMBEDDINGS_FILE
    data = bytearray(path.read_bytes())
    data[-7] ^= 0xFF
    path.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING):
        _again(registry).open("generic")
    assert "sha256" in caplog.text and count_encodes == [12, 12]
    _again(registry).open("generic")  # the rebuilt copy is good
    assert count_encodes == [12, 12]


def test_damaged_index_cache_is_rebuilt(registry, indexed):
    space = registry.open("generic")
    space.nearest(space.embeddings_[0], 3)
    space.index_path_.write_bytes(b"garbage")
    again = _again(registry).open("generic")
    assert again.nearest(again.embeddings_[0], 1)[0][0] == 0


def test_shipped_space_is_used_without_encoding_and_rebuilt_when_damaged(registry, count_encodes, caplog):
    registry.open("generic")
    shipped = registry.ship("generic")
    for f in (registry.home / "generic").iterdir():
        f.unlink()
    (registry.home / "generic").rmdir()
    _again(registry).open("generic")
    assert count_encodes == [12]
    (shipped / EMBEDDINGS_FILE).write_bytes((shipped / EMBEDDINGS_FILE).read_bytes()[:-100])
    with caplog.at_level(logging.WARNING):
        space = _again(registry).open("generic")
    assert "shipped assets" in caplog.text and count_encodes == [12, 12]
    assert space.directory_ == registry.home / "generic"


def test_head_space_projects_the_generic_vectors_without_encoding(registry, count_encodes, tmp_path):
    generic = registry.open("generic")
    weight = np.random.default_rng(0).normal(size=(8, 384))
    save_head(tmp_path / "occupation-head", [weight], [None], ["identity"], base_encoder="minilm")
    space = registry.build(SpaceDefinition("occupation", "aspect", str(tmp_path / "occupation-head")))
    assert count_encodes == [12] and space.dim == 8 and space.aspects == ("occupation",)
    expected = generic.embeddings_ @ weight.T
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(space.embeddings_, expected, atol=1e-5)
    assert _again(registry).names() == ["generic", "occupation"]
    # Shipping copies the head in, so the asset does not depend on the trainer's folder.
    shipped = registry.ship("occupation")
    assert json.loads((shipped / MANIFEST_FILE).read_text())["encoder"] == "encoder"
    assert (shipped / "encoder" / "head.json").exists()
    # A head ships without embeddings; a fresh data home projects the shipped generic space.
    assert not (shipped / EMBEDDINGS_FILE).exists()
    registry.ship("generic")
    fresh = SpaceRegistry(registry.corpus, home=tmp_path / "fresh-home", shipped=registry.shipped, progress=False)
    derived = fresh.open("occupation")
    assert count_encodes == [12] and derived.directory_ == fresh.home / "occupation"
    np.testing.assert_allclose(derived.embeddings_, space.embeddings_, atol=2e-3)  # fp16 generic in between


def test_a_space_below_the_exact_threshold_builds_no_index_and_records_its_search(registry):
    space = registry.open("generic")
    assert space.search_.exact and space._index is None
    rows, scores = space.nearest(space.embeddings_[3], 2)
    assert rows[0] == 3 and scores[0] == pytest.approx(1.0, abs=1e-5)
    assert space._index is None and not (registry.home / ".indexes").exists()
    manifest = json.loads((registry.home / "generic" / MANIFEST_FILE).read_text())
    assert manifest["search"] == {"method": "exact"}


def test_an_indexed_space_records_the_graph_parameters_it_was_built_with(registry, indexed):
    space = registry.open("generic")
    manifest = json.loads((registry.home / "generic" / MANIFEST_FILE).read_text())
    assert manifest["search"] == {"method": "hnsw", "m": 16, "ef_construction": 200, "ef_search": 64}
    assert space.index_path_.exists() and space.index_path_.name.endswith("-M16-efc200.hnsw")


def test_unknown_space_lists_the_existing_ones(registry):
    with pytest.raises(UnknownSpaceError, match="no space 'country'.*Spaces: generic"):
        registry.open("country")


def test_rebuilding_drops_the_old_index_but_not_other_spaces(registry, indexed):
    first = registry.open("generic")
    neighbour_file = first.index_path_.with_name(first.index_path_.name.replace("generic-", "generic-mpnet-"))
    neighbour_file.write_bytes(b"another space's index")
    path = registry.home / "generic" / EMBEDDINGS_FILE
    path.write_bytes(path.read_bytes()[:-1])
    rebuilt = _again(registry).open("generic")
    assert rebuilt.index_path_.exists() and neighbour_file.exists()
    if rebuilt.index_path_ != first.index_path_:
        assert not first.index_path_.exists()


def test_a_shipped_head_keeps_its_training_record_in_a_fresh_data_home(registry, tmp_path):
    registry.open("generic")
    save_head(tmp_path / "head", [np.eye(384)[:8]], [None], ["identity"], base_encoder="minilm")
    space = registry.build(SpaceDefinition("occupation", "aspect", str(tmp_path / "head")))
    (space.directory_ / TRAINING_RECORD_FILE).write_text('{"split": {"fingerprint": "f00"}}')
    registry.ship("generic")
    assert (registry.ship("occupation") / TRAINING_RECORD_FILE).exists()
    fresh = SpaceRegistry(registry.corpus, home=tmp_path / "fresh-home", shipped=registry.shipped, progress=False)
    derived = fresh.open("occupation")
    assert json.loads((derived.directory_ / TRAINING_RECORD_FILE).read_text())["split"]["fingerprint"] == "f00"


def _ship_head(registry, tmp_path, name, seed):
    save_head(tmp_path / f"{name}-head-{seed}", [np.random.default_rng(seed).normal(size=(8, 384))], [None],
              ["identity"], base_encoder="minilm")
    registry.build(SpaceDefinition(name, "aspect", str(tmp_path / f"{name}-head-{seed}")))
    return registry.ship(name)


def test_a_projection_of_a_shipped_head_gives_way_when_the_release_ships_vectors(registry, tmp_path, caplog):
    registry.open("generic")
    registry.ship("generic")
    _ship_head(registry, tmp_path, "occupation", seed=0)
    home = tmp_path / "reader-home"
    first = SpaceRegistry(registry.corpus, home=home, shipped=registry.shipped, progress=False).open("occupation")
    assert first.directory_ == home / "occupation"  # the shipped head, projected into the data home
    # the next release ships the space's own vectors (as full-mode spaces are shipped) in place of the head
    registry.build(SpaceDefinition("occupation", "aspect", "minilm", ("occupation",)))
    shipped = registry.ship("occupation")
    assert json.loads((shipped / MANIFEST_FILE).read_text())["embeddings"]["file"]
    with caplog.at_level(logging.INFO):
        second = SpaceRegistry(registry.corpus, home=home, shipped=registry.shipped, progress=False).open("occupation")
    assert "now ships its own vectors" in caplog.text
    assert second.directory_ == shipped and not (home / "occupation").exists()
    assert second.dim == 384 and first.dim == 8


def test_a_projection_of_a_moved_checkout_is_made_again_from_where_the_assets_are_now(registry, tmp_path, caplog):
    import shutil

    registry.open("generic")
    registry.ship("generic")
    _ship_head(registry, tmp_path, "occupation", seed=0)
    home = tmp_path / "reader-home"
    SpaceRegistry(registry.corpus, home=home, shipped=registry.shipped, progress=False).open("occupation")
    moved = tmp_path / "moved" / registry.shipped.name
    shutil.copytree(registry.shipped, moved)
    shutil.rmtree(registry.shipped)  # the old checkout is gone
    with caplog.at_level(logging.INFO):
        again = SpaceRegistry(registry.corpus, home=home, shipped=moved, progress=False).open("occupation")
    assert "the shipped space is now" in caplog.text
    assert str(moved / "occupation" / "encoder") in json.loads((again.directory_ / MANIFEST_FILE).read_text())[
        "encoder"]


def test_a_space_of_the_readers_own_is_never_dropped_for_a_shipped_one(registry, tmp_path):
    registry.open("generic")
    registry.ship("generic")
    _ship_head(registry, tmp_path, "occupation", seed=0)
    home = tmp_path / "reader-home"
    mine = SpaceRegistry(registry.corpus, home=home, shipped=registry.shipped, progress=False)
    save_head(tmp_path / "my-head", [np.eye(384)[:8]], [None], ["identity"], base_encoder="minilm")
    built = mine.build(SpaceDefinition("occupation", "aspect", str(tmp_path / "my-head")))
    again = SpaceRegistry(registry.corpus, home=home, shipped=registry.shipped, progress=False).open("occupation")
    assert again.encoder_fingerprint_ == built.encoder_fingerprint_
    np.testing.assert_allclose(again.embeddings_, built.embeddings_, atol=2e-3)


@pytest.mark.parametrize("kind, suffix", [("quantized", ".usearch"), ("ivfpq", ".faiss")])
def test_a_space_switched_to_a_compressed_index_keeps_it_and_answers_exact_cosines(registry, indexed, kind, suffix):
    from explore.spaces.store import read_manifest

    hnsw = registry.open("generic")
    hnsw.index  # noqa: B018 - cached beside the space
    hnsw_file = hnsw.index_path_
    assert hnsw.search_.method == "hnsw" and hnsw_file.exists()
    space = registry.use_index("generic", kind)
    assert read_manifest(registry.home / "generic")["search"] == space.search_.as_dict()  # ivfpq: its nprobe too
    assert space.search_.method == kind and space.index_path_.suffix == suffix and space.index_path_.exists()
    assert not hnsw_file.exists()  # the other kind's index is dropped
    again = _again(registry).open("generic")
    assert again.search_.method == kind and again.index_path_ == space.index_path_
    rows, scores = again.nearest(again.embeddings_[4], 5)
    assert rows[0] == 4
    np.testing.assert_allclose(scores, again.embeddings_[rows] @ again.embeddings_[4], atol=1e-6)  # rescored
    assert list(scores) == sorted(scores, reverse=True)
    path, vector = again.index_path_, again.embeddings_[2]
    del again  # its index maps the file: damaging a mapped file in place would fault on the next read
    gc.collect()
    path.write_bytes(b"garbage")  # damaged: rebuilt, never mapped
    assert _again(registry).open("generic").nearest(vector, 1)[0][0] == 2
    assert registry.use_index("generic", "hnsw").search_.method == "hnsw"
    assert not path.exists()  # switched back: the compressed index's file is dropped too
