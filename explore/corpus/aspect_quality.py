"""How good the vital corpus' aspect labels are: coverage on the corpus, precision on a judged sample.

Coverage is measured on the full corpus; precision comes from the manual verdicts in
assets/aspects/vital_aspect_sample.json (see docs/aspects.md for how the sample was judged).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from explore.corpus.vital_aspects import NO_TOPIC, PEOPLE_TOPIC, PLACES_TOPIC, aspects_for
from explore.settings import ASSETS_DIR

SAMPLE_PATH = ASSETS_DIR / "aspects" / "vital_aspect_sample.json"
# The articles readers try first: the vital list's top levels carry no topic ("Uncategorized").
TOP_SAMPLE_PATH = ASSETS_DIR / "aspects" / "vital_top_sample.json"
TOP_SAMPLE_SEED = 3030
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


def vital_records() -> list[dict]:
    from explore.corpus.vital import vital_data_path

    records = json.loads(vital_data_path().read_text(encoding="utf-8"))
    return sorted(records.values(), key=lambda r: r["title"])


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


def report_markdown(report: list[AspectQuality]) -> str:
    """The report as a Markdown table (for README and docs/aspects.md)."""

    def percent(value: float | None) -> str:
        return "–" if value is None else f"{100 * value:.1f}%"

    lines = [
        "| aspect | coverage people | coverage places | coverage all | precision people (n) | precision places (n) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for q in report:
        lines.append(
            f"| {q.aspect} | {percent(q.coverage['people'])} | {percent(q.coverage['places'])} | "
            f"{percent(q.coverage['all'])} | {percent(q.precision['people'])} ({q.judged['people']}) | "
            f"{percent(q.precision['places'])} ({q.judged['places']}) |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report_markdown(aspect_quality_report()))
