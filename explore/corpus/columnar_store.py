"""A corpus too large to hold as Python objects (a million articles): written once in batches, opened
memory-mapped, and read an article at a time.

Layout beside the usual sealed card (corpus.json): `articles.arrow` (Arrow IPC, the Parquet store's columns,
batches of BATCH_ROWS rows, uncompressed so the page cache serves reads with no copy), `ids.npy` /
`titles.npy` (each id's and title's 64-bit hash, sorted, beside its row: an id or a title finds its row with
one binary search), `incoming.npy` (links into each row: the tie-break of title search) and the title
index (explore/corpus/prefix_title_search.py). The card records every file's size and sha256, the sha256 of each
Arrow batch's bytes (`blocks`), and the statistics a whole pass would give (label counts, coverage): opening
checks only the file's head and footer (what Arrow parses on open), a batch is checked the first time one of
its rows is read and a lookup file the first time it is used, so nothing damaged is ever parsed or served and
opening a million articles stays cheap; `verify_columnar` reads everything when a check is wanted.
"""
from __future__ import annotations

import hashlib
import json
import logging
import shutil
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa

from explore.atomic_files import staging_directory_for, swap_directory_into_place
from explore.corpus.model import Article, Corpus, Provenance, reader_weights, site_name
from explore.corpus.prefix_title_search import FILES as TITLE_FILES
from explore.corpus.prefix_title_search import PrefixTitleSearch, write_title_index
from explore.corpus.stored_layout import CARD_FILE, SCHEMA, article_columns, article_from_row
from explore.errors import AspectNavError, DamagedCorpusError
from explore.json_seal import seal_problem, sealed
from explore.spaces.vector_index import file_sha256

FORMAT_VERSION = 1
LAYOUT = "columnar"
ARTICLES_ARROW = "articles.arrow"
IDS_FILE, TITLES_FILE, INCOMING_FILE = "ids.npy", "titles.npy", "incoming.npy"
BATCH_ROWS = 4096  # rows per Arrow batch: a row is found by division, and a card's read touches one batch
_CARD_KEYS = frozenset({"format_version", "layout", "name", "provenance", "content_hash", "rows", "files", "stats",
                        "label_counts", "from_wikipedia", "blocks"})
log = logging.getLogger(__name__)


def string_hashes(texts: Iterable[str]) -> np.ndarray:
    """64-bit hashes of strings (blake2b): the compact key of the id and title lookups."""
    return np.fromiter((int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
                        for text in texts), dtype=np.uint64)


def _sorted_lookup(hashes: np.ndarray) -> np.ndarray:
    """(hash, row) pairs sorted by hash, as one structured array."""
    order = np.argsort(hashes, kind="stable")
    table = np.empty(len(hashes), dtype=[("hash", "<u8"), ("row", "<i8")])
    table["hash"], table["row"] = hashes[order], order
    return table


class _Tally:
    """What `Corpus.stats` and friends count, gathered batch by batch while writing."""

    def __init__(self) -> None:
        self.labels: dict[str, Counter] = {}
        self.labelled: Counter = Counter()
        self.links = 0
        self.sites: set[str] = set()
        self.content = hashlib.sha256()

    def add(self, articles: list[Article]) -> None:
        for article in articles:
            self.links += len(article.links)
            if article.url:
                self.sites.add(site_name(article.url))
            for name, labels in article.aspects.items():
                counts = self.labels.setdefault(name, Counter())
                counts.update(labels)
                self.labelled[name] += bool(labels)
            # Corpus.content_hash, a batch at a time (tests hold the two equal)
            self.content.update(json.dumps([article.id, article.title, article.text]).encode() + b"\n")

    def stats(self, name: str, rows: int, provenance: Provenance) -> dict:
        aspects = {aspect: {"coverage": round(self.labelled[aspect] / rows, 4) if rows else 0.0,
                            "articles": self.labelled[aspect], "labels": len(counts),
                            "top": counts.most_common(10)} for aspect, counts in self.labels.items()}
        return {"name": name, "articles": rows, "links": self.links, "link_kind": provenance.links,
                "source": provenance.source, "aspects": aspects}


