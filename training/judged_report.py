"""The judged table of Explore's columns: worth reading and shares the aspect side by side, per column, spread over
seeds; as Markdown (the CLI, the README) and JSON (the Evaluation page reads it back)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from training.worth_reading import ColumnFigures

FIGURES = ("seeds", "ndcg", "ndcg_sd", "precision", "precision_sd", "precision_vs_generic", "shares", "shares_sd",
           "shares_seeds", "score", "unjudged", "shown")
HEADINGS = {
    "ndcg": "worth reading nDCG@5", "precision": "worth reading P@5", "precision_vs_generic": "P@5 ÷ generic's",
    "shares": "shares the aspect@5", "score": "column score", "unjudged": "unjudged (of shown)", "seeds": "seeds drawn",
}


@dataclass
class JudgedReport:
    """Column → its summary, for one or more blocks (`served`: what Explore draws now; `judged release`: the columns
    as frozen in the pool)."""

    corpus: str
    judgements: list[str]
    pairs: int
    blocks: dict[str, dict[str, dict]] = field(default_factory=dict)
    # block → column → measure → its paired difference from Wikipedia's Read more (training/baseline_comparison.py)
    versus: dict[str, dict[str, dict[str, dict]]] = field(default_factory=dict)

    def add(self, block: str, figures: Mapping[str, ColumnFigures],
            versus: Mapping[str, Mapping[str, dict]] | None = None) -> None:
        generic = figures.get("generic")
        rows = {}
        for name, column in figures.items():
            summary = column.summary()
            base = generic.summary(column.per_seed) if generic is not None else {}
            summary["precision_vs_generic"] = (summary["precision"] / base["precision"]
                                               if summary["precision"] is not None and base.get("precision") else None)
            rows[name] = {key: summary.get(key) for key in FIGURES}
        self.blocks[block] = rows
        if versus:
            self.versus[block] = {name: dict(measures) for name, measures in versus.items()}

    def to_markdown(self) -> str:
        lines = [f"Corpus `{self.corpus}`, {self.pairs} judged pairs ({', '.join(self.judgements)}). Worth reading: "
                 "graded 0-2 blind to column (nDCG@5; P@5 of grade ≥ 1, over the judged cards); shares the aspect: "
                 "the share of the top 5 sharing a label of the column's aspects with the seed (generic, links and "
                 "your mix: any aspect the seed has); column score: their harmonic mean (nDCG@5 and shares). "
                 "Mean ± sd over the seeds a column is drawn for.", ""]
        for block, rows in self.blocks.items():
            lines += [f"**{block}**", "",
                      "| column | seeds drawn | worth reading nDCG@5 | worth reading P@5 | P@5 ÷ generic's | "
                      "shares the aspect@5 | column score | unjudged |", "|---|---|---|---|---|---|---|---|"]
            for name, r in rows.items():
                lines.append(f"| {name} | {r['seeds']} | {_pm(r['ndcg'], r['ndcg_sd'])} | "
                             f"{_pm(r['precision'], r['precision_sd'])} | {_num(r['precision_vs_generic'], 2)} | "
                             f"{_pm(r['shares'], r['shares_sd'])} | {_num(r['score'])} | {r['unjudged']} of {r['shown']} |")
            lines.append("")
            if block in self.versus:
                lines += _versus_markdown(self.versus[block])
        return "\n".join(lines)

    def save(self, stem: Path) -> tuple[Path, Path]:
        stem.parent.mkdir(parents=True, exist_ok=True)
        json_path, md_path = stem.with_suffix(".json"), stem.with_suffix(".md")
        json_path.write_text(json.dumps(vars(self), indent=1, allow_nan=False) + "\n")
        md_path.write_text(self.to_markdown() + "\n")
        return json_path, md_path

    @classmethod
    def load(cls, path: Path) -> "JudgedReport":
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(data["corpus"], list(data["judgements"]), int(data["pairs"]), dict(data["blocks"]),
                   dict(data.get("versus", {})))


def _versus_markdown(versus: Mapping[str, Mapping[str, dict]]) -> list[str]:
    from training.baseline_comparison import MEASURES, difference_of, where_the_baseline_wins

    lines = ["Against Wikipedia's Read more (`morelike`), seed by seed on the seeds each column is drawn for, sharing "
             "counted by the column's own aspect on both sides: the column's mean minus Read more's [95% interval].",
             "", "| column | seeds | " + " | ".join(f"Δ {words}" for words in MEASURES.values()) + " |",
             "|---|---|" + "---|" * len(MEASURES)]
    for name, measures in versus.items():
        cells = []
        for measure in MEASURES:
            if measure not in measures:
                cells.append("n/a")
                continue
            d = difference_of(measures[measure])
            cells.append(f"{d.mean:+.3f} [{d.low:+.2f}, {d.high:+.2f}] {d.verdict}")
        seeds = max((measures[m]["seeds"] for m in measures), default=0)
        lines.append(f"| {name} | {seeds} | " + " | ".join(cells) + " |")
    lines += ["", " ".join(where_the_baseline_wins(versus)), ""]
    return lines


def _num(value, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _pm(mean, sd) -> str:
    return "n/a" if mean is None else f"{mean:.3f} ± {sd:.2f}"


def find_judged_reports(corpus: str) -> list[JudgedReport]:
    """The judged tables of `corpus`: your own runs' first (the data home), then the shipped ones."""
    from training.report import report_dirs

    found = []
    for directory in report_dirs():
        for path in sorted(directory.glob("*-judged.json")) if directory.is_dir() else []:
            try:
                report = JudgedReport.load(path)
            except (OSError, ValueError, KeyError, TypeError):
                continue  # not a judged table (or half-written): skipped rather than breaking the page
            if report.corpus == corpus:
                found.append(report)
    return found
