"""A synthetic corpus, study and deterministic candidate provider: the study flow, store and analysis
exercised without building spaces (tests, load tests and benchmarks/study_writes.py)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import yaml

from explore.corpus.model import Article, Corpus, Provenance
from explore.errors import UnknownSpaceError
from explore.query import Kind, Query
from study.definition import Source, StudyDefinition, check_study, load_study

TINY_COUNTRIES = ["France", "Japan", "Brazil"]
TINY_OCCUPATIONS = ["painter", "physicist", "composer"]


def tiny_corpus() -> Corpus:
    articles = [
        Article(
            id=f"a{i:02d}",
            title=f"Article {i:02d}",
            text=f"Article {i:02d} is a test article. " * 12,
            links=tuple(f"a{(i + d) % 40:02d}" for d in (1, 2, 3, 4)),
            aspects={"country": (TINY_COUNTRIES[i % 3],), "occupation": (TINY_OCCUPATIONS[(i // 3) % 3],)},
        )
        for i in range(40)
    ]
    return Corpus("tiny", articles, Provenance(source="test", date="2026-01-01"))


class SyntheticProvider:
    """Deterministic proposals; `union` repeats the generic source's first pick, so one candidate
    is always credited to two sources."""

    def __init__(self, corpus: Corpus, engine_loader=None):  # the real provider's signature; no engine here
        self.ids = [a.id for a in corpus]
        self.calls = 0

    def known_spaces(self) -> list[str]:
        return ["generic", "country", "occupation"]

    def resolve(self, query: Query) -> dict[str, float]:
        if query.kind is Kind.BLEND:
            return query.blend.normalised()
        if str(query) not in ("generic", "aspect:country", "aspect:occupation", "union"):
            raise UnknownSpaceError(f"No space answers {str(query)!r}.")
        return {query.name or str(query): 1.0}

    def remoteness(self, seed_id: str) -> None:
        return None  # no generic space: gold decoys are checked by their labels alone

    def _ranked(self, seed_id: str, kind: str) -> list[str]:
        key = lambda i: hashlib.sha256(f"{seed_id}|{kind}|{i}".encode()).hexdigest()  # noqa: E731
        return sorted((i for i in self.ids if i != seed_id), key=key)

    def propose(self, seed_id: str, source: Source, k: int) -> list[str]:
        self.calls += 1
        if source.query == Query(Kind.UNION):
            first = self._ranked(seed_id, "generic")[0]
            rest = [i for i in self._ranked(seed_id, "union") if i != first]
            return [first, *rest][:k]
        return self._ranked(seed_id, str(source.query))[:k]


TINY_STUDY = {
    "name": "tiny_study",
    "title": "Tiny study",
    "corpus": "tiny",
    "intro": "Rank what you would read next.",
    "consent": "Answers are anonymous.",
    "tasks": [
        {"id": "country-france", "aspect": "country", "label": "France", "seed": "Article 00", "goal": "France"},
        {"id": "country-japan", "aspect": "country", "label": "Japan", "seed": "Article 01", "goal": "Japan"},
        {"id": "occupation-painter", "aspect": "occupation", "label": "painter", "seed": "Article 02", "goal": "Painters"},
    ],
}


# The tiny study with a declared design: a balanced Latin square, a gold task whose decoy (Article 04:
# Japan, physicist) shares nothing with its seed (Article 00: France, painter), an attention item, and
# the exclusion rules that read them.
TINY_DESIGN = {
    "design": {"order": "balanced_latin_square"},
    "exclusions": [{"rule": "failed_attention"}, {"rule": "gold_ranked_first"}, {"rule": "incomplete"}],
    "tasks": [
        *TINY_STUDY["tasks"],
        {"id": "gold-france", "aspect": "country", "label": "France", "seed": "Article 00", "goal": "France",
         "check": {"kind": "gold", "decoy": "Article 04"}},
        {"id": "attention", "aspect": "occupation", "label": "painter", "seed": "Article 01",
         "goal": "To show you are reading, rank “Article 05” first.",
         "check": {"kind": "attention", "rank_first": "Article 05"}},
    ],
}


def write_tiny_study(directory: Path, **overrides) -> Path:
    path = Path(directory) / "tiny_study.yaml"
    path.write_text(yaml.safe_dump({**TINY_STUDY, **overrides}, allow_unicode=True), encoding="utf-8")
    return path


def tiny_study(directory: Path) -> StudyDefinition:
    return check_study(load_study(write_tiny_study(directory)), tiny_corpus())
