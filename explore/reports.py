"""Find the training module's evaluation reports and lay their metrics out per aspect for display.

Reports are JSON files written by `python -m training evaluate` (training/report.py): metrics per
space under keys `{pool}/{aspect}/{metric}@{k}`. Reports shipped with the repository live under
assets/reports/; ones a user runs land under `<data home>/training/reports/`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from explore.settings import ASSETS_DIR, data_home

METRICS = {"precision": "P", "recall": "R", "mrr": "MRR", "map": "MAP"}
POOLS = {"test": "test pool (test articles only, the research's protocol)",
         "corpus": "corpus pool (all articles, what the app shows)"}


def evaluate_command(corpus: str, aspects: list[str]) -> str:
    return (f"python -m training evaluate --corpus {corpus} --spaces generic "
            f"--aspects {','.join(aspects[:2]) or 'ASPECT'}")


def report_dirs() -> list[Path]:
    return [data_home() / "training" / "reports", ASSETS_DIR / "reports"]


@dataclass
class Report:
    path: Path
    corpus: str
    aspects: list[str]
    k: int
    split: dict
    spaces: dict[str, dict[str, float]]
    notes: dict[str, str]

    @property
    def name(self) -> str:
        return self.path.stem

    def metric_table(self, aspect: str, pool: str) -> list[dict]:
        """One row per space: P/R/MRR/MAP@k of `aspect` in `pool` (missing metrics are None)."""
        return [{"space": space} | {f"{short}@{self.k}": scores.get(f"{pool}/{aspect}/{metric}@{self.k}")
                                    for metric, short in METRICS.items()}
                for space, scores in self.spaces.items()]

    def secondary_table(self) -> list[dict]:
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


def load_report(path: Path) -> Report:
    data = json.loads(Path(path).read_text())
    return Report(Path(path), data.get("corpus", ""), list(data.get("aspects", [])), int(data.get("k", 10)),
                  dict(data.get("split", {})), dict(data.get("spaces", {})), dict(data.get("notes", {})))


def find_reports(corpus: str | None = None) -> list[Report]:
    """Readable reports, `-main` first, then newest first; `corpus` keeps only that corpus's reports."""
    reports = []
    for directory in report_dirs():
        for path in sorted(directory.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) \
                if directory.is_dir() else []:
            try:
                report = load_report(path)
            except (OSError, ValueError, TypeError):
                continue  # not a report (or half-written): skipped rather than breaking the page
            if report.spaces and (corpus is None or report.corpus == corpus):
                reports.append(report)
    # The headline report (`<corpus>-main`, the README's table) first, then newest first.
    return sorted(reports, key=lambda report: not report.name.endswith("-main"))
