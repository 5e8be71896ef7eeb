"""How good the vital corpus' aspect labels are: coverage on the corpus, precision on a judged sample.

Coverage is measured on the full corpus; precision comes from the manual verdicts in
assets/aspects/vital_aspect_sample.json (see docs/aspects.md for how the sample was judged).
The articles without a vital topic (the list's top levels) have their own judged sample,
assets/aspects/vital_top_sample.json, scored on the built corpus, inferred topics included.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from explore.corpus.vital import vital_records
from explore.corpus.vital_aspects import NO_TOPIC, PEOPLE_TOPIC, PLACES_TOPIC, aspects_for
from explore.settings import ASSETS_DIR

SAMPLE_PATH = ASSETS_DIR / "aspects" / "vital_aspect_sample.json"
# The articles readers try first: the vital list's top levels carry no topic ("Uncategorized").
TOP_SAMPLE_PATH = ASSETS_DIR / "aspects" / "vital_top_sample.json"
TOP_SAMPLE_SEED = 3030
# Famous untopical articles held aside from tuning: their coverage says whether a change generalises.
TOP_CHECK_PATH = ASSETS_DIR / "aspects" / "vital_top_check.json"
TOP_SAMPLE_SIZE = 100
GROUPS = {"people": PEOPLE_TOPIC, "places": PLACES_TOPIC}
SAMPLE_KIND = {"people": "person", "places": "place"}


@dataclass
class AspectQuality:
    """Coverage (share of articles with a label) and precision (correct / judged labels)."""

    aspect: str
    coverage: dict[str, float] = field(default_factory=dict)  # group -> share
    precision: dict[str, float | None] = field(default_factory=dict)  # group -> share, None = not judged
    judged: dict[str, int] = field(default_factory=dict)  # group -> labelled sample items


def top_sample_draw(records: list[dict]) -> list[dict]:
    """The frozen draw of the top-level sample: 100 of the title-sorted articles without a vital topic."""
    import random

    untopical = [r for r in records if r.get("topic") == NO_TOPIC]
    return random.Random(TOP_SAMPLE_SEED).sample(untopical, TOP_SAMPLE_SIZE)


def labelled_corpus(records: list[dict]) -> list[tuple[str, dict[str, list[str]]]]:
    """(topic, aspects) of every record, labelled as the corpus build labels it."""
    return [
        (r.get("topic", ""), aspects_for(r["title"], (r.get("description") or "").strip(), r.get("topic", ""),
                                         r.get("extract", "").strip()))
        for r in records
    ]


def coverage(labelled: list[tuple[str, dict]], aspect: str, topic: str | None = None) -> float:
    rows = [aspects for t, aspects in labelled if topic is None or t == topic]
    return sum(1 for aspects in rows if aspects.get(aspect)) / len(rows) if rows else 0.0


def sample_precision(sample: dict, aspect: str, kind: str | None = None) -> tuple[float | None, int]:
    """Share of the sample's labels for `aspect` judged correct, and how many were judged."""
    verdicts = [
        item["verdicts"][aspect]
        for item in sample["items"]
        if aspect in item["verdicts"] and (kind is None or item["kind"] == kind)
    ]
    judged = [v for v in verdicts if v in ("correct", "wrong")]
    return (judged.count("correct") / len(judged) if judged else None), len(judged)


def aspect_quality_report(
    aspects: tuple[str, ...] = ("country", "occupation", "century", "place_type"),
    records: list[dict] | None = None,
    sample_path: Path = SAMPLE_PATH,
) -> list[AspectQuality]:
    """Per aspect: coverage on people, places and all articles; precision on the judged sample."""
    labelled = labelled_corpus(records if records is not None else vital_records())
    sample = json.loads(sample_path.read_text(encoding="utf-8"))
    report = []
    for aspect in aspects:
        quality = AspectQuality(aspect)
        for group, topic in GROUPS.items():
            quality.coverage[group] = coverage(labelled, aspect, topic)
            quality.precision[group], quality.judged[group] = sample_precision(sample, aspect, SAMPLE_KIND[group])
        quality.coverage["all"] = coverage(labelled, aspect)
        quality.precision["all"], quality.judged["all"] = sample_precision(sample, aspect)
        report.append(quality)
    return report


def report_markdown(report: list[AspectQuality], precision_all: bool = False) -> str:
    """The report as a Markdown table (for README and docs/aspects.md); `precision_all` adds the column of
    precision over every judged item (the top sample's, where most items are neither people nor places)."""
    header = "| aspect | coverage people | coverage places | coverage all | precision people (n) | precision places (n) |"
    lines = [header + (" precision all (n) |" if precision_all else ""),
             "| --- " * (7 if precision_all else 6) + "|"]
    for q in report:
        lines.append(
            f"| {q.aspect} | {_percent(q.coverage['people'])} | {_percent(q.coverage['places'])} | "
            f"{_percent(q.coverage['all'])} | {_percent(q.precision['people'])} ({q.judged['people']}) | "
            f"{_percent(q.precision['places'])} ({q.judged['places']}) |"
            + (f" {_percent(q.precision['all'])} ({q.judged['all']}) |" if precision_all else "")
        )
    return "\n".join(lines)


TOP_ASPECTS = ("topic", "country", "occupation", "century", "place_type")
TOP_GROUPS = {"people": "person", "places": "place", "all": None}


def sample_labels(corpus, title: str) -> dict[str, list[str]]:
    """An article's labels as the top sample records them: own and inferred alike (inferred topics are
    what this sample measures), from the rules it judged (the later rules' labels are judged in
    vital_label_judgements.json: label_judgements.py)."""
    from explore.corpus.label_judgements import from_new_rules

    article = corpus.find(title)
    return {name: list(labels) for name, labels in article.all_labels(inferred=True).items()
            if not from_new_rules(article, name)}


