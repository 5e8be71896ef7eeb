"""Issue #25 item 9: a full disk, a read-only or foreign data home and a damaged shipped head are told in
words (what happened, what to do), exit 2 in the CLI, never a traceback, and without server paths in the app."""
from __future__ import annotations

import errno
import json
import os
import pathlib

import pytest
from streamlit.testing.v1 import AppTest

from explore.cli import main
from explore.corpus.registry import open_corpus
from explore.errors import AspectNavError, storage_error
from explore.settings import HOME_ENV

ENTRY = str(pathlib.Path(__file__).resolve().parents[2] / "app.py")


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "disk is full"), (errno.EDQUOT, "quota"),
                                         (errno.EROFS, "read-only"), (errno.EACCES, "permission denied"),
                                         (errno.ENOTDIR, "a file stands where a folder"),
                                         (errno.EIO, "refused it (Input/output error)")])
def test_each_os_error_kind_has_its_advice_and_no_path(code, words):
    error = storage_error(OSError(code, os.strerror(code), "/srv/secret/home/x"), "store corpus 'x'")
    assert isinstance(error, AspectNavError) and words in str(error)
    assert str(error).startswith("Could not store corpus 'x': ") and "/srv/secret" not in str(error)


def _jsonl(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": "a", "title": "Alpha", "text": "First."}) + "\n")
    return path


def test_a_full_disk_during_an_import_is_one_message_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    real = pathlib.Path.write_text

    def full_disk(self, *args, **kwargs):  # the card is the store's last file: the disk fills up just then
        if self.name == "corpus.json":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", full_disk)
    assert main(["corpus", "import", str(_jsonl(tmp_path)), "--name", "mine"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Could not run 'corpus': the disk is full") and "Traceback" not in err
    with pytest.raises(AspectNavError):
        open_corpus("mine")  # nothing half-written was kept
    # the empty lock file of the corpus name stays (explore/process_lock.py: the OS lock is on it, not its presence)
    assert not [p for p in (tmp_path / "home").rglob("*") if p.is_file() and p.parent.name != "locks"]


def _unwritable_home(tmp_path, kind: str):
    if kind == "read-only folder":
        home = tmp_path / "home"
        home.mkdir(mode=0o500)
        if os.geteuid() == 0:
            pytest.skip("running as root: a 0o500 folder stays writable; this case runs for any other user, and "
                        "the 'under a file' case runs here instead")
        return home, "permission denied"
    (tmp_path / "file").write_text("not a folder")
    return tmp_path / "file" / "home", "a file stands where a folder is needed"


@pytest.mark.parametrize("kind", ["read-only folder", "under a file"])
def test_an_unwritable_empty_data_home_is_one_message_in_the_cli(tmp_path, monkeypatch, capsys, kind):
    home, words = _unwritable_home(tmp_path, kind)
    monkeypatch.setenv(HOME_ENV, str(home))
    assert main(["corpus", "import", str(_jsonl(tmp_path)), "--name", "mine"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize("kind", ["read-only folder", "under a file"])
def test_an_unwritable_empty_data_home_is_one_message_in_the_app(tmp_path, monkeypatch, kind):
    home, words = _unwritable_home(tmp_path, kind)
    monkeypatch.setenv(HOME_ENV, str(home))
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    shown = " ".join(e.value for e in at.error)
    assert words in shown.replace("\\", "") and str(tmp_path) not in shown


def test_a_full_disk_during_spaces_build_says_the_disk_is_full(tmp_path, monkeypatch, capsys):
    """Issue #49 item 11: numpy's write into a full disk raises an OSError without an errno ("N requested and M
    written", what `np.save` said on a full 1 MiB tmpfs); `spaces build` said only "the operating system refused it
    (OSError)". It says what an import says, and keeps nothing half-written."""
    import numpy as np

    from explore.corpus.registry import store_corpus
    from tests.fixture_corpora import fixture_corpus

    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    store_corpus(fixture_corpus())

    def full_disk(file, array, *args, **kwargs):
        data = np.asarray(array)
        with open(file, "wb") as handle:  # part of it lands, then the disk is full
            handle.write(b"\x93NUMPY" + b"\0" * 100)
        raise OSError(f"{data.nbytes} requested and 106 written")

    monkeypatch.setattr(np, "save", full_disk)
    assert main(["spaces", "build", "--corpus", "fixture"]) == 2
    err = capsys.readouterr().err
    assert "the disk is full" in err and "nothing half-written was kept" in err and "Traceback" not in err
    assert not list((tmp_path / "home").rglob("*.npy"))  # the half-written file went with its staging folder


def test_only_numpys_short_write_counts_as_a_full_disk():
    assert "disk is full" in str(storage_error(OSError("4000 requested and 106 written"), "store space 'x'"))
    assert "refused it (OSError)" in str(storage_error(OSError("something else"), "store space 'x'"))
