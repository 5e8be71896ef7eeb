"""On-disk cache of fetched responses, one JSON file per request, so a killed build resumes
without fetching anything twice. Files are written atomically: a kill leaves old or new, never half."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from explore.atomic_files import file_written_atomically
from explore.settings import data_home


def wikidata_cache_dir(key: str) -> Path:
    return data_home() / "cache" / "wikidata" / key


@dataclass
class FetchCounts:
    fetched: int = 0
    cached: int = 0


class FetchCache:
    """`fetch(request, load)`: the stored response for `request`, else `load()` stored first.

    `request` is any JSON-able description of the request (service, parameters); its hash
    names the file. Only responses that `load` returned (validated) are stored, so a failure
    never poisons the cache; `valid` re-checks a stored one, so a bad answer stored by an older
    version is fetched again instead of failing every rerun.
    """

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.counts = FetchCounts()

    def path_for(self, request: Any) -> Path:
        digest = hashlib.sha256(json.dumps(request, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        return self.directory / digest[:2] / f"{digest}.json"

    def fetch(self, request: Any, load: Callable[[], Any], valid: Callable[[Any], bool] | None = None) -> Any:
        path = self.path_for(request)
        stored = self._read(path)
        if stored is not None and (valid is None or valid(stored["response"])):
            self.counts.cached += 1
            return stored["response"]
        response = load()
        self._write(path, {"request": request, "response": response})
        self.counts.fetched += 1
        return response

    @staticmethod
    def _read(path: Path) -> dict | None:
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # absent, or unreadable after outside damage: fetch again
        return stored if isinstance(stored, dict) and "response" in stored else None

    @staticmethod
    def _write(path: Path, record: dict) -> None:
        with file_written_atomically(path, suffix=".tmp") as staging, open(staging, "w", encoding="utf-8") as out:
            json.dump(record, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())


class NoCache(FetchCache):
    """Same interface, stores nothing: for one-off calls and tests of the clients alone."""

    def __init__(self):
        super().__init__(Path(os.devnull))

    def fetch(self, request: Any, load: Callable[[], Any], valid: Callable[[Any], bool] | None = None) -> Any:
        self.counts.fetched += 1
        return load()
