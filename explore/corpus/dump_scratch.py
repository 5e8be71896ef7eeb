"""What a dump import must look up for every article, kept on disk (SQLite) instead of in Python dicts: the titles
and ids already imported (a duplicate is skipped) and the titles and redirects a link can name. At 6.8M articles and
about 10M redirects those dicts were gigabytes; a table costs the import a page cache of fixed size.

Each table is scratch, rebuilt from the checksummed Parquet batches whenever an import starts or resumes, so it never
needs its own checksum or journal (journal and fsync off, the fastest SQLite writes).
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path

# SQLite's page cache for one table, in KiB (negative cache_size): the import's memory for it whatever the corpus size.
CACHE_KIB = 16 * 1024


def _scratch_database(path: Path) -> sqlite3.Connection:
    path.unlink(missing_ok=True)
    database = sqlite3.connect(path, isolation_level=None)  # autocommit: with no journal, nothing to roll back
    for pragma in ("journal_mode = OFF", "synchronous = OFF", f"cache_size = -{CACHE_KIB}", "temp_store = FILE",
                   "locking_mode = EXCLUSIVE"):
        database.execute(f"PRAGMA {pragma}")
    database.execute("BEGIN")  # one transaction for the table's life: it is dropped, never committed for later
    return database


class SeenPages:
    """The titles and ids imported so far, each with the line it came from: a later record with either is a duplicate."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._db = _scratch_database(self.path)
        self._db.execute("CREATE TABLE title (title TEXT PRIMARY KEY, line INTEGER) WITHOUT ROWID")
        self._db.execute("CREATE TABLE id (id TEXT PRIMARY KEY, line INTEGER) WITHOUT ROWID")

    def add(self, pages: Iterable[tuple[str, str, int]]) -> None:
        """(title, id, line) of pages kept, in dump order: the first line of a title or id is the one remembered."""
        pages = list(pages)
        self._db.executemany("INSERT OR IGNORE INTO title VALUES (?, ?)", ((t, line) for t, _, line in pages))
        self._db.executemany("INSERT OR IGNORE INTO id VALUES (?, ?)", ((i, line) for _, i, line in pages))

    def first(self, title: str, page_id: str) -> tuple[str, int] | None:
        """("title", line) or ("id", line) of the page kept before with this title (checked first) or id; None if new."""
        for what, column, value in (("title", "title", title), ("id", "id", page_id)):
            found = self._db.execute(f"SELECT line FROM {column} WHERE {column} = ?", (value,)).fetchone()
            if found:
                return what, found[0]
        return None

    def close(self) -> None:
        self._db.close()
        self.path.unlink(missing_ok=True)


class LinkTargets:
    """Normalised title → (row, id) of the article a link to it means: every kept title first, then every redirect
    (`add` in that order; the first to claim a title keeps it, as the import always resolved). Links are resolved a
    batch at a time in one join, never one query per link."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._db = _scratch_database(self.path)
        self._db.execute("CREATE TABLE target (key TEXT PRIMARY KEY, row INTEGER, id TEXT) WITHOUT ROWID")

    def add(self, targets: Iterable[tuple[str, int, str]]) -> None:
        """(normalised title, row, id) triples; a title already claimed keeps its first article."""
        self._db.executemany("INSERT OR IGNORE INTO target VALUES (?, ?, ?)", targets)

    def resolve(self, keys: list[str]) -> list[tuple[int, str] | tuple[None, None]]:
        """Each normalised title's (row, id), or (None, None) where no kept article or redirect has it; in the given
        order (the keys go in as one JSON array: one statement, not one per link)."""
        if not keys:
            return []
        return self._db.execute("SELECT t.row, t.id FROM json_each(?) AS k LEFT JOIN target AS t ON t.key = k.value "
                                "ORDER BY k.key", (json.dumps(keys, ensure_ascii=False),)).fetchall()

    def close(self) -> None:
        self._db.close()
        self.path.unlink(missing_ok=True)
