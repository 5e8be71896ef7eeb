"""Read-next judgements: graded (seed, candidate) pairs, made blind to the column that proposed them.

One or several pool files (assets/judgements/PROTOCOL.md): a later pool judges what an earlier one lacked and never
re-grades a pair an earlier one holds, so pools combine without deciding between two grades.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from training.validation import TrainingInputError

GRADES = (0, 1, 2)  # 0 unrelated, 1 related but not next, 2 a reader would read it next
RELEVANT = 1  # the grade from which a candidate counts for P@k ("grade ≥ 1")


@dataclass(frozen=True)
class Judgements:
    """seed id → candidate id → grade, the stratum of each seed, and the files they come from."""

    corpus: str
    grades: Mapping[str, Mapping[str, int]]
    strata: Mapping[str, str]
    sources: tuple[str, ...] = ()

    @classmethod
    def load(cls, *paths: "Path | str") -> "Judgements":
        """Pools merged in the order given; a pair graded in two of them, or a grade outside 0-2, is refused."""
        if not paths:
            raise TrainingInputError("No judgements file given.")
        corpus, grades, strata = None, {}, {}
        for path in map(Path, paths):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                seeds = data["seeds"]
                name = str(data["corpus"])
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise TrainingInputError(f"Cannot read judgements {path}: {error}. A judgements file is JSON with "
                                         "`corpus` and `seeds` (assets/judgements/PROTOCOL.md).") from None
            if corpus not in (None, name):
                raise TrainingInputError(f"Judgements {path} are of corpus {name!r}, the others of {corpus!r}.")
            corpus = name
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
        return cls(corpus, judged, {s: strata[s] for s in judged}, tuple(map(str, paths)))

    @property
    def seeds(self) -> list[str]:
        return list(self.grades)

    def grade(self, seed: str, candidate: str) -> int | None:
        """The candidate's grade for `seed`, None when it was never judged."""
        return self.grades.get(seed, {}).get(candidate)

    def pairs(self) -> int:
        return sum(len(g) for g in self.grades.values())
