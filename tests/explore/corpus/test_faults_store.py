"""Issue #13, items 1 and 8: a damaged or half-swapped corpus store (real Parquet files) is caught on the next open."""
import json
import logging
import os
import time

import pytest

from explore import atomic_files
from explore.corpus import registry
from explore.corpus.registry import list_corpora, open_corpus, store_corpus
from explore.corpus.shipped import BuiltinCorpus, record_builder
from explore.corpus.store import ARTICLES_FILE, load_corpus, save_corpus
from explore.corpus.stored_layout import CARD_FILE
from explore.errors import AspectNavError
from explore.settings import corpora_dir
from tests.fixture_corpora import ARTICLES, aspect_corpus
from tests.killed_writes import NEW_COPY_LANDED, OLD_COPY_ASIDE, write_killed
from explore.json_seal import SEAL_KEY


def flip_text_byte(path, corpus) -> None:
    """Flip one bit in a lead stored verbatim (a Snappy literal): a text changes case, the file stays valid Parquet."""
    data = bytearray(path.read_bytes())
    for article in corpus:
        needle = article.text[:12].encode()
        if needle[:1].isalpha() and needle.isascii() and data.count(needle) == 1:
            data[data.index(needle)] ^= 0x20  # 'M' -> 'm'
            path.write_bytes(bytes(data))
            return
    raise AssertionError("no lead is stored verbatim")


# Item 1: damage is detected on load.

def test_flipped_byte_in_an_imported_corpus_is_refused_with_the_fix(tmp_path):
    path = store_corpus(aspect_corpus("mine"))
    flip_text_byte(path / ARTICLES_FILE, ARTICLES)
    with pytest.raises(AspectNavError) as error:
        open_corpus("mine")
    message = str(error.value)
    assert "'mine'" in message and "damaged" in message and "re-import" in message.lower()
    assert "--name mine --force" in message


def test_text_damage_is_caught_by_the_content_hash_too(tmp_path):
    """A store saved before the file checksum existed is still checked against its content hash."""
    path = save_corpus(aspect_corpus("mine"), tmp_path / "mine")
    card = json.loads((path / CARD_FILE).read_text())
    card.pop("articles_sha256", None)
    card.pop(SEAL_KEY, None)
    (path / CARD_FILE).write_text(json.dumps(card))
    flip_text_byte(path / ARTICLES_FILE, ARTICLES)
    with pytest.raises(AspectNavError, match="content hash"):
        load_corpus(path)


def test_a_damaged_builtin_corpus_is_rebuilt_and_logged(vital_corpus, monkeypatch, caplog):
    no_shipped_build = BuiltinCorpus(lambda: vital_corpus, lambda: "not-the-shipped-one")
    monkeypatch.setattr(registry, "_builtin_builders", lambda: {"vital": no_shipped_build})
    path = store_corpus(vital_corpus)
    record_builder(path, "not-the-shipped-one")  # stored by this very code: only the damage is wrong
    flip_text_byte(path / ARTICLES_FILE, vital_corpus)
    with caplog.at_level(logging.WARNING, logger="explore.corpus.registry"):
        reopened = open_corpus("vital")
    assert reopened.articles == vital_corpus.articles
    assert load_corpus(path).articles == vital_corpus.articles  # the rebuilt copy was stored
    [line] = [r.getMessage() for r in caplog.records if r.name == "explore.corpus.registry"]
    assert "'vital'" in line and "damaged" in line and "rebuilding" in line


def test_every_single_byte_flip_gives_a_clear_error(tmp_path):
    """Flips pyarrow notices and flips it does not: each is an AspectNavError, never a traceback or a silent load."""
    path = save_corpus(aspect_corpus("mine"), tmp_path / "mine")
    pristine = (path / ARTICLES_FILE).read_bytes()
    outcomes = {}
    for offset in range(0, len(pristine), 7):
        damaged = bytearray(pristine)
        damaged[offset] ^= 0x01
        (path / ARTICLES_FILE).write_bytes(bytes(damaged))
        try:
            load_corpus(path)
            outcomes[offset] = "loaded silently"
        except AspectNavError:
            pass
        except Exception as exc:  # noqa: BLE001 - the point is to see which ones escape
            outcomes[offset] = f"{type(exc).__name__}: {exc}"[:80]
    assert outcomes == {}


# Item 8: a swap killed between its two renames is recovered on the next open or list.

def save_killed(corpus, kill_before_staging_lands: bool) -> None:
    """Save `corpus` in a child process SIGKILLed around the swap's second rename."""
    write_killed(lambda: store_corpus(corpus), OLD_COPY_ASIDE if kill_before_staging_lands else NEW_COPY_LANDED)


def hidden_entries() -> list[str]:
    return sorted(p.name for p in corpora_dir().iterdir() if p.name.startswith("."))


def age(names: list[str], seconds: float) -> None:
    then = time.time() - seconds
    for name in names:
        os.utime(corpora_dir() / name, (then, then))


def test_kill_between_the_renames_brings_the_old_copy_back():
    old, new = aspect_corpus("mine"), aspect_corpus("mine", ARTICLES[:3])
    store_corpus(old)
    save_killed(new, kill_before_staging_lands=True)
    assert not (corpora_dir() / "mine").exists()  # the state the kill left

    assert list_corpora() == ["mine", "vital"]
    assert open_corpus("mine").articles == old.articles
    assert hidden_entries() == []  # the killed writer's staging: its process is gone, so it went at once


def test_kill_after_the_second_rename_keeps_the_new_copy_and_cleans_up():
    old, new = aspect_corpus("mine"), aspect_corpus("mine", ARTICLES[:3])
    store_corpus(old)
    save_killed(new, kill_before_staging_lands=False)

    assert list_corpora() == ["mine", "vital"]
    assert open_corpus("mine").articles == new.articles
    assert hidden_entries() == []


def test_a_fresh_staging_without_its_writers_id_stays_until_long_abandoned():
    staging = corpora_dir() / ".mine-abcd1234.staging"  # named before the writer's id was in the name
    staging.mkdir(parents=True)
    assert list_corpora() == ["vital"] and hidden_entries() == [staging.name]
    age([staging.name], atomic_files.ABANDONED_AFTER_S + 60)
    assert list_corpora() == ["vital"] and hidden_entries() == []


def test_hidden_folders_are_never_listed():
    """Another process may be writing one right now; whatever it is, it is not a corpus to pick."""
    store_corpus(aspect_corpus("mine"))
    save_corpus(aspect_corpus("other"), corpora_dir() / ".other-inprogress")
    assert list_corpora() == ["mine", "vital"]
    assert hidden_entries() == [".other-inprogress"]


def test_saving_after_a_killed_swap_leaves_one_clean_copy():
    old, new = aspect_corpus("mine"), aspect_corpus("mine", ARTICLES[:3])
    store_corpus(old)
    save_killed(new, kill_before_staging_lands=True)
    age(hidden_entries(), atomic_files.ABANDONED_AFTER_S + 60)
    store_corpus(new)
    assert open_corpus("mine").articles == new.articles
    assert hidden_entries() == []
