"""Issue #38, item 3: a columnar corpus serves only bytes that match the checksums saved with them. A flipped bit
or a 4-byte overwrite of a file of the same size is a DamagedCorpusError naming the file on first read (never a
crash, never a changed link); opening stays cheap: each block of articles.arrow is checked when first read."""
from __future__ import annotations

import json

import pytest

from explore.corpus.columnar_store import ARTICLES_ARROW, IDS_FILE, save_columnar
from explore.corpus.model import Article, Provenance
from explore.corpus.store import load_corpus
from explore.corpus.stored_layout import CARD_FILE
from explore.errors import DamagedCorpusError
from explore.json_seal import SEAL_KEY, sealed

ROWS = 9000  # three Arrow batches of 4096 rows


def articles():
    return [Article(f"Q{i}", f"Title {i}", f"Lead of article {i}.", url=f"https://en.wikipedia.org/wiki/Title_{i}",
                    links=(f"Q{(i + 1) % ROWS}",), aspects={"country": (f"c{i % 7}",)}) for i in range(ROWS)]


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    directory = tmp_path_factory.mktemp("columnar") / "big"
    save_columnar("big", Provenance("test", "2026"), [articles()], directory)
    return directory


def copy_of(stored, tmp_path):
    target = tmp_path / "big"
    target.mkdir()
    for path in stored.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    return target


def read_everything(directory):
    corpus = load_corpus(directory)
    for article in corpus:
        assert "wikipedia.org" in article.url
    return corpus


def test_one_flipped_bit_in_a_link_is_refused_not_served(stored, tmp_path):
    directory = copy_of(stored, tmp_path)
    data = bytearray((directory / ARTICLES_ARROW).read_bytes())
    at = data.index(b"en.wikipedia.org/wiki/Title_5000")
    data[at + len("en.wikipe")] ^= ord("i") ^ ord("h")  # wikipedia -> wikipedha
    (directory / ARTICLES_ARROW).write_bytes(bytes(data))
    corpus = load_corpus(directory)  # opening reads no text
    assert corpus["Q10"].url.endswith("Title_10")  # another block is served
    with pytest.raises(DamagedCorpusError, match=f"{ARTICLES_ARROW}.*checksum.*Re-import"):
        corpus["Q5000"]


@pytest.mark.parametrize("where", [0.0, 0.001, 0.3, 0.5, 0.7, 0.999, 1.0])
def test_a_four_byte_overwrite_anywhere_is_a_clear_error(stored, tmp_path, where):
    directory = copy_of(stored, tmp_path)
    data = bytearray((directory / ARTICLES_ARROW).read_bytes())
    at = min(int(len(data) * where), len(data) - 4)
    data[at:at + 4] = b"\xff\xff\xff\x7f"
    (directory / ARTICLES_ARROW).write_bytes(bytes(data))
    with pytest.raises(DamagedCorpusError, match=ARTICLES_ARROW):
        read_everything(directory)


def test_a_damaged_lookup_file_is_named(stored, tmp_path):
    directory = copy_of(stored, tmp_path)
    data = bytearray((directory / IDS_FILE).read_bytes())
    data[-5] ^= 1
    (directory / IDS_FILE).write_bytes(bytes(data))
    with pytest.raises(DamagedCorpusError, match=IDS_FILE):
        load_corpus(directory)["Q7"]


def test_a_card_from_before_the_block_checksums_is_checked_whole_on_open(stored, tmp_path):
    directory = copy_of(stored, tmp_path)
    card = json.loads((directory / CARD_FILE).read_text())
    old = sealed({key: value for key, value in card.items() if key not in ("blocks", SEAL_KEY)})
    (directory / CARD_FILE).write_text(json.dumps(old))
    assert load_corpus(directory)["Q5"].title == "Title 5"
    data = bytearray((directory / ARTICLES_ARROW).read_bytes())
    data[len(data) // 2] ^= 1
    (directory / ARTICLES_ARROW).write_bytes(bytes(data))
    with pytest.raises(DamagedCorpusError, match=f"{ARTICLES_ARROW} does not match"):
        load_corpus(directory)
