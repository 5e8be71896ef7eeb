"""Issue #25, item 7: a bit flipped anywhere in a stored corpus or space is refused or provably harmless.

Every bit of each JSON record and every byte (stepping) of each data file is flipped in turn in real stores; a load
must either raise a clear error or return an object equal to the original, never a renamed or changed one.
"""
import json

import numpy as np
import pytest

from explore.corpus.store import ARTICLES_FILE, load_corpus, save_corpus
from explore.corpus.stored_layout import CARD_FILE
from explore.errors import AspectNavError
from explore.json_seal import SEAL_KEY
from explore.spaces import Space, SpaceUnusable, load_space, save_space
from explore.spaces.article_text import TEXT_RECIPE
from explore.spaces.store import (EMBEDDINGS_FILE, MANIFEST_FILE, TRAINING_RECORD_FILE, read_training_record,
                                  training_record_file)
from tests.fixture_corpora import aspect_corpus


def flips(data: bytes, every_bit: bool, step: int = 1):
    for offset in range(0, len(data), step):
        for bit in range(8) if every_bit else (offset % 8,):
            damaged = bytearray(data)
            damaged[offset] ^= 1 << bit
            yield f"byte {offset} bit {bit}", bytes(damaged)


def silent_changes(path, every_bit, step, load, same_as_original, refusals) -> list[str]:
    pristine = path.read_bytes()
    changed = []
    try:
        for where, damaged in flips(pristine, every_bit, step):
            path.write_bytes(damaged)
            try:
                loaded = load()
            except refusals:
                continue
            if not same_as_original(loaded):
                changed.append(f"{path.name} {where}")
    finally:
        path.write_bytes(pristine)
    return changed


def corpus_state(corpus):
    return corpus.name, corpus.articles, corpus.provenance, corpus.content_hash


@pytest.mark.parametrize("stored_file, every_bit, step", [(CARD_FILE, True, 1), (ARTICLES_FILE, False, 3)])
def test_every_flip_in_a_stored_corpus_is_refused_or_harmless(tmp_path, stored_file, every_bit, step):
    original = aspect_corpus("d5b")
    path = save_corpus(original, tmp_path / "d5b")
    changed = silent_changes(path / stored_file, every_bit, step, lambda: load_corpus(path),
                             lambda loaded: corpus_state(loaded) == corpus_state(original), AspectNavError)
    assert changed == []


def small_space(corpus) -> Space:
    vectors = np.random.default_rng(0).normal(size=(len(corpus), 8))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return Space("d5b", "generic", "minilm")._set_state(
        embeddings=vectors, corpus_name=corpus.name, corpus_hash=corpus.content_hash, encoder_fingerprint="f" * 16,
        precision="fp32", created="2025-01-01T00:00:00+00:00", encode_seconds=1.5, text_recipe=TEXT_RECIPE)


def space_state(space):
    return (space.name, space.kind, space.encoder, space.aspects, space.corpus_name_, space.corpus_hash_,
            space.encoder_fingerprint_, space.precision_, space.backend_, space.created_, space.encode_seconds_,
            space.text_recipe_, space.embeddings_.tobytes())


@pytest.mark.parametrize("stored_file, every_bit, step", [(MANIFEST_FILE, True, 1), (EMBEDDINGS_FILE, True, 1)])
def test_every_flip_in_a_stored_space_is_refused_or_harmless(tmp_path, stored_file, every_bit, step):
    corpus = aspect_corpus("d5b")
    path = save_space(small_space(corpus), tmp_path / "d5b")
    original = space_state(load_space(path, corpus, check_encoder=False))
    changed = silent_changes(path / stored_file, every_bit, step, lambda: load_space(path, corpus, check_encoder=False),
                             lambda loaded: space_state(loaded) == original, (SpaceUnusable, AspectNavError))
    assert changed == []


def test_a_flipped_corpus_name_is_refused_naming_the_card(tmp_path):
    path = save_corpus(aspect_corpus("d5b"), tmp_path / "d5b")
    card = path / CARD_FILE
    card.write_text(card.read_text().replace('"name": "d5b"', '"name": "d5c"'))
    with pytest.raises(AspectNavError, match=f"{CARD_FILE} is damaged: it does not match the checksum"):
        load_corpus(path)


def test_stores_written_before_the_seal_still_load(tmp_path):
    corpus = aspect_corpus("d5b")
    corpus_path = save_corpus(corpus, tmp_path / "corpus")
    space_path = save_space(small_space(corpus), tmp_path / "space")
    for record in (corpus_path / CARD_FILE, space_path / MANIFEST_FILE):
        body = json.loads(record.read_text())
        del body[SEAL_KEY]
        record.write_text(json.dumps(body))
    assert corpus_state(load_corpus(corpus_path)) == corpus_state(corpus)
    assert load_space(space_path, corpus, check_encoder=False).name == "d5b"


TRAINING_RECORD = {"config": {"combine": "graded", "aspects": ["country"]}, "split": {"fingerprint": "abc123"},
                   "metrics": {"ndcg@10": np.float32(0.5)}, "run_dir": "/runs/d5b"}


def test_every_flip_in_a_training_record_is_refused_or_harmless(tmp_path):
    """Issue #25 item 7, the space's third stored file: training.json (split, objective, metrics) beside the manifest
    was outside every checksum; a flip in the split fingerprint passed it off as trained on another split."""
    path = tmp_path / TRAINING_RECORD_FILE
    path.write_text(training_record_file(TRAINING_RECORD))
    original = read_training_record(tmp_path)
    assert original["split"] == {"fingerprint": "abc123"} and original["metrics"] == {"ndcg@10": 0.5}
    changed = silent_changes(path, True, 1, lambda: read_training_record(tmp_path),
                             lambda loaded: loaded == original, AspectNavError)
    assert changed == []


def test_a_damaged_training_record_is_reported_like_a_damaged_manifest(tmp_path, isolated_home):
    """`spaces list` says DAMAGED and opening the space refuses, naming the file: rebuilding would lose the record."""
    from explore.spaces import spaces_for

    corpus = aspect_corpus("d5b")
    registry = spaces_for(corpus, progress=False)
    directory = save_space(small_space(corpus), registry.home / "d5b")
    (directory / TRAINING_RECORD_FILE).write_text(training_record_file(TRAINING_RECORD).replace("abc123", "abc124"))
    said = registry.damage("d5b", directory)
    assert said and f"{TRAINING_RECORD_FILE} is damaged: it does not match the checksum" in said
    with pytest.raises(AspectNavError, match=f"{TRAINING_RECORD_FILE} is damaged"):
        registry.open("d5b")
    assert "d5b" not in registry.open_all(encode=False) and "training.json is damaged" in registry.left_out["d5b"]


def test_a_training_record_written_before_the_seal_still_reads(tmp_path):
    (tmp_path / TRAINING_RECORD_FILE).write_text('{"split": {"fingerprint": "f00"}}')
    assert read_training_record(tmp_path) == {"split": {"fingerprint": "f00"}}