def save_columnar(name: str, provenance: Provenance | Callable[[], Provenance], batches: Iterable[list[Article]],
                  directory: Path, incoming: np.ndarray | None = None) -> Path:
    """Write articles arriving in batches into `directory`, replacing what was there only once all is written. Ids
    must be unique, as in `Corpus`. `provenance` may be a callable, asked once every batch is written (what the
    batches held can decide it). `incoming` (links into each row, when the caller counted them as it made the
    batches) spares a map of every id; then memory is one batch plus 16 bytes an article and the title index's sort."""
    directory = Path(directory)
    staging = staging_directory_for(directory)
    tally = _Tally()
    id_hashes, title_hashes = [], []
    spans: list[tuple[int, int]] = []  # each batch's bytes in the file: its block checksum covers them
    try:
        with pa.OSFile(str(staging / ARTICLES_ARROW), "wb") as sink, pa.ipc.new_file(sink, SCHEMA) as writer:
            head = sink.tell()
            pending: list[Article] = []
            for batch in batches:
                pending.extend(batch)
                while len(pending) >= BATCH_ROWS:
                    spans.append(_write_batch(sink, writer, pending[:BATCH_ROWS], tally, id_hashes, title_hashes))
                    del pending[:BATCH_ROWS]
            if pending:
                spans.append(_write_batch(sink, writer, pending, tally, id_hashes, title_hashes))
        provenance = provenance() if callable(provenance) else provenance
        arrow = staging / ARTICLES_ARROW
        blocks = _block_checksums(arrow, head, spans)
        ids = _sorted_lookup(np.concatenate(id_hashes) if id_hashes else np.zeros(0, np.uint64))
        _refuse_duplicate_ids(arrow, ids, name)
        rows = len(ids)
        if incoming is None:
            incoming = _incoming_links(arrow, rows)
        elif len(incoming) != rows:
            raise AspectNavError(f"Corpus {name!r}: {len(incoming)} incoming-link counts for {rows} articles")
        np.save(staging / IDS_FILE, ids)
        np.save(staging / TITLES_FILE, _sorted_lookup(np.concatenate(title_hashes) if title_hashes
                                                      else np.zeros(0, np.uint64)))
        np.save(staging / INCOMING_FILE, np.asarray(incoming, dtype=np.int32))
        write_title_index(staging, lambda: ((title, aliases) for batch in _iter_batches(arrow, ("title", "aliases"))
                                            for title, aliases in zip(batch["title"], batch["aliases"])))
        files = [ARTICLES_ARROW, IDS_FILE, TITLES_FILE, INCOMING_FILE, *TITLE_FILES]
        card = sealed({
            "format_version": FORMAT_VERSION,
            "layout": LAYOUT,
            "name": name,
            "provenance": asdict(provenance),
            "content_hash": tally.content.hexdigest()[:16],
            "rows": rows,
            "files": {f: {"bytes": (staging / f).stat().st_size, "sha256": file_sha256(staging / f)} for f in files},
            "stats": tally.stats(name, rows, provenance),
            "label_counts": {aspect: dict(counts) for aspect, counts in tally.labels.items()},
            "from_wikipedia": tally.sites == {"Wikipedia"},
            "blocks": blocks,
        })
        (staging / CARD_FILE).write_text(json.dumps(card, indent=2, ensure_ascii=False))
        swap_directory_into_place(staging, directory)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return directory


def in_batches(articles: Iterable[Article]) -> Iterator[list[Article]]:
    """Articles read a batch (BATCH_ROWS) at a time, for `save_columnar` (a lazy sequence stays lazy)."""
    batch: list[Article] = []
    for article in articles:
        batch.append(article)
        if len(batch) == BATCH_ROWS:
            yield batch
            batch = []
    if batch:
        yield batch


