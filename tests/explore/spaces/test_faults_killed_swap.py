"""Issue #25, items 4 and 6: a space whose save was SIGKILLed inside its directory swap (real child process, real
stores) is neither hidden nor rebuilt, and the staging folders such kills leave are cleaned up like corpora's."""
import logging
import os
import time

import numpy as np
import pytest

from explore import atomic_files
from explore.encoders import load_encoder, save_head
from explore.spaces import Space, SpaceDefinition, SpaceRegistry, save_space
from explore.spaces.store import MANIFEST_FILE
from tests.explore.spaces.test_registry import _again
from tests.killed_writes import BEFORE_THE_SWAP, NEW_COPY_LANDED, OLD_COPY_ASIDE, write_killed


def trained_head(path, seed: int):
    save_head(path, [np.random.default_rng(seed).normal(size=(8, 384))], [None], ["identity"], base_encoder="minilm")
    return path


@pytest.fixture
def country(registry, tmp_path):
    """A trained space (a head over the generic one) stored in the data home, and the retrained one to save over it."""
    generic = registry.open("generic")
    stored = registry.build(SpaceDefinition("country", "aspect", str(trained_head(tmp_path / "head-1", 1)),
                                            ("country",)))
    head = trained_head(tmp_path / "head-2", 2)
    retrained = Space("country", "aspect", str(head), ("country",)).fit(registry.corpus, load_encoder(head),
                                                                       base=generic, progress=False)
    return stored, retrained


def hidden(registry) -> list[str]:
    return sorted(p.name for p in registry.home.iterdir() if p.name.startswith(".") and p.name != ".indexes")


def age(registry, names, seconds: float) -> None:
    then = time.time() - seconds
    for name in names:
        os.utime(registry.home / name, (then, then))


def test_a_retrained_space_killed_with_its_old_copy_aside_is_listed_and_opened(registry, count_encodes, country):
    stored, retrained = country
    write_killed(lambda: save_space(retrained, registry.home / "country"), OLD_COPY_ASIDE)
    assert not (registry.home / "country").exists() and ".country.old" in hidden(registry)  # the state the kill left

    again = _again(registry)
    assert again.names() == ["generic", "country"]  # `spaces list`
    assert set(again.open_all(encode=False)) == {"generic", "country"}  # Explore's columns
    np.testing.assert_allclose(again.open("country").embeddings_, stored.embeddings_, atol=2e-3)
    assert count_encodes == [12] and ".country.old" not in hidden(registry)


def test_a_forced_rebuild_killed_midway_keeps_the_old_space_without_encoding(registry, count_encodes, caplog):
    generic = registry.open("generic")
    write_killed(lambda: save_space(generic, registry.home / "generic"), OLD_COPY_ASIDE)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="explore.spaces.registry"):
        reopened = _again(registry).open("generic")
    assert count_encodes == [12] and "not built yet" not in caplog.text
    np.testing.assert_allclose(reopened.embeddings_, generic.embeddings_, atol=2e-3)


def test_a_save_killed_after_the_new_copy_landed_keeps_it_and_cleans_up(registry, country):
    _, retrained = country
    write_killed(lambda: save_space(retrained, registry.home / "country"), NEW_COPY_LANDED)
    again = _again(registry)
    assert again.names() == ["generic", "country"] and hidden(registry) == []
    np.testing.assert_allclose(again.open("country").embeddings_, retrained.embeddings_, atol=2e-3)


def test_staging_left_by_a_killed_save_goes_at_once_an_unnamed_one_once_abandoned(registry, country):
    _, retrained = country
    write_killed(lambda: save_space(retrained, registry.home / "country"), BEFORE_THE_SWAP)
    legacy = registry.home / ".generic-k3x9_q2a"  # how spaces named their staging before #25
    legacy.mkdir()
    [staging] = [name for name in hidden(registry) if name.endswith(atomic_files.STAGING_SUFFIX)]
    assert staging.startswith(".country-")

    assert _again(registry).names() == ["generic", "country"]
    assert hidden(registry) == [legacy.name]  # the killed writer is gone, its staging too; the unnamed one is fresh
    age(registry, hidden(registry), atomic_files.ABANDONED_AFTER_S + 60)
    assert _again(registry).names() == ["generic", "country"]
    assert hidden(registry) == []
    assert (registry.home / "country" / MANIFEST_FILE).exists()


def test_a_running_save_keeps_its_staging_while_an_abandoned_one_goes(registry, country):
    """Listing while another process saves a space: only the staging abandoned long ago is removed."""
    _, retrained = country
    abandoned = registry.home / ".generic-abandon.staging"  # not the saved space's: its own swap would tidy that
    abandoned.mkdir()
    age(registry, [abandoned.name], atomic_files.ABANDONED_AFTER_S + 60)
    ready_read, ready_write = os.pipe()
    go_read, go_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child: stops before its swap until the parent has listed
        real_replace = os.replace

        def paused_replace(source, target):
            os.write(ready_write, b"1")
            os.read(go_read, 1)
            real_replace(source, target)
            atomic_files.os.replace = real_replace

        try:
            atomic_files.os.replace = paused_replace
            save_space(retrained, registry.home / "country")
            os._exit(0)
        finally:
            os._exit(1)
    try:
        os.read(ready_read, 1)
        running = [name for name in hidden(registry) if name != abandoned.name]
        assert _again(registry).names() == ["generic", "country"]
        assert hidden(registry) == running and len(running) == 1  # the abandoned one went, the running one stays
    finally:  # the child goes on and ends whatever the parent saw
        os.write(go_write, b"1")
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert hidden(registry) == []
    np.testing.assert_allclose(_again(registry).open("country").embeddings_, retrained.embeddings_, atol=2e-3)
