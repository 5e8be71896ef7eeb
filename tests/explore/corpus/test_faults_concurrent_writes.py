"""Issue #49 item 10: three imports into one corpus name at once all said "Imported" and only the last survived. Writes
to one corpus name are serialised: one process writes, the others are told the corpus is busy (or, once it is stored,
that it exists), and what the one that said "Imported" imported is what is stored. Real processes, started together."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from explore.corpus.registry import corpus_busy_error, open_corpus, writing_corpus
from explore.errors import AspectNavError
from explore.settings import HOME_ENV

CHECKOUT = Path(__file__).resolve().parents[3]
ARTICLES = 6000  # a second or so of reading each: the three overlap


def _jsonl(path: Path, tag: str) -> Path:
    with path.open("w") as out:
        for i in range(ARTICLES):
            out.write(json.dumps({"id": f"{tag}{i}", "title": f"{tag} article {i}", "text": f"Text {i} of {tag}."})
                      + "\n")
    return path


@pytest.mark.timeout(240)
def test_three_imports_into_one_name_at_once_store_what_the_one_told_imported_stored(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    files = [_jsonl(tmp_path / f"{tag}.jsonl", tag) for tag in ("a", "b", "c")]
    env = {**os.environ, HOME_ENV: str(home), "PYTHONPATH": str(CHECKOUT)}
    runs = [subprocess.Popen([sys.executable, "-m", "explore", "corpus", "import", str(file), "--name", "same"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=CHECKOUT)
            for file in files]
    told = [(run.wait(timeout=200), *run.communicate()) for run in runs]
    imported = [tag for tag, (code, out, _) in zip("abc", told) if code == 0 and "Imported" in out]
    assert len(imported) == 1, told
    for code, out, err in told:
        if code != 0:
            assert code == 2 and "Traceback" not in err, err
            assert ("Corpus 'same' is busy: another command is writing it" in err
                    or "A corpus named 'same' exists; pass --force" in err), err
    stored = open_corpus("same")
    assert len(stored) == ARTICLES and stored.articles[0].id == f"{imported[0]}0"


def test_a_second_writer_in_this_process_or_another_thread_is_told_busy():
    with writing_corpus("mine"):
        refused: list[BaseException] = []

        def other_writer():
            try:
                with writing_corpus("mine"):
                    pass
            except AspectNavError as error:
                refused.append(error)

        thread = threading.Thread(target=other_writer)
        thread.start()
        thread.join(30)
        assert len(refused) == 1 and str(refused[0]).startswith("Corpus 'mine' is busy: another command is writing it")
        with writing_corpus("other"):  # another name is not held
            pass
    with writing_corpus("mine"):  # let go once the writer is done
        pass
    assert "run it again once that has finished" in str(corpus_busy_error("x", "pid 1"))