def _refuse_duplicate_ids(arrow: Path, ids: np.ndarray, name: str) -> None:
    """AspectNavError naming the first id stored twice: equal hashes side by side in the sorted lookup, their ids
    read back and compared (a hash collision of two different ids is no duplicate)."""
    same = np.flatnonzero(ids["hash"][1:] == ids["hash"][:-1])
    if not len(same):
        return
    with pa.OSFile(str(arrow), "rb") as source:
        reader = pa.ipc.open_file(source)

        def id_at(row: int) -> str:
            return reader.get_batch(row // BATCH_ROWS).column("id")[row % BATCH_ROWS].as_py()

        duplicates = [(int(min(ids["row"][i], ids["row"][i + 1])), id_at(int(ids["row"][i])))
                      for i in same if id_at(int(ids["row"][i])) == id_at(int(ids["row"][i + 1]))]
    if duplicates:
        raise AspectNavError(f"Corpus {name!r}: duplicate article id {min(duplicates)[1]!r}")


def _incoming_links(arrow: Path, rows: int) -> np.ndarray:
    """Links into each row, from every article's links (read again a batch at a time: held together they were most
    of the memory, 80 strings an article at real sizes) through a map of every id to its row."""
    position = {article_id: row for row, article_id in
                enumerate(article_id for batch in _iter_batches(arrow, ("id",)) for article_id in batch["id"])}
    incoming = np.zeros(rows, dtype=np.int32)
    for row_batch in _iter_batches(arrow, ("links",)):
        for targets in row_batch["links"]:
            for target in set(targets or ()):
                if target in position:
                    incoming[position[target]] += 1
    return incoming


def _write_batch(sink, writer, articles: list[Article], tally: _Tally, id_hashes: list[np.ndarray],
                 title_hashes: list[np.ndarray]) -> tuple[int, int]:
    """Write one batch, keeping its ids' and titles' hashes; returns the (start, end) of its bytes in the file."""
    tally.add(articles)
    id_hashes.append(string_hashes(article.id for article in articles))
    title_hashes.append(string_hashes(article.title for article in articles))
    start = sink.tell()
    writer.write_batch(pa.RecordBatch.from_pydict(article_columns(articles), schema=SCHEMA))
    return start, sink.tell()


def _block_checksums(path: Path, head: int, spans: list[tuple[int, int]]) -> dict:
    """sha256 of the file's head (magic and schema), of each batch's bytes and of the footer: together every byte
    of the file, each part checked before Arrow parses it."""
    size = path.stat().st_size
    tail = spans[-1][1] if spans else head
    with path.open("rb") as handle:  # read, not memory-mapped: a mapped file's pages would count as the writer's RSS

        def block(start: int, end: int) -> list:
            digest = hashlib.sha256()
            handle.seek(start)
            for offset in range(start, end, 4 << 20):
                digest.update(handle.read(min(4 << 20, end - offset)))
            return [start, end, digest.hexdigest()]

        return {"head": block(0, spans[0][0] if spans else head), "batches": [block(*span) for span in spans],
                "footer": block(tail, size)}


def _iter_batches(path: Path, columns: Sequence[str]) -> Iterator[dict[str, list]]:
    """Some columns of each stored batch in turn, read (not memory-mapped: the pages of a pass over the whole file
    would stay in the writer's RSS, growing with the corpus)."""
    with pa.OSFile(str(path), "rb") as source:
        reader = pa.ipc.open_file(source)
        for index in range(reader.num_record_batches):
            batch = reader.get_batch(index)
            yield {column: batch.column(column).to_pylist() for column in columns}


def _read_card(directory: Path) -> dict:
    try:
        card = json.loads((directory / CARD_FILE).read_text())
    except (OSError, ValueError) as exc:
        raise DamagedCorpusError(directory.name, f"its card cannot be read ({exc})") from exc
    problem = seal_problem(card, _CARD_KEYS) if isinstance(card, dict) else "it is not a JSON object"
    if problem:
        raise DamagedCorpusError(directory.name, f"{CARD_FILE} is damaged: {problem}")
    if card.get("format_version") != FORMAT_VERSION or card.get("layout") != LAYOUT:
        raise AspectNavError(f"Corpus at {directory} has format {card.get('format_version')} "
                             f"({card.get('layout')}), expected {FORMAT_VERSION} ({LAYOUT}).")
    return card


def load_columnar(directory: Path) -> "ColumnarCorpus":
    """Open a corpus written by `save_columnar`: its card's seal and every file's size are checked (a
    truncated or missing file fails here, naming it), and the head and footer of articles.arrow against their
    checksums; the texts are not read (each batch is checked when first read)."""
    directory = Path(directory)
    card = _read_card(directory)
    for file, entry in card["files"].items():
        try:
            size = (directory / file).stat().st_size
        except OSError as exc:
            raise DamagedCorpusError(directory.name, f"{file} cannot be read ({exc})") from exc
        if size != entry["bytes"]:
            raise DamagedCorpusError(directory.name, f"{file} has {size:,} bytes, its card says {entry['bytes']:,}")
    if "blocks" not in card:  # written before block checksums: checked whole, once per open
        log.info("Corpus %r has no block checksums (an older AspectNav stored it): checking %s whole; re-import "
                 "it to open it without that wait.", card["name"], ARTICLES_ARROW)
        _check_file(directory, ARTICLES_ARROW, card)
    try:
        return ColumnarCorpus(directory, card)
    except (OSError, ValueError, KeyError, pa.ArrowException) as exc:
        raise DamagedCorpusError(directory.name, f"its files cannot be read ({type(exc).__name__}: {exc})") from exc


def _check_file(directory: Path, file: str, card: dict) -> Path:
    """`directory / file`, after its sha256 matched the card's; DamagedCorpusError naming it otherwise."""
    path = Path(directory) / file
    try:
        digest = file_sha256(path)
    except OSError as exc:
        raise DamagedCorpusError(Path(directory).name, f"{file} cannot be read ({exc})") from exc
    if digest != card["files"][file]["sha256"]:
        raise DamagedCorpusError(Path(directory).name, f"{file} does not match the checksum saved with it")
    return path


def verify_columnar(directory: Path) -> None:
    """Read every file of a columnar corpus against the sha256 its card recorded (seconds per gigabyte)."""
    directory = Path(directory)
    card = _read_card(directory)
    for file in card["files"]:
        _check_file(directory, file, card)


class ArticleRows(Sequence):
    """The articles of a memory-mapped `articles.arrow` by row: each an `Article` made when asked for. With
    `blocks` (the card's), a batch's bytes are checked against their sha256 before Arrow first reads them."""

    def __init__(self, path: Path, rows: int, blocks: dict | None = None, corpus: str = ""):
        self._map = pa.memory_map(str(path), "r")
        self._blocks, self._corpus, self._length = blocks, corpus or path.parent.name, rows
        if blocks is not None:
            self._check(blocks["head"])
            self._check(blocks["footer"])
        self._reader = pa.ipc.open_file(self._map)
        expected = -(-rows // BATCH_ROWS)
        if self._reader.num_record_batches != expected or (blocks is not None and len(blocks["batches"]) != expected):
            raise DamagedCorpusError(self._corpus, f"{ARTICLES_ARROW} holds {self._reader.num_record_batches} batches, "
                                                   f"its card says {expected}")
        self._batches: list[pa.RecordBatch | None] = [None] * expected
        self._lock = threading.Lock()

    def _check(self, block: list) -> None:
        start, end, expected = block
        if hashlib.sha256(self._map.read_at(end - start, start)).hexdigest() != expected:
            raise DamagedCorpusError(self._corpus, f"{ARTICLES_ARROW} (bytes {start:,} to {end:,}) does not match "
                                                   "the checksum saved with it")

    def _batch(self, index: int) -> pa.RecordBatch:
        batch = self._batches[index]
        if batch is None:
            with self._lock:
                batch = self._batches[index]
                if batch is None:
                    if self._blocks is not None:
                        self._check(self._blocks["batches"][index])
                    batch = self._reader.get_batch(index)
                    if batch.num_rows != min(BATCH_ROWS, self._length - index * BATCH_ROWS):
                        raise DamagedCorpusError(self._corpus, f"{ARTICLES_ARROW} batch {index} holds "
                                                               f"{batch.num_rows} rows")
                    self._batches[index] = batch
        return batch

    def __len__(self) -> int:
        return self._length

    def _locate(self, row: int) -> tuple[pa.RecordBatch, int]:
        if not -self._length <= row < self._length:
            raise IndexError(row)
        row %= self._length
        return self._batch(row // BATCH_ROWS), row % BATCH_ROWS

    def __getitem__(self, row):
        if isinstance(row, slice):
            return [self[i] for i in range(*row.indices(self._length))]
        batch, offset = self._locate(int(row))
        values = batch.slice(offset, 1).to_pylist()[0]
        return article_from_row(values["id"], values["title"], values["text"], values["description"],
                                values["url"], values["links"], values["aspects"], values["aliases"],
                                values["inferred"], values.get("sources"))

    def value(self, row: int, column: str):
        """One cell (a title, an id) without making the Article."""
        batch, offset = self._locate(int(row))
        return batch.column(column)[offset].as_py()

    def __iter__(self) -> Iterator[Article]:
        for index in range(len(self._batches)):
            for values in self._batch(index).to_pylist():
                yield article_from_row(values["id"], values["title"], values["text"], values["description"],
                                       values["url"], values["links"], values["aspects"], values["aliases"],
                                       values["inferred"], values.get("sources"))


class _HashedRows(Mapping):
    """A str -> rows lookup over sorted 64-bit hashes, each hit checked against the stored column (a hash
    collision finds nothing it should not)."""

    def __init__(self, path: Path, rows: ArticleRows, column: str):
        self._table = np.load(path, mmap_mode="r")
        self._hashes = self._table["hash"]
        self._rows, self._column = rows, column

    def rows_of(self, text: str) -> list[int]:
        if not isinstance(text, str):
            return []
        value = string_hashes([text])[0]
        low, high = np.searchsorted(self._hashes, value, "left"), np.searchsorted(self._hashes, value, "right")
        return sorted(int(row) for row in self._table["row"][low:high] if self._rows.value(int(row), self._column) == text)

    def __len__(self) -> int:
        return len(self._hashes)

    def __iter__(self):
        return (self._rows.value(row, self._column) for row in range(len(self._rows)))


class IdRows(_HashedRows):
    """`Corpus.position` for a columnar corpus: id -> row."""

    def __getitem__(self, article_id: str) -> int:
        rows = self.rows_of(article_id)
        if not rows:
            raise KeyError(article_id)
        return rows[0]

    def __contains__(self, article_id: object) -> bool:
        return bool(self.rows_of(article_id))  # type: ignore[arg-type]


class TitleIds(_HashedRows):
    """`Corpus.ids_by_title` for a columnar corpus: title -> ids (titles need not be unique)."""

    def __getitem__(self, title: str) -> list[str]:
        rows = self.rows_of(title)
        if not rows:
            raise KeyError(title)
        return [self._rows.value(row, "id") for row in rows]

    def __contains__(self, title: object) -> bool:
        return bool(self.rows_of(title))  # type: ignore[arg-type]


class ColumnarCorpus(Corpus):
    """A `Corpus` whose articles stay on disk: the same questions (`find`, `search_titles`, `corpus[id]`,
    `position`, `stats`) answered from the memory-mapped files and the card, so the app and the CLI serve
    it unchanged. Iterating it reads every article (what a space's encoding needs, not what a page does)."""

    def __init__(self, directory: Path, card: dict):  # no dataclass __init__: nothing is loaded up front
        self.directory = Path(directory)
        self.name = card["name"]
        self.provenance = Provenance(**card["provenance"])
        self.card = card
        self.articles = ArticleRows(self.directory / ARTICLES_ARROW, card["rows"], card.get("blocks"), self.name)

    def __repr__(self) -> str:
        return f"ColumnarCorpus({self.name!r}, {len(self):,} articles at {self.directory})"

    @cached_property
    def position(self) -> IdRows:  # type: ignore[override]
        return IdRows(_check_file(self.directory, IDS_FILE, self.card), self.articles, "id")

    @cached_property
    def ids_by_title(self) -> TitleIds:  # type: ignore[override]
        return TitleIds(_check_file(self.directory, TITLES_FILE, self.card), self.articles, "title")

    @cached_property
    def incoming_counts(self) -> np.ndarray:
        """Links into each row, by row."""
        return np.load(_check_file(self.directory, INCOMING_FILE, self.card), mmap_mode="r")

    @cached_property
    def incoming_links(self) -> Counter:  # type: ignore[override]
        counts = self.incoming_counts
        return Counter({self.articles.value(int(row), "id"): int(counts[row]) for row in np.flatnonzero(counts)})

    @cached_property
    def title_search(self) -> PrefixTitleSearch:  # type: ignore[override]
        for file in TITLE_FILES:
            _check_file(self.directory, file, self.card)
        prominent = np.zeros(len(self.incoming_counts), dtype=bool)
        for article_id in self.prominent_ids:  # a few thousand ids at most, each one binary search
            rows = self.position.rows_of(article_id)
            prominent[rows] = True
        return PrefixTitleSearch(self.directory, lambda row: self.articles.value(row, "title"),
                                 lambda row: self.articles.value(row, "id"),
                                 reader_weights(self.incoming_counts, prominent))

    @cached_property
    def from_wikipedia(self) -> bool:  # type: ignore[override]
        said = " ".join([self.provenance.source, *map(str, self.provenance.details.values())]).lower()
        return "wikipedia" in said or self.provenance.source == "wikidata" or bool(self.card["from_wikipedia"])

    @cached_property
    def aspect_names(self) -> list[str]:  # type: ignore[override]
        return list(self.card["label_counts"])

    def label_counts(self, aspect: str) -> Counter:
        return Counter(self.card["label_counts"].get(aspect, {}))

    def coverage(self, aspect: str) -> float:
        return float(self.card["stats"]["aspects"].get(aspect, {}).get("coverage", 0.0))

    @property
    def link_count(self) -> int:
        return int(self.card["stats"]["links"])

    @property
    def content_hash(self) -> str:  # type: ignore[override]
        return self.card["content_hash"]

    def stats(self) -> dict:
        return self.card["stats"]
