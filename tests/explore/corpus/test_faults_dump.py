"""Issue #38, items 8 and 9: a damaged dump or an odd record is said in words, at its byte or line, never a
traceback; line numbers stay exact after an overlong line; one absurd number is its record's problem only."""
from __future__ import annotations

import bz2
import gzip
import json
import random

import pytest

from explore.cli import main
from explore.corpus.cirrus_dump import SkipReason
from explore.corpus.dump_import import import_dump
from explore.errors import CorpusFormatError
from tests.explore.corpus.test_dump_import import Interrupted, interrupt_after

PAGES = 400


def dump_lines(pages: int = PAGES, popularity=None, long_line_at: int | None = None) -> list[str]:
    """Action line + page document per page ((2 * page + 1, 2 * page + 2) are page's lines, 0-based page)."""
    lines = []
    for page in range(pages):
        lines.append(json.dumps({"index": {"_id": str(page)}}))
        doc = {"title": f"Page {page}", "opening_text": f"Lead of page {page} " + "words " * 40, "wiki": "enwiki",
               "namespace": 0, "popularity_score": 0.001 * page, "outgoing_link": [f"Page_{page + 1}"]}
        if popularity is not None and page == 1:
            doc["popularity_score"] = popularity
        lines.append(json.dumps(doc))
    if long_line_at is not None:
        lines.insert(long_line_at - 1, '{"title": "' + "x" * (3 << 20) + '"}')
    return lines


def write(path, lines, opener):
    with opener(path, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("opener, suffix", [(gzip.open, ".json.gz"), (bz2.open, ".json.bz2")])
def test_a_truncated_dump_is_said_with_the_byte_it_ends_at(tmp_path, capsys, opener, suffix):
    path = write(tmp_path / f"enwiki{suffix}", dump_lines(), opener)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    with pytest.raises(CorpusFormatError, match=r"truncated or damaged at about byte [\d,]+ of [\d,]+"):
        import_dump(path, "cut")
    assert main(["corpus", "import-dump", str(path), "--name", "cut"]) == 2
    err = capsys.readouterr().err
    assert "truncated or damaged" in err and "Traceback" not in err and "operating system" not in err


@pytest.mark.parametrize("opener, suffix", [(gzip.open, ".json.gz"), (bz2.open, ".json.bz2")])
def test_a_flipped_bit_is_damage_not_a_disk_refusal(tmp_path, capsys, opener, suffix):
    path = write(tmp_path / f"enwiki{suffix}", dump_lines(), opener)
    data = bytearray(path.read_bytes())
    random.Random(3).shuffle(spots := list(range(len(data) // 3, len(data) * 2 // 3)))
    for spot in spots[:40]:  # enough flips that the stream's own checks must notice
        data[spot] ^= 0x10
    path.write_bytes(bytes(data))
    assert main(["corpus", "import-dump", str(path), "--name", "flip"]) == 2
    err = capsys.readouterr().err
    assert "truncated or damaged at about byte" in err and "operating system" not in err and "Traceback" not in err


def test_an_absurd_popularity_skips_that_record_only(tmp_path):
    path = write(tmp_path / "enwiki.json.gz", dump_lines(popularity=int("9" * 4000)), gzip.open)
    corpus, report = import_dump(path, "absurd", top=10)
    assert len(corpus) == 10 and "Page 1" not in {a.title for a in corpus}
    assert report.skipped == {SkipReason.INVALID.name: 1}
    assert "line 4" in report.examples[0] and "popularity_score" in report.examples[0]


def test_line_numbers_stay_exact_after_a_line_over_one_mib(tmp_path):
    lines = dump_lines(20, long_line_at=3)
    lines[10] = '{"title": "Broken", "opening_text": "cut off'  # line 11 of the file
    path = write(tmp_path / "enwiki.json.gz", lines, gzip.open)
    _, report = import_dump(path, "long")
    assert report.skipped[SkipReason.BAD_LINE.name] == 2  # the long line once, the broken one once
    assert report.examples[0].endswith("line 3: the fields this import keeps (title, lead, links, redirects) are "
                                       "longer than 1 MiB, the limit for one article")
    assert "line 11: not valid JSON" in report.examples[1]


def _flip_last_row(path):
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x40  # inside the last (popularity, line) row of heap.npy: another line is chosen
    path.write_bytes(bytes(data))


def _truncate(path):
    path.write_bytes(path.read_bytes()[:-16])


def _edit_checkpoint(path):
    path.write_text(path.read_text().replace('"line": ', '"line": 1', 1))


@pytest.mark.parametrize("damage, file, checkpoints", [
    (_flip_last_row, "heap.npy", 3), (_truncate, "heap.npy", 3), (_flip_last_row, "part-00000.parquet", 13),
    (_edit_checkpoint, "checkpoint.json", 3)], ids=["heap flipped", "heap cut", "batch flipped", "checkpoint edited"])
def test_damaged_resume_state_is_never_resumed(tmp_path, damage, file, checkpoints):
    """Issue #38, item 5: the checkpoint seals itself and the sha256 of every file it resumes from."""
    from explore.corpus.dump_import import work_dir

    path = write(tmp_path / "enwiki.json.gz", dump_lines(), gzip.open)
    whole, _ = import_dump(path, "whole", top=150)
    with pytest.raises(Interrupted):
        import_dump(path, "resumed", top=150, batch_size=40, on_checkpoint=interrupt_after(checkpoints))
    damage(work_dir("resumed") / file)
    resumed, report = import_dump(path, "resumed", top=150, batch_size=40)
    assert len(resumed) == 150 and resumed.content_hash == whole.content_hash
    assert report.resumed_from == ""
    assert any(f"{file} " in note and "started again" in note for note in report.notes()), report.notes()


def test_a_jsonl_corpus_or_a_wikidata_dump_is_named_from_its_first_lines_with_the_right_command(tmp_path, capsys,
                                                                                                 monkeypatch):
    from explore.corpus import dump_import

    jsonl = tmp_path / "mine.jsonl"
    lines = [json.dumps({"id": f"a{i}", "title": f"Article {i}", "text": "A lead."}) for i in range(50_000)]
    jsonl.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(dump_import, "open_dump", lambda path: pytest.fail("the import pass began"))
    assert main(["corpus", "import-dump", str(jsonl), "--name", "mine"]) == 2  # told from its first lines
    err = capsys.readouterr().err
    assert f"{jsonl}: a JSONL corpus" in err and f"`aspectnav corpus import {jsonl} --name NAME`" in err
    wikidata = tmp_path / "latest-all.json.gz"
    write(wikidata, ["[", '{"type":"item","id":"Q1","labels":{}},', '{"type":"item","id":"Q2","labels":{}}', "]"],
          gzip.open)
    assert main(["corpus", "import-dump", str(wikidata), "--name", "wd"]) == 2
    err = capsys.readouterr().err
    assert "a Wikidata JSON dump" in err and f"--wikidata-dump {wikidata}" in err
