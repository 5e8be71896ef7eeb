"""Atomic replacement: readers see the old file or directory or the new one, and nothing is left behind."""
from __future__ import annotations

import pytest

from explore.atomic_files import file_written_atomically, swap_directory_into_place


def test_a_written_file_replaces_the_old_one_and_no_temporary_remains(tmp_path):
    target = tmp_path / "sub" / "data.json"
    with file_written_atomically(target) as staging:
        staging.write_text("first")
    with file_written_atomically(target, suffix=".tmp") as staging:
        assert staging.parent == target.parent and staging.name.endswith(".tmp")
        staging.write_text("second")
    assert target.read_text() == "second"
    assert [p.name for p in target.parent.iterdir()] == ["data.json"]


def test_a_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "data.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), file_written_atomically(target) as staging:
        staging.write_text("half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["data.json"]


def test_a_directory_swap_replaces_the_whole_directory(tmp_path):
    target, staging = tmp_path / "space", tmp_path / ".space-staging"
    target.mkdir()
    (target / "old.txt").write_text("old")
    staging.mkdir()
    (staging / "new.txt").write_text("new")
    swap_directory_into_place(staging, target)
    assert [p.name for p in target.iterdir()] == ["new.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["space"]


def test_staging_left_by_a_killed_writer_goes_at_the_next_write_a_live_writers_stays(tmp_path):
    import subprocess
    import sys

    from explore.atomic_files import staging_directory_for

    target = tmp_path / "million"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f".million-abcd1234.{int(gone.stdout)}.staging"  # what a killed build leaves
    left.mkdir()
    (left / "articles.arrow").write_bytes(b"x" * 1000)
    live = staging_directory_for(target)  # this process: a writer at work
    assert not left.exists() and live.exists()
    other = tmp_path / "other"
    staging_directory_for(other)
    assert live.exists()  # another target's write never touches it, nor does a live writer's staging go
    staging_directory_for(target)
    assert live.exists()
