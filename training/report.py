"""Evaluation reports, one model for writing and reading: JSON, Markdown tables laid out like
AspectCSE's Table 5, and the per-aspect rows the Evaluation page shows.

`python -m training evaluate` writes them under `<data home>/training/reports/`; the ones the README
quotes ship in assets/reports/. Metrics per space sit under keys `{pool}/{aspect}/{metric}@{k}`.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from explore.settings import ASSETS_DIR, data_home

METRICS = {"precision": "P", "recall": "R", "mrr": "MRR", "map": "MAP"}
POOL_TITLES = {"test": "test pool (test articles only, the research's protocol)",
               "corpus": "corpus pool (all articles, what the app shows)"}
POOLS = tuple(POOL_TITLES)


def _cell(value: float | None) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


@dataclass
class EvaluationReport:
    """Metrics per space (rows, in order) for the aspects (columns) of one split."""

    corpus: str
    aspects: list[str]  # table columns: aspects, and combined groups such as `any:a+b` / `all:a+b`
    k: int
    split: dict
    spaces: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    path: Path | None = None  # where it was read from (None until saved or loaded)

    @classmethod
    def load(cls, path: Path) -> "EvaluationReport":
        data = json.loads(Path(path).read_text())
        return cls(data.get("corpus", ""), list(data.get("aspects", [])), int(data.get("k", 10)),
                   dict(data.get("split", {})), dict(data.get("spaces", {})), dict(data.get("notes", {})), Path(path))

    @property
    def name(self) -> str:
        return self.path.stem if self.path else f"{self.corpus}-s{self.split.get('seed')}"

    def add(self, name: str, metrics: dict[str, float], note: str = "") -> None:
        self.spaces[name] = metrics
        if note:
            self.notes[name] = note

    def to_json(self) -> str:
        return json.dumps({"corpus": self.corpus, "aspects": self.aspects, "k": self.k, "split": self.split,
                           "spaces": self.spaces, "notes": self.notes}, indent=2, default=float)

    def save(self, path: Path) -> tuple[Path, Path]:
        path.parent.mkdir(parents=True, exist_ok=True)
        json_path, md_path = path.with_suffix(".json"), path.with_suffix(".md")
        json_path.write_text(self.to_json())
        md_path.write_text(self.to_markdown())
        self.path = json_path
        return json_path, md_path

    def metric_rows(self, aspect: str, pool: str) -> list[dict]:
        """One row per space: P/R/MRR/MAP@k of `aspect` in `pool` (missing metrics are None)."""
        return [{"space": space} | {f"{short}@{self.k}": scores.get(f"{pool}/{aspect}/{metric}@{self.k}")
                                    for metric, short in METRICS.items()}
                for space, scores in self.spaces.items()]

    def secondary_rows(self) -> list[dict]:
        """AgTS and overlap with the generic space, per space and aspect."""
        rows = []
        for space, scores in self.spaces.items():
            row = {"space": space}
            for aspect in self.aspects:
                row[f"{aspect} AgTS"] = scores.get(f"test/{aspect}/agts")
                overlap = next((v for key, v in scores.items() if key.startswith(f"corpus/{aspect}/overlap@")), None)
                row[f"{aspect} overlap"] = overlap
            rows.append(row)
        return rows

    def table(self, pool: str) -> str:
        """Rows: spaces; columns: P@k / R@k / MRR@k per aspect, best of each column in bold."""
        k = self.k
        metrics = ("precision", "recall", "mrr")
        head = ["Space"] + [f"{a} {m}@{k}" for a in self.aspects for m in ("P", "R", "MRR")]
        keys = [f"{pool}/{a}/{m}@{k}" for a in self.aspects for m in metrics]
        best = {key: max((s.get(key, float("-inf")) for s in self.spaces.values()), default=None) for key in keys}
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for name, scores in self.spaces.items():
            cells = []
            for key in keys:
                text = _cell(scores.get(key))
                cells.append(f"**{text}**" if scores.get(key) == best[key] and len(self.spaces) > 1 else text)
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def secondary_table(self) -> str:
        """AgTS (test pairs) and Overlap@50 with the generic space (corpus pool) per aspect."""
        overlap = next((key.rsplit("/", 1)[1] for s in self.spaces.values() for key in s if "/overlap@" in key),
                       "overlap@50")
        single = [a for a in self.aspects if ":" not in a]
        head = ["Space"] + [f"{a} AgTS" for a in self.aspects] + [f"{a} {overlap.capitalize()}" for a in single]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for name, s in self.spaces.items():
            cells = [_cell(s.get(f"test/{a}/agts")) for a in self.aspects]
            cells += [_cell(s.get(f"corpus/{a}/{overlap}")) for a in single]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def to_markdown(self) -> str:
        parts = [f"Corpus `{self.corpus}`, split seed {self.split.get('seed')} "
                 f"({self.split.get('train')} train / {self.split.get('test')} test articles), k = {self.k}."]
        for pool in POOLS:
            parts += [f"\n**{POOL_TITLES[pool]}**\n", self.table(pool)]
        parts += ["\n**AgTS and overlap with the generic space**\n", self.secondary_table()]
        if self.notes:
            parts += ["\n" + "\n".join(f"- {name}: {note}" for name, note in self.notes.items())]
        return "\n".join(parts) + "\n"


def evaluate_command(corpus: str, aspects: list[str]) -> str:
    return (f"python -m training evaluate --corpus {corpus} --spaces generic "
            f"--aspects {','.join(aspects[:2]) or 'ASPECT'}")


def report_dirs() -> list[Path]:
    return [data_home() / "training" / "reports", ASSETS_DIR / "reports"]


def find_reports(corpus: str | None = None) -> list[EvaluationReport]:
    """Readable reports, `-main` first, then newest first; `corpus` keeps only that corpus's reports."""
    reports = []
    for directory in report_dirs():
        for path in sorted(directory.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) \
                if directory.is_dir() else []:
            try:
                report = EvaluationReport.load(path)
            except (OSError, ValueError, TypeError, AttributeError):
                continue  # not a report (or half-written): skipped rather than breaking the page
            if report.spaces and (corpus is None or report.corpus == corpus):
                reports.append(report)
    # The headline report (`<corpus>-main`, the README's table) first, then newest first.
    return sorted(reports, key=lambda report: not report.name.endswith("-main"))
