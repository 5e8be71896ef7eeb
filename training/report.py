"""Evaluation reports: JSON, and Markdown tables laid out like AspectCSE's Table 5."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from explore.reports import POOLS as POOL_TITLES
from training.evaluation import POOLS


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
        return json_path, md_path

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
