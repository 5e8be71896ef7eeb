"""Save and load corpora as one Parquet file plus a JSON card, written atomically and checked on load."""
from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import asdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from explore.atomic_files import staging_directory_for, swap_directory_into_place
from explore.corpus.model import Corpus, Provenance
from explore.corpus.stored_layout import CARD_FILE, SCHEMA, article_columns, article_from_row
from explore.errors import AspectNavError, DamagedCorpusError
from explore.json_seal import seal_problem, sealed

FORMAT_VERSION = 1
ARTICLES_FILE = "articles.parquet"
_CARD_KEYS = frozenset({"format_version", "name", "provenance", "content_hash", "articles_sha256", "stats"})


def save_corpus(corpus: Corpus, directory: Path) -> Path:
    """Write `corpus` into `directory`, replacing what was there only once all is written."""
    directory = Path(directory)
    staging = staging_directory_for(directory)
    try:
        table = pa.table(article_columns(list(corpus)), schema=SCHEMA)
        pq.write_table(table, staging / ARTICLES_FILE)
        card = sealed({
            "format_version": FORMAT_VERSION,
            "name": corpus.name,
            "provenance": asdict(corpus.provenance),
            "content_hash": corpus.content_hash,
            "articles_sha256": hashlib.sha256((staging / ARTICLES_FILE).read_bytes()).hexdigest(),
            "stats": corpus.stats(),
        })
        (staging / CARD_FILE).write_text(json.dumps(card, indent=2, ensure_ascii=False))
        swap_directory_into_place(staging, directory)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return directory


def load_corpus(directory: Path) -> Corpus:
    """Read a corpus written by `save_corpus`. The card's own checksum, the file's checksum and the content hash
    must all match: a flipped byte would otherwise load as a renamed corpus or changed text, encoded into every space."""
    directory = Path(directory)
    # Imported here: the columnar store brings in explore.spaces, which only a large corpus needs.
    from explore.corpus.columnar_store import ARTICLES_ARROW, load_columnar

    if (directory / ARTICLES_ARROW).exists():  # a large corpus: memory-mapped, read row by row
        return load_columnar(directory)
    try:
        card = json.loads((directory / CARD_FILE).read_text())
        data = (directory / ARTICLES_FILE).read_bytes()
    except (OSError, ValueError) as exc:
        raise DamagedCorpusError(directory.name, f"its files cannot be read ({exc})") from exc
    problem = seal_problem(card, _CARD_KEYS) if isinstance(card, dict) else "it is not a JSON object"
    if problem:
        raise DamagedCorpusError(directory.name, f"{CARD_FILE} is damaged: {problem}")
    if card.get("format_version") != FORMAT_VERSION:
        version = card.get("format_version") if isinstance(card, dict) else None
        raise AspectNavError(f"Corpus at {directory} has format {version}, expected {FORMAT_VERSION}.")
    expected = card.get("articles_sha256")  # absent from corpora saved before it was added
    if expected is not None and hashlib.sha256(data).hexdigest() != expected:
        raise DamagedCorpusError(directory.name, f"{ARTICLES_FILE} does not match the checksum saved with it")
    try:
        # ParquetFile, not read_table: read_table imports pyarrow.dataset and pandas (~0.2 s of every start).
        # One thread: a threaded read starts Arrow's thread pool, whose workers a command's exit could tear
        # down while alive ("terminate called without an active exception"); a corpus file reads as fast alone.
        corpus = _corpus_from(card, pq.ParquetFile(pa.BufferReader(data)).read(use_threads=False).to_pydict())
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException) as exc:
        raise DamagedCorpusError(directory.name, f"its files cannot be read ({type(exc).__name__}: {exc})") from exc
    if corpus.content_hash != card.get("content_hash"):
        raise DamagedCorpusError(directory.name, f"its content hash is {corpus.content_hash}, "
                                                 f"not the {card.get('content_hash')} saved with it")
    return corpus


def _corpus_from(card: dict, table: dict[str, list]) -> Corpus:
    aliases = table.get("aliases") or [()] * len(table["id"])
    inferred_column = table.get("inferred") or ["{}"] * len(table["id"])  # stores written before it existed
    sources_column = table.get("sources") or ["{}"] * len(table["id"])
    articles = [
        article_from_row(id_, title, text, description, url, links, aspects, names, inferred, sources)
        for id_, title, text, description, url, links, aspects, names, inferred, sources in zip(
            table["id"], table["title"], table["text"], table["description"],
            table["url"], table["links"], table["aspects"], aliases, inferred_column, sources_column,
        )
    ]
    return Corpus(name=card["name"], articles=articles, provenance=Provenance(**card["provenance"]))
