import json
from dataclasses import replace

import numpy as np
import pytest

from explore.spaces import Space, SpaceUnusable, load_space, save_space
from explore.spaces.store import EMBEDDINGS_FILE, MANIFEST_FILE, TRAINING_RECORD_FILE
from tests.fixture_corpora import ARTICLES, aspect_corpus
from explore.json_seal import sealed


@pytest.fixture(scope="module")
def fitted(minilm):
    return Space("generic", "generic", "minilm").fit(aspect_corpus(), minilm, progress=False)


@pytest.fixture
def saved(fitted, tmp_path):
    return save_space(fitted, tmp_path / "generic")


def test_round_trip_keeps_vectors_to_fp16_precision(fitted, saved):
    loaded = load_space(saved, aspect_corpus())
    assert (loaded.name, loaded.kind, loaded.encoder) == ("generic", "generic", "minilm")
    assert loaded.embeddings_.dtype == np.float32
    assert (loaded.embeddings_ * fitted.embeddings_).sum(axis=1).min() > 0.9999
    manifest = json.loads((saved / MANIFEST_FILE).read_text())
    assert manifest["embeddings"]["dtype"] == "float16" and manifest["embeddings"]["shape"] == [12, 384]
    assert manifest["corpus_hash"] == aspect_corpus().content_hash


def test_changed_corpus_text_is_stale(saved):
    edited = [replace(ARTICLES[0], text="Marie Curie was a Polish physicist.")] + ARTICLES[1:]
    with pytest.raises(SpaceUnusable, match="corpus hash") as caught:
        load_space(saved, aspect_corpus(articles=edited))
    assert caught.value.stale


def test_changed_aspects_are_not_stale(saved):
    relabelled = [replace(a, aspects={"occupation": ("anything",)}) for a in ARTICLES]
    load_space(saved, aspect_corpus(articles=relabelled))


def test_changed_encoder_is_stale(saved):
    manifest = json.loads((saved / MANIFEST_FILE).read_text())
    (saved / MANIFEST_FILE).write_text(json.dumps(sealed({**manifest, "encoder_fingerprint": "0" * 16})))
    with pytest.raises(SpaceUnusable, match="encoder minilm changed") as caught:
        load_space(saved, aspect_corpus())
    assert caught.value.stale


@pytest.mark.parametrize("damage", ["truncate", "bitflip", "delete"])
def test_damaged_embeddings_are_corrupt(saved, damage):
    path = saved / EMBEDDINGS_FILE
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        path.write_bytes(bytes(data[: len(data) // 2]))
    elif damage == "bitflip":
        data[len(data) // 2] ^= 0x10
        path.write_bytes(bytes(data))
    else:
        path.unlink()
    with pytest.raises(SpaceUnusable) as caught:
        load_space(saved, aspect_corpus())
    assert not caught.value.stale


@pytest.mark.parametrize("manifest", ["{broken", "[]", '{"format_version": 1}', ""])
def test_bad_manifest_is_corrupt(saved, manifest):
    (saved / MANIFEST_FILE).write_text(manifest)
    with pytest.raises(SpaceUnusable, match="manifest"):
        load_space(saved, aspect_corpus())


def test_manifest_shape_that_disagrees_with_the_file_is_corrupt(saved):
    manifest = json.loads((saved / MANIFEST_FILE).read_text())
    manifest["embeddings"]["shape"] = [12, 100]
    (saved / MANIFEST_FILE).write_text(json.dumps(sealed(manifest)))
    with pytest.raises(SpaceUnusable, match="shape"):
        load_space(saved, aspect_corpus())


def test_a_training_record_travels_with_the_space_when_it_is_saved_elsewhere(fitted, saved, tmp_path):
    (saved / TRAINING_RECORD_FILE).write_text('{"split": {"fingerprint": "abc"}}')
    shipped = save_space(load_space(saved, aspect_corpus()), tmp_path / "shipped" / "generic")
    assert json.loads((shipped / TRAINING_RECORD_FILE).read_text())["split"]["fingerprint"] == "abc"
    untrained = save_space(fitted, tmp_path / "other")
    assert not (untrained / TRAINING_RECORD_FILE).exists()
