"""Import a dump (CirrusSearch, MediaWiki XML export or WikiExtractor output: explore/corpus/dump_format.py) into a
corpus, streaming: memory is about flat in the articles kept and never grows with the dump (what must be looked up
for every article, the titles and ids seen and the link targets, is in on-disk tables: explore/corpus/dump_scratch.py).

With `top`, a first pass keeps only (popularity, line) of the best `top` pages in a heap; the second pass writes
the pages kept in batches of Parquet rows. A checkpoint after each batch (the line reached, the heap, the counts)
lets a killed import go on where it stopped when the same command runs again. Links are resolved to titles and
redirects of the kept articles only at the end (one join a thousand articles), so a link to an article past the cut
is dropped, never dangling.
"""
from __future__ import annotations

import hashlib
import heapq
import json
import logging
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import TextIO

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from explore.atomic_files import file_written_atomically
from explore.corpus.cirrus_dump import DumpPage, DumpSkip, SkipReason, normalize_title, open_dump, read_records
from explore.corpus.dump_format import DumpFormat, Reader, dump_format
from explore.corpus.dump_scratch import LinkTargets, SeenPages
from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.text_labels import with_text_labels
from explore.errors import AspectNavError, CorpusFormatError
from explore.json_seal import SEAL_KEY, seal_problem, sealed
from explore.names import check_name
from explore.settings import data_home
from explore.spaces.vector_index import file_sha256

BATCH_SIZE = 10_000
# Kept articles from which the corpus is stored columnar (memory-mapped, served without reading its texts; the
# same size from which a space keeps its vectors memory-mapped).
COLUMNAR_FROM = 200_000
EXAMPLES_KEPT = 10
# Articles whose links are resolved in one join: their ~80 links each, the keys and the answers, are what the import
# holds at once (a stored batch of 10,000 resolved whole was 200 MB more at real record sizes).
RESOLVE_ROWS = 1_000
CHECKPOINT_FILE = "checkpoint.json"
_HEAP_FILE = "heap.npy"
_SEEN_FILE, _TARGETS_FILE = "seen.sqlite", "targets.sqlite"  # scratch tables, rebuilt from the batches each run
log = logging.getLogger(__name__)
_ROWS = pa.schema([("line", pa.int64()), ("id", pa.string()), ("title", pa.string()), ("text", pa.string()),
                   ("url", pa.string()), ("links", pa.list_(pa.string())), ("aliases", pa.list_(pa.string()))])


@dataclass
class DumpCheckpoint:
    """How far an import of one dump got. `dump` identifies the file (path, size, mtime): a checkpoint of
    another file or another `top` is never resumed."""

    dump: dict
    top: int | None
    phase: str = "choose"  # "choose" (the --top pass), then "collect"
    line: int = 0  # lines of the dump done in this phase
    parts: int = 0  # Parquet batches written by "collect"
    skipped: dict[str, int] = field(default_factory=dict)  # SkipReason name -> records
    examples: list[str] = field(default_factory=list)  # the first skips, file, line and reason
    files: dict[str, str] = field(default_factory=dict)  # heap.npy and each part -> its sha256 when written


_CHECKPOINT_KEYS = frozenset(DumpCheckpoint.__dataclass_fields__)


@dataclass(frozen=True)
class DumpImportReport:
    """What the import kept and left out, and why."""

    articles: int
    skipped: dict[str, int]
    examples: tuple[str, ...]
    links_kept: int
    links_dropped: int
    resumed_from: str = ""  # where an interrupted import went on, e.g. "line 1200 of the import pass"
    restarted: str = ""  # why an interrupted import's saved state was not trusted (it started again)
    seconds: float = 0.0  # this run's time (a resumed import's earlier runs not counted)
    stored: Path | None = None  # where a columnar import already stored the corpus (None: the caller stores it)
    articles_this_run: int | None = None  # articles this run read from the dump (a resumed import: fewer than all)

    def speed(self) -> str:
        """This run's articles, time and rate: a resumed import counts only what it read itself."""
        articles = self.articles if self.articles_this_run is None else self.articles_this_run
        rate = f"{articles / max(self.seconds, 1e-9):,.0f} articles/s"
        if articles == self.articles:
            return f"in {self.seconds:.3g} s ({rate})"
        return f"this run read {articles} of them in {self.seconds:.3g} s ({rate}), the rest before it was resumed"

    def notes(self) -> list[str]:
        notes = []
        if self.resumed_from:
            notes.append(f"Resumed an interrupted import at {self.resumed_from}.")
        if self.restarted:
            notes.append(f"The saved state of an interrupted import could not be trusted ({self.restarted}): "
                         "started again from the beginning.")
        if self.skipped:
            total = sum(self.skipped.values())
            parts = ", ".join(f"{n} {SkipReason[name]}" for name, n in sorted(self.skipped.items(), key=lambda kv: -kv[1]))
            notes.append(f"Skipped {total} record{'s' if total != 1 else ''}: {parts}. First:")
            notes.extend(f"  {example}" for example in self.examples)
        notes.append(f"Kept {self.links_kept} links between kept articles; dropped {self.links_dropped} to pages "
                     f"not in the corpus (other namespaces, redirects to them, or past --top).")
        return notes


