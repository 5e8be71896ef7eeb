"""Precision of each aspect's labels per source, from a blind judgement of a frozen random sample.

For every (aspect, source) the build adds (`JUDGED`), up to SAMPLE_SIZE labelled articles are drawn with a fixed
seed; reviewers who did not write the rules judge each label right or wrong from the article alone (title,
description, lead), never told which rule or table gave it. The verdicts live in
assets/aspects/vital_label_judgements.json; `label_precision` reads them into the table the README and the
Evaluation page show, with a Wilson 95% interval. A source below MIN_PRECISION is not shipped (vital.py).
"""
from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from pathlib import Path

from explore.corpus.model import Corpus
from explore.settings import ASSETS_DIR

JUDGEMENTS_PATH = ASSETS_DIR / "aspects" / "vital_label_judgements.json"
SAMPLE_SIZE = 200
SEED = 48
MIN_PRECISION = 0.90
# What reviewers were told each aspect means (the only guidance they had besides the article).
ASPECT_MEANING = {
    "kind": "what kind of thing the subject is (a broad category such as 'film or television', 'bird', 'war')",
    "century": "a century in which the subject happened, was made, was founded or (for a person) was active; "
               "for something that lasted several centuries, the century it began in counts as right",
    "country": "a country the subject is of: where it happened, stands or comes from, or the state a person is "
               "known by (a historic state named as such, or the present-day country where a reader would look)",
    "birthplace": "the present-day country of the place where the person was born",
    "occupation": "what the person did for a living or is known for doing",
    "field": "the subject area an encyclopedia would file the article under",
}
# (aspect, source) pairs this round adds; the older aspects are judged in vital_aspect_sample.json.
JUDGED = (
    ("kind", "description"), ("century", "description"), ("century", "lead"), ("century", "table"),
    ("country", "description"), ("country", "lead"), ("country", "table"), ("birthplace", "table"),
    ("occupation", "table"), ("field", "table"), ("field", "inferred"),
)
NEW_ASPECT_SOURCES = frozenset({("kind", "description"), ("century", "description"), ("century", "lead"),
                                ("country", "description"), ("country", "lead")})


@dataclass(frozen=True)
class JudgementItem:
    """One label to judge: the article as a reviewer sees it and the label shown."""

    id: str
    title: str
    description: str
    lead: str
    aspect: str
    source: str
    labels: tuple[str, ...]


def labelled_items(corpus: Corpus, aspect: str, source: str) -> list[JudgementItem]:
    """Every article whose `aspect` labels come from `source` (the thing-only sources count non-people only)."""
    items = []
    for article in corpus:
        if article.label_source(aspect) != source:
            continue
        if (aspect, source) in NEW_ASPECT_SOURCES and is_person_or_place(article):
            continue  # a person's or place's are the older rules', judged in vital_aspect_sample.json
        items.append(JudgementItem(id=article.id, title=article.title, description=article.description,
                                   lead=article.text[:600], aspect=aspect, source=source,
                                   labels=article.labels(aspect, inferred=True)))
    return items


def is_person_or_place(article) -> bool:
    """Whether the older rules label the article: a person (an occupation, the topic People) or a place."""
    return (article.labels("topic", inferred=True) in (("People",), ("Geography",))
            or article.has_aspect("occupation") or article.has_aspect("place_type"))


NEW_ASPECTS = frozenset({"kind", "field", "birthplace"})


def from_new_rules(article, aspect: str) -> bool:
    """Whether `article`'s labels of `aspect` come from this round's rules (judged here), not the older ones."""
    source = article.label_source(aspect)
    return (aspect in NEW_ASPECTS or source == "table"
            or ((aspect, source) in NEW_ASPECT_SOURCES and not is_person_or_place(article)))


def draw_sample(corpus: Corpus) -> list[JudgementItem]:
    """The frozen draw: per judged (aspect, source), SAMPLE_SIZE items (all where fewer), seeded."""
    rng = random.Random(SEED)
    drawn = []
    for aspect, source in JUDGED:
        items = labelled_items(corpus, aspect, source)
        drawn.extend(items if len(items) <= SAMPLE_SIZE else rng.sample(items, SAMPLE_SIZE))
    return drawn


@dataclass(frozen=True)
class Precision:
    aspect: str
    source: str
    judged: int
    right: int
    round: int = 1

    @property
    def value(self) -> float:
        return self.right / self.judged if self.judged else float("nan")

    def wilson(self, z: float = 1.96) -> tuple[float, float]:
        """The 95% Wilson score interval of the precision."""
        n, p = self.judged, self.value
        if not n:
            return (float("nan"), float("nan"))
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def shipped(self) -> bool:
        return self.judged > 0 and self.value >= MIN_PRECISION


def load_judgements(path: Path = JUDGEMENTS_PATH) -> list[dict]:
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["items"]


def label_precision(items: list[dict] | None = None) -> list[Precision]:
    """Precision per judged (aspect, source) in its latest round: right / (right + wrong); 'unsure' is left out."""
    items = load_judgements() if items is None else items
    table = []
    for aspect, source in JUDGED:
        judged = [i for i in items if i["aspect"] == aspect and i["source"] == source]
        latest = max((i.get("round", 1) for i in judged), default=1)
        decided = [i["verdict"] for i in judged if i.get("round", 1) == latest and i["verdict"] in ("right", "wrong")]
        table.append(Precision(aspect, source, len(decided), sum(v == "right" for v in decided), latest))
    return table


def precision_markdown(table: list[Precision]) -> str:
    rows = ["| aspect | source | judged | precision | 95% interval | shipped |", "|---|---|---|---|---|---|"]
    for p in table:
        if not p.judged:
            continue
        low, high = p.wilson()
        rows.append(f"| {p.aspect} | {p.source} | {p.judged} | {p.value:.1%} | {low:.1%}–{high:.1%} | "
                    f"{'yes' if p.shipped else 'no (below 90%)'} |")
    return "\n".join(rows)
