"""Read-next judgements: graded (seed, candidate) pairs, made blind to the column that proposed them.

One or several pool files (assets/judgements/PROTOCOL.md): a later pool judges what an earlier one lacked and never
re-grades a pair an earlier one holds, so pools combine without deciding between two grades.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from explore.corpus.model import Corpus
from explore.user_files import kind_of, parse_user_json, read_user_text
from training.validation import TrainingInputError

GRADES = (0, 1, 2)  # 0 unrelated, 1 related but not next, 2 a reader would read it next
RELEVANT = 1  # the grade from which a candidate counts for P@k ("grade ≥ 1")
DEPTHS = range(1, 101)  # cards judged per column: 5 in every pool; no reader scrolls a column past 100
SHOWN = 5  # candidates named in a refusal before "..."
_SHAPE = "A judgements file is JSON with `corpus` and `seeds` (assets/judgements/PROTOCOL.md)."


class _Unreadable(TrainingInputError):
    """A judgements file that is no JSON a user could mean (the reader's words say where and why)."""


def _read_pool(path: Path) -> dict:
    """The pool file's JSON object, read within the bounds every user's JSON is (explore/user_files.py)."""
    try:
        data = parse_user_json(read_user_text(path, _Unreadable, what="judgements file"), path, _Unreadable)
    except _Unreadable as error:
        raise TrainingInputError(f"Cannot read judgements {error}. {_SHAPE}") from None
    if not isinstance(data, dict):
        raise TrainingInputError(f"Cannot read judgements {path}: it holds {kind_of(data)}, not an object. {_SHAPE}")
    return data


@dataclass(frozen=True)
class Judgements:
    """seed id → candidate id → grade, the stratum of each seed, and the files they come from."""

    corpus: str
    grades: Mapping[str, Mapping[str, int]]
    strata: Mapping[str, str]
    sources: tuple[str, ...] = ()
    content_hashes: Mapping[str, str] = field(default_factory=dict)  # pool file -> the corpus hash it was judged on

    @classmethod
    def load(cls, *paths: "Path | str") -> "Judgements":
        """Pools merged in the order given; a pair graded in two of them, a grade outside 0-2, a depth outside
        DEPTHS or a file nested past the bound every user's JSON keeps (explore/user_files.py) is refused."""
        if not paths:
            raise TrainingInputError("No judgements file given.")
        corpus, grades, strata, hashes = None, {}, {}, {}
        for path in map(Path, paths):
            data = _read_pool(path)
            try:
                seeds = data["seeds"]
                name = str(data["corpus"])
            except (KeyError, TypeError) as error:
                raise TrainingInputError(f"Cannot read judgements {path}: {error}. {_SHAPE}") from None
            if corpus not in (None, name):
                raise TrainingInputError(f"Judgements {path} are of corpus {name!r}, the others of {corpus!r}.")
            corpus = name
            depth = data.get("depth", DEPTHS.start)
            if type(depth) is not int or depth not in DEPTHS:
                raise TrainingInputError(f"Judgements {path}: depth {depth!r}; the depth (how many cards of each column "
                                         f"were judged) is a whole number from {DEPTHS.start} to {DEPTHS.stop - 1}.")
            if data.get("corpus_content_hash") is not None:
                hashes[str(path)] = str(data["corpus_content_hash"])
            if not isinstance(seeds, list) or not all(isinstance(entry, dict) and "seed" in entry and
                                                      isinstance(entry.get("grades") or {}, dict) for entry in seeds):
                raise TrainingInputError(f"Judgements {path}: each of `seeds` is an object with `seed` and `grades` "
                                         f"(candidate id -> grade). {_SHAPE}")
            for entry in seeds:
                seed = str(entry["seed"])
                strata.setdefault(seed, str(entry.get("stratum", "")))
                into = grades.setdefault(seed, {})
                for candidate, grade in (entry.get("grades") or {}).items():
                    if grade not in GRADES or isinstance(grade, bool):
                        raise TrainingInputError(f"Judgements {path}: seed {seed!r}, candidate {candidate!r} has "
                                                 f"grade {grade!r}; grades are 0, 1 or 2.")
                    if candidate in into:
                        raise TrainingInputError(f"Judgements {path}: ({seed!r}, {candidate!r}) is graded in an "
                                                 "earlier pool too; a later pool judges only new pairs.")
                    into[candidate] = grade
        judged = {seed: dict(g) for seed, g in grades.items() if g}
        if not judged:
            raise TrainingInputError(f"Judgements {', '.join(map(str, paths))} hold no graded pair.")
        return cls(corpus, judged, {s: strata[s] for s in judged}, tuple(map(str, paths)), hashes)

    def check_against(self, corpus: Corpus) -> None:
        """TrainingInputError unless every pool was judged on `corpus` as it is: its name, its content hash (where
        the pool recorded one) and every graded seed and candidate one of its articles. A figure computed otherwise
        would count grades of other texts, or of articles no column can show, without a word."""
        if self.corpus != corpus.name:
            raise TrainingInputError(f"Judgements {self.sources[0]} are of corpus {self.corpus!r}, not "
                                     f"{corpus.name!r}.")
        for source, content_hash in self.content_hashes.items():
            if content_hash != corpus.content_hash:
                raise TrainingInputError(f"Judgements {source} were judged on corpus {corpus.name!r} with content "
                                         f"hash {content_hash}; it is now {corpus.content_hash} (its texts changed). "
                                         "Judge the changed pairs again in a new pool.")
        missing = [seed for seed in self.seeds if seed not in corpus]
        if missing:
            raise TrainingInputError(f"{len(missing)} judged seeds are not in corpus {corpus.name!r} "
                                     f"(first: {missing[0]!r}).")
        ghosts = [(seed, candidate) for seed, graded in self.grades.items() for candidate in graded
                  if candidate not in corpus]
        if ghosts:
            shown = ", ".join(f"{candidate!r} (seed {seed!r})" for seed, candidate in ghosts[:SHOWN])
            raise TrainingInputError(f"{len(ghosts)} graded candidates are not in corpus {corpus.name!r} ({shown}"
                                     f"{', ...' if len(ghosts) > SHOWN else ''}): no column can show them, so "
                                     "counting them would lower every figure. Remove them from the pool.")

    @property
    def seeds(self) -> list[str]:
        return list(self.grades)

    def grade(self, seed: str, candidate: str) -> int | None:
        """The candidate's grade for `seed`, None when it was never judged."""
        return self.grades.get(seed, {}).get(candidate)

    def pairs(self) -> int:
        return sum(len(g) for g in self.grades.values())