def import_dump(path: Path, name: str, top: int | None = None, *, batch_size: int = BATCH_SIZE,
                progress: bool | None = None, progress_file: TextIO | None = None,
                on_checkpoint: Callable[[DumpCheckpoint], None] | None = None,
                columnar: bool | None = None) -> tuple[Corpus, DumpImportReport]:
    """Read the dump at `path` into a corpus named `name` (the `top` most popular articles, if given), resuming a
    checkpoint of the same dump and `top`. The caller stores the corpus, then calls `finish_import(name)` — unless
    it was stored columnar (`columnar`, or by default from `COLUMNAR_FROM` articles): then `report.stored` says
    where, and the corpus returned is the stored one, opened memory-mapped."""
    path = Path(path)
    check_name(name, "corpus")
    if top is not None and top < 1:
        raise AspectNavError(f"--top must be at least 1, not {top}.")
    started = time.perf_counter()
    fmt = dump_format(path)
    if top is not None and not fmt.ranks_pages:
        raise AspectNavError(f"--top ranks pages by their popularity_score, which only a CirrusSearch dump carries; "
                             f"{path} is {fmt}. Import it without --top.")
    work = work_dir(name)
    checkpoint, restarted = _resumable(work, path, top)
    resumed_from = ""
    if checkpoint.line or checkpoint.parts or (checkpoint.phase == "collect" and top is not None):
        stage = "the --top pass" if checkpoint.phase == "choose" else "the import pass"
        resumed_from = f"{fmt.positions} {checkpoint.line} of {stage}"
    _save_checkpoint(work, checkpoint)
    bar = _Progress(path, progress, progress_file)
    chosen: set[int] | None = None
    if top is not None:
        if checkpoint.phase == "choose":
            _choose(path, top, work, checkpoint, batch_size, bar, on_checkpoint)
        chosen = set(np.load(work / _HEAP_FILE)[:, 1].astype(np.int64).tolist()) if (work / _HEAP_FILE).exists() else set()
    rows_before = _rows(_parts(work, checkpoint.parts))
    _collect(path, fmt.reader, chosen, work, checkpoint, batch_size, bar, on_checkpoint)
    bar.close()
    rows = _rows(_stored_parts(work))
    stored = None
    if rows and (columnar if columnar is not None else rows >= COLUMNAR_FROM):
        from explore.corpus.columnar_store import load_columnar
        from explore.corpus.registry import corpus_path

        stored = corpus_path(name)
        _, kept, dropped = _assemble_columnar(path, fmt, name, top, work, stored)
        corpus = load_columnar(stored)
    else:
        corpus, kept, dropped = _assemble(path, fmt, name, top, work)
    if not len(corpus):
        raise CorpusFormatError(f"{path}: no articles (every record was skipped: "
                                f"{', '.join(checkpoint.examples[:3]) or 'the file is empty'})")
    report = DumpImportReport(len(corpus), dict(checkpoint.skipped), tuple(checkpoint.examples), kept, dropped,
                              resumed_from, restarted, time.perf_counter() - started, stored, rows - rows_before)
    return corpus, report


def _rows(parts: list[Path]) -> int:
    return sum(pq.ParquetFile(part).metadata.num_rows for part in parts)


def work_dir(name: str) -> Path:
    """Where an import of corpus `name` keeps its checkpoint and batches until the corpus is stored."""
    return data_home() / "dump-imports" / check_name(name, "corpus")


def finish_import(name: str) -> None:
    """Forget the checkpoint and batches, once the corpus they made is stored."""
    shutil.rmtree(work_dir(name), ignore_errors=True)