def top_sample_report(corpus, sample_path: Path = TOP_SAMPLE_PATH) -> list[AspectQuality]:
    """Per aspect, on the judged top sample: coverage (share of the group's items with a label) and precision;
    people and places are the items judged to be one (`kind`), "all" is every item."""
    sample = json.loads(sample_path.read_text(encoding="utf-8"))
    report = []
    for aspect in TOP_ASPECTS:
        quality = AspectQuality(aspect)
        for group, kind in TOP_GROUPS.items():
            items = [item for item in sample["items"] if kind is None or item["kind"] == kind]
            quality.coverage[group] = (sum(1 for item in items if aspect in sample_labels(corpus, item["title"]))
                                       / len(items)) if items else 0.0
            quality.precision[group], quality.judged[group] = sample_precision(sample, aspect, kind)
        report.append(quality)
    return report


def untopical_topic_coverage(corpus) -> float:
    """Share of the articles without a vital topic that carry an inferred one."""
    untopical = [a for a in corpus if not a.labels("topic")]
    return sum(1 for a in untopical if a.has_aspect("topic")) / len(untopical) if untopical else 0.0


def untopical_people_coverage(corpus, aspect: str) -> float:
    """Share of the people among the articles without a vital topic (inferred People) with a label of `aspect`,
    inferred ones included."""
    from explore.corpus.vital import is_person

    people = [a for a in corpus if not a.labels("topic") and is_person(a)]
    return sum(1 for a in people if a.has_aspect(aspect)) / len(people) if people else 0.0


def top_check_coverage(corpus, check_path: Path = TOP_CHECK_PATH) -> dict[str, tuple[int, int, int]]:
    """On the held-aside famous articles: per check (topic on all; country and occupation on the people drawn as
    people) the items that had a label when drawn, that have one now, and how many items there are."""
    check = json.loads(check_path.read_text(encoding="utf-8"))
    counts = {}
    for aspect, stratum in (("topic", None), ("country", "person"), ("occupation", "person")):
        items = [item for item in check["items"] if stratum is None or item["stratum"] == stratum]
        counts[aspect] = (sum(1 for item in items if item["labels_before"].get(aspect)),
                          sum(1 for item in items if corpus.find(item["title"]).has_aspect(aspect)), len(items))
    return counts


COVERAGE_STEPS = (0.90, 0.95)


def held_out_curves(corpus) -> dict[str, list[tuple[float, float, float]]]:
    """(threshold, coverage, precision) of the held-out predictions of each classifier the vital build fits:
    the topic, and a person's country and occupation (refitted on `corpus`'s own labels, ~20 s); then, for each of
    `COVERAGE_STEPS`, (nan, that coverage, the precision of the surest predictions that many)."""
    from explore.corpus.inferred_labels import (
        AspectClassifier,
        VoteClassifier,
        precision_at_coverage,
        precision_coverage_curve,
    )
    from explore.corpus.vital import PERSON_INFERRED_ASPECTS, is_person, shipped_generic_embeddings

    embeddings = shipped_generic_embeddings(corpus)
    classifiers = {"topic": AspectClassifier("topic")} | {
        aspect: VoteClassifier(aspect, is_person) for aspect in PERSON_INFERRED_ASPECTS}
    curves = {}
    for aspect, classifier in classifiers.items():
        classifier.fit(corpus, embeddings)
        curves[aspect] = precision_coverage_curve(classifier) + [
            (float("nan"), step, precision_at_coverage(classifier, step)) for step in COVERAGE_STEPS] + [
            (classifier.threshold_, classifier.held_out_coverage_, classifier.held_out_precision_)]
    return curves


def curves_markdown(curves: dict[str, list[tuple[float, float, float]]]) -> str:
    """The held-out curves as a Markdown table: coverage / precision per threshold; the last column is the
    calibrated operating point."""
    columns = [f"surest {100 * c:.0f}%" if math.isnan(t) else f"≥ {t:.2f}" for t, c, _ in next(iter(curves.values()))[:-1]]
    lines = ["| aspect | " + " | ".join(columns) + " | calibrated |",
             "| --- " * (len(next(iter(curves.values()))) + 1) + "|"]
    for aspect, curve in curves.items():
        cells = [f"{_percent(c)} / {_percent(p)}" for _, c, p in curve]
        cells[-1] = f"≥ {curve[-1][0]:.3f}: " + cells[-1]
        lines.append(f"| {aspect} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


if __name__ == "__main__":
    from explore.corpus import open_corpus

    print(report_markdown(aspect_quality_report()))
    vital = open_corpus("vital")
    print(f"\nArticles without a vital topic ({sum(1 for a in vital if not a.labels('topic')):,}): "
          f"{100 * untopical_topic_coverage(vital):.1f}% have an inferred topic; of their people (inferred People) "
          f"{100 * untopical_people_coverage(vital, 'country'):.1f}% have a country and "
          f"{100 * untopical_people_coverage(vital, 'occupation'):.1f}% an occupation. Judged sample "
          f"({TOP_SAMPLE_PATH.name}):\n")
    print(report_markdown(top_sample_report(vital), precision_all=True))
    print(f"\nFamous articles held aside from tuning ({TOP_CHECK_PATH.name}), labelled when drawn → now: "
          + "; ".join(f"{aspect} {before} → {now} of {n}" for aspect, (before, now, n) in top_check_coverage(vital).items()))
    print("\nHeld-out labelled articles (people for country and occupation), coverage / precision:\n")
    print(curves_markdown(held_out_curves(vital)))