def _identity(path: Path) -> dict:
    stat = path.stat()
    return {"path": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _resumable(work: Path, path: Path, top: int | None) -> tuple[DumpCheckpoint, str]:
    """The checkpoint to go on from, or a fresh one (a stale work folder of another dump or `top` is cleared), and
    why a saved one was not trusted ("" when none was damaged): the checkpoint carries its own checksum and the
    sha256 of every file it resumes from, so a flipped bit never changes what the import keeps."""
    try:
        identity = _identity(path)
    except OSError as exc:
        raise CorpusFormatError(f"{path}: cannot be read ({exc.strerror})") from exc
    problem = ""
    if (work / CHECKPOINT_FILE).exists():
        try:
            saved = _load_checkpoint(work)
        except _DamagedState as exc:
            problem = str(exc)
        else:
            if saved.dump == identity and saved.top == top:
                problem = _files_problem(work, saved)
                if not problem:
                    return saved, ""
    if problem:
        log.warning("Import of %s: its saved state in %s cannot be trusted (%s); starting again.", path, work, problem)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    return DumpCheckpoint(dump=identity, top=top, phase="choose" if top is not None else "collect"), problem


class _DamagedState(ValueError):
    pass


def _load_checkpoint(work: Path) -> DumpCheckpoint:
    """The sealed checkpoint of `work`; _DamagedState says why it cannot be trusted."""
    try:
        record = json.loads((work / CHECKPOINT_FILE).read_text())
    except (OSError, ValueError) as exc:
        raise _DamagedState(f"{CHECKPOINT_FILE} cannot be read: {exc}") from None
    if not isinstance(record, dict) or SEAL_KEY not in record:
        raise _DamagedState(f"{CHECKPOINT_FILE} has no checksum")
    problem = seal_problem(record, _CHECKPOINT_KEYS)
    if problem:
        raise _DamagedState(f"{CHECKPOINT_FILE} {problem}")
    try:
        return DumpCheckpoint(**{key: value for key, value in record.items() if key != SEAL_KEY})
    except TypeError as exc:
        raise _DamagedState(f"{CHECKPOINT_FILE} {exc}") from None


def _files_problem(work: Path, checkpoint: DumpCheckpoint) -> str:
    """Why the files the checkpoint resumes from cannot be trusted, or ""."""
    needed = [part.name for part in _parts(work, checkpoint.parts)]
    if (work / _HEAP_FILE).exists() or _HEAP_FILE in checkpoint.files:
        needed.append(_HEAP_FILE)
    for name in needed:
        if name not in checkpoint.files:
            return f"{name} has no checksum"
        try:
            digest = file_sha256(work / name)
        except OSError as exc:
            return f"{name} cannot be read ({exc.strerror or exc})"
        if digest != checkpoint.files[name]:
            return f"{name} does not match the checksum saved with it"
    return ""


def _save_checkpoint(work: Path, checkpoint: DumpCheckpoint) -> None:
    with file_written_atomically(work / CHECKPOINT_FILE) as staging:
        staging.write_text(json.dumps(sealed(asdict(checkpoint))))


def _count_skip(checkpoint: DumpCheckpoint, skip: DumpSkip) -> None:
    checkpoint.skipped[skip.reason.name] = checkpoint.skipped.get(skip.reason.name, 0) + 1
    if len(checkpoint.examples) < EXAMPLES_KEPT:
        checkpoint.examples.append(skip.message)


def _choose(path, top, work, checkpoint, batch_size, bar, on_checkpoint) -> None:
    """First pass: the `top` pages by popularity (ties: the earlier line), as (popularity, line) in a heap."""
    heap: list[tuple[float, int]] = []
    if (work / _HEAP_FILE).exists():
        heap = [(float(p), -int(line)) for p, line in np.load(work / _HEAP_FILE)]
        heapq.heapify(heap)
    stream, raw = open_dump(path)
    bar.start("choosing --top", raw, checkpoint.line)
    since = 0
    with stream:
        for item in read_records(path, stream, checkpoint.line, raw):
            if isinstance(item, int):
                if since >= batch_size:
                    _checkpoint_heap(work, heap, checkpoint, item, on_checkpoint)
                    since = 0
                bar.advance(item)
                continue
            since += 1
            if isinstance(item, DumpSkip):
                _count_skip(checkpoint, item)
                continue
            bar.article()
            entry = (item.popularity, -item.line)
            if len(heap) < top:
                heapq.heappush(heap, entry)
            elif entry > heap[0]:
                heapq.heapreplace(heap, entry)
    _checkpoint_heap(work, heap, checkpoint, None, on_checkpoint)


def _checkpoint_heap(work, heap, checkpoint, line, on_checkpoint) -> None:
    rows = np.array([(p, -negative_line) for p, negative_line in heap], dtype=np.float64).reshape(-1, 2)
    with file_written_atomically(work / _HEAP_FILE, suffix=".npy") as staging:
        np.save(staging, rows)
        checkpoint.files[_HEAP_FILE] = file_sha256(staging)
    if line is None:
        checkpoint.phase, checkpoint.line = "collect", 0
    else:
        checkpoint.line = line
    _save_checkpoint(work, checkpoint)
    if on_checkpoint:
        on_checkpoint(checkpoint)


def _collect(path, reader: Reader, chosen, work, checkpoint, batch_size, bar, on_checkpoint) -> None:
    """Second pass: the kept pages in Parquet batches; a title or id seen before is a duplicate, skipped."""
    seen = SeenPages(work / _SEEN_FILE)
    for part in _parts(work, checkpoint.parts):
        table = pq.read_table(part, columns=["line", "id", "title"], use_threads=False).to_pydict()
        seen.add(zip(table["title"], table["id"], table["line"]))
    try:
        _collect_pages(path, reader, chosen, work, checkpoint, batch_size, bar, on_checkpoint, seen)
    finally:
        seen.close()


def _collect_pages(path, reader: Reader, chosen, work, checkpoint, batch_size, bar, on_checkpoint,
                   seen: SeenPages) -> None:
    counts_skips = chosen is None  # with --top the first pass counted them
    rows: list[DumpPage] = []
    stream, raw = open_dump(path)
    bar.start("importing", raw, checkpoint.line)
    with stream:
        for item in reader(path, stream, checkpoint.line, raw):
            if isinstance(item, int):
                if len(rows) >= batch_size:
                    _write_batch(work, rows, checkpoint, item, on_checkpoint)
                    rows = []
                bar.advance(item)
                continue
            if isinstance(item, DumpSkip):
                if counts_skips:
                    _count_skip(checkpoint, item)
                continue
            if chosen is not None and item.line not in chosen:
                continue
            first = seen.first(item.title, item.id)
            if first is not None:
                what = f"title {item.title!r}" if first[0] == "title" else f"id {item.id!r}"
                _count_skip(checkpoint, DumpSkip(item.line, SkipReason.DUPLICATE,
                                                 f"{path}, line {item.line}: duplicate {what} (first on line {first[1]})"))
                continue
            seen.add([(item.title, item.id, item.line)])
            rows.append(item)
            bar.article()
    if rows:
        _write_batch(work, rows, checkpoint, None, on_checkpoint)


def _parts(work: Path, count: int) -> list[Path]:
    return [work / f"part-{index:05d}.parquet" for index in range(count)]


def _write_batch(work, rows, checkpoint, line, on_checkpoint) -> None:
    table = pa.table({
        "line": [r.line for r in rows], "id": [r.id for r in rows], "title": [r.title for r in rows],
        "text": [r.lead for r in rows], "url": [r.url for r in rows], "links": [list(r.links) for r in rows],
        "aliases": [list(r.aliases) for r in rows],
    }, schema=_ROWS)
    part = work / f"part-{checkpoint.parts:05d}.parquet"
    with file_written_atomically(part, suffix=".parquet") as staging:
        pq.write_table(table, staging)
        checkpoint.files[part.name] = file_sha256(staging)
    checkpoint.parts += 1
    checkpoint.line = line if line is not None else checkpoint.line
    _save_checkpoint(work, checkpoint)
    if on_checkpoint:
        on_checkpoint(checkpoint)


def _assemble(path: Path, fmt: DumpFormat, name: str, top: int | None, work: Path) -> tuple[Corpus, int, int]:
    """The kept articles in dump order, each link resolved through the kept titles, then their redirects."""
    links = _ResolvedLinks(work)
    articles = [article for batch in links.batches() for article in batch]
    return (Corpus(name=name, articles=articles, provenance=_provenance(path, fmt, top, links.kept)), links.kept,
            links.dropped)


def _assemble_columnar(path: Path, fmt: DumpFormat, name: str, top: int | None, work: Path,
                       directory: Path) -> tuple[int, int, int]:
    """`_assemble` written straight into a columnar store at `directory`, one batch at a time, with the incoming
    links counted as they are resolved: no article's text, links or title stays in memory after its batch. Returns
    (articles, links kept, links dropped)."""
    from explore.corpus.columnar_store import save_columnar

    links = _ResolvedLinks(work)
    save_columnar(name, lambda: _provenance(path, fmt, top, links.kept), links.batches(), directory,
                  incoming=links.incoming)
    return links.rows, links.kept, links.dropped


def _stored_parts(work: Path) -> list[Path]:
    return _parts(work, _load_checkpoint(work).parts)


class _ResolvedLinks:
    """The stored batches as articles, each link resolved (first mention, no self-links) to the id of the kept
    article whose title, then whose redirect, it names (normalised), through an on-disk table; the links kept and
    dropped and the links into each row counted on the way. `batches()` is read once."""

    def __init__(self, work: Path):
        self.parts = _stored_parts(work)
        self.rows = _rows(self.parts)
        self.kept = self.dropped = 0
        self.incoming = np.zeros(self.rows, dtype=np.int32)
        self._targets = LinkTargets(work / _TARGETS_FILE)
        try:
            for columns in (["id", "title"], ["id", "aliases"]):  # every title before any redirect claims one
                row = 0
                for part in self.parts:
                    table = pq.read_table(part, columns=columns, use_threads=False).to_pydict()
                    if columns[1] == "title":
                        self._targets.add((normalize_title(title), row + i, id_)
                                          for i, (id_, title) in enumerate(zip(table["id"], table["title"])))
                    else:
                        self._targets.add((normalize_title(alias), row + i, id_)
                                          for i, (id_, aliases) in enumerate(zip(table["id"], table["aliases"]))
                                          for alias in aliases)
                    row += len(table["id"])
        except BaseException:
            self._targets.close()
            raise

    def batches(self) -> Iterator[list[Article]]:
        try:
            for part in self.parts:
                for rows in pq.ParquetFile(part).iter_batches(RESOLVE_ROWS, use_threads=False):  # no pool to outlive the command
                    yield self._articles(rows.to_pydict())
        finally:
            self._targets.close()

    def _articles(self, table: dict[str, list]) -> list[Article]:
        found = iter(self._targets.resolve([normalize_title(link) for links in table["links"] for link in links]))
        articles, into = [], []
        for id_, title, text, url, links, aliases in zip(table["id"], table["title"], table["text"], table["url"],
                                                         table["links"], table["aliases"]):
            resolved = [next(found) for _ in links]
            own = {to: row for row, to in resolved if to is not None and to != id_}
            self.kept += len(own)
            self.dropped += sum(1 for _, to in resolved if to is None)
            into += own.values()
            # where and when from the lead's first sentence (a dump has no short descriptions): text_labels.py
            articles.append(with_text_labels(Article(id=id_, title=title.strip(), text=text.strip(), url=url,
                                                     links=tuple(own), aliases=tuple(aliases))))
        np.add.at(self.incoming, np.asarray(into, dtype=np.int64), 1)
        return articles


def _provenance(path: Path, fmt: DumpFormat, top: int | None, links_kept: int) -> Provenance:
    return Provenance(
        source=f"{fmt} {path.name}",
        date=date.today().isoformat(),
        links="hyperlinks" if links_kept else "none",
        details={"file": str(path.resolve()), "top": str(top) if top else "all",
                 "dump_sha256_head": _head_digest(path)},
    )


def _head_digest(path: Path) -> str:
    """A digest of the dump's first MiB: tells two dumps apart without reading tens of GB again."""
    with path.open("rb") as handle:
        return hashlib.sha256(handle.read(1 << 20)).hexdigest()[:16]


class _Progress:
    """A tqdm bar over the dump's compressed bytes (so the ETA holds for any size), articles/s beside it.
    disable=None: drawn only on a terminal, unless asked for."""

    def __init__(self, path: Path, enabled: bool | None, file: TextIO | None):
        self.size = path.stat().st_size
        self.enabled, self.file = enabled, file
        self.bar = None
        self.articles = 0
        self._since = 0

    def start(self, stage: str, raw, line: int) -> None:
        from tqdm import tqdm

        self.close()
        self.raw, self.articles, self.began = raw, 0, time.perf_counter()
        self.bar = tqdm(total=self.size, desc=stage, unit="B", unit_scale=True, file=self.file,
                        disable=None if self.enabled is None else not self.enabled, mininterval=0.5)
        if line:
            self.bar.set_description(f"{stage} (resumed at line {line})")

    def article(self) -> None:
        self.articles += 1

    def advance(self, line: int) -> None:
        self._since += 1
        if self.bar is None or self.bar.disable or self._since < 256:
            return
        self._since = 0
        self.bar.update(self.raw.tell() - self.bar.n)
        rate = self.articles / max(time.perf_counter() - self.began, 1e-9)
        self.bar.set_postfix_str(f"{self.articles} articles, {rate:,.0f} articles/s", refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            if not self.bar.disable:
                self.bar.update(self.size - self.bar.n)
                rate = self.articles / max(time.perf_counter() - self.began, 1e-9)
                self.bar.set_postfix_str(f"{self.articles} articles, {rate:,.0f} articles/s", refresh=True)
            self.bar.close()
            self.bar = None
