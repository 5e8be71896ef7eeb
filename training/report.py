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
from typing import Any

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from explore.errors import AspectNavError
from explore.schema import field_problem, refusals
from explore.settings import ASSETS_DIR, data_home
from explore.user_files import kind_of, parse_user_json, read_user_text

METRICS = {"precision": "P", "recall": "R", "mrr": "MRR", "map": "MAP", "ndcg": "nDCG"}  # metrics @k, short names
# The Markdown report's two tables per pool: the ranking metrics first (what a reader of one list feels), then P/R.
TABLE_GROUPS = (("mrr", "map", "ndcg"), ("precision", "recall"))
POOL_TITLES = {"test": "test pool (test articles only, the research's protocol)",
               "corpus": "corpus pool (all articles, what the app shows)"}
POOLS = tuple(POOL_TITLES)

# What each number is, for readers: a short name for table headers, a title with what it measures,
# and one line on how to read it. {k} is the report's cut-off, {n} the overlap's.
METRIC_NAMES = {"precision": "precision", "recall": "recall", "mrr": "mean reciprocal rank",
                "map": "mean average precision", "ndcg": "normalised discounted cumulative gain", "agts": "aspect-guided textual similarity",
                "overlap": "overlap with generic", "links": "linked from the seed"}
_METRIC_TITLES = {
    "precision": "P@{k} (precision: the share of the top {k} that is relevant)",
    "recall": "R@{k} (recall: the share of all relevant articles that reach the top {k})",
    "mrr": "MRR@{k} (mean reciprocal rank of the first relevant article in the top {k})",
    "map": "MAP@{k} (mean average precision of the relevant articles in the top {k})",
    "ndcg": "nDCG@{k} (normalised discounted cumulative gain: graded relevance, discounted by rank)",
    "agts": "AgTS (aspect-guided textual similarity: do higher scores go with a shared label?)",
    "overlap": "Overlap@{n} (share of the top {n} that the generic space also returns)",
    "links": "Links@{k} (share of the top {k} that the seed links to)",
}
_METRIC_MEANINGS = {
    "precision": "Of a seed's {k} nearest neighbours, the share that are relevant: 1.0 = all {k}.",
    "recall": "Of all the articles relevant to a seed, the share among its {k} nearest neighbours; small "
              "whenever a label is common, since {k} neighbours can only hold a sliver of a large label.",
    "mrr": "1 when the first neighbour is relevant, 1/2 when the second is the first relevant one, 1/3 for "
           "the third, and so on; 0 when none of the top {k} is. High MRR: the first link a reader sees is "
           "usually right.",
    "map": "Precision at the rank of each relevant neighbour, averaged (divided by the smaller of {k} and the "
           "number of relevant articles): it rewards putting all the relevant articles first, not only one.",
    "ndcg": "Each relevant neighbour in the top {k} gains its grade (in an 'or' column and in 'the seed's own "
            "aspects', how many of the aspects it shares with the seed; else 1), discounted by log2(rank + 1), divided by the best score the articles "
            "allow: 1.0 = the best possible order, sharing more ranked first.",
    "agts": "For random pairs of test articles: the Spearman correlation between the pair's similarity in the "
            "space and whether the two share a label. 0: the similarity ignores the label; higher: pairs the "
            "space finds similar tend to share it.",
    "overlap": "Share of each seed's {n} nearest neighbours (all articles) that the generic space returns too: "
               "1.0 = the same neighbours as generic, lower = the space reorders more. It describes a space, it "
               "does not score it: higher is not better.",
    "links": "Share of each seed's {k} nearest neighbours (all articles) that the seed links to (the articles of "
             "the Wikipedia links column): 1.0 = the list is the seed's links. It describes how much the links "
             "decide a list, it does not score it: higher is not better.",
}
# Metrics that describe a ranking rather than score it: never shown as "best".
DESCRIPTIVE = ("overlap", "links")
REPORT_KINDS = {"main": "main comparison of the spaces", "objectives": "training objectives compared",
                "explore": "Explore's columns as shipped, your mix at several links shares"}


def metric_header(metric: str, k: int = 10, n: int = 50) -> str:
    """`MRR@10 (mean reciprocal rank)`: short enough for a table header, named in full."""
    short = METRICS.get(metric) or {"agts": "AgTS", "overlap": f"Overlap@{n}", "links": "Links"}[metric]
    suffix = f"@{k}" if metric in METRICS or metric == "links" else ""
    return f"{short}{suffix} ({METRIC_NAMES[metric]})"


def metric_title(metric: str, k: int = 10, n: int = 50) -> str:
    """`MRR@10 (mean reciprocal rank of the first relevant article in the top 10)`."""
    return _METRIC_TITLES[metric].format(k=k, n=n)


def metric_meaning(metric: str, k: int = 10, n: int = 50) -> str:
    """How to read the metric, in one or two plain sentences."""
    return _METRIC_MEANINGS[metric].format(k=k, n=n)


def column_title(column: str) -> str:
    """A report column in words: `country`, or for groups `country or occupation` (any),
    `country and occupation` (all) and `the seed's own aspects` (own)."""
    mode, _, aspects = column.rpartition(":")
    names = aspects.split("+")
    if mode == "own":
        return "the seed's own aspects"
    joiner = {"any": " or ", "all": " and "}.get(mode)
    return joiner.join(names) if joiner else column


def column_relevance(column: str) -> str:
    """What makes a neighbour relevant in this column."""
    mode, _, aspects = column.rpartition(":")
    names = aspects.split("+")
    if mode == "any":
        return f"shares one of the seed's {' or '.join(names)} labels"
    if mode == "all":
        return f"shares one of the seed's labels in each of {' and '.join(names)}"
    if mode == "own":
        return (f"shares a label with the seed in one of its aspects ({', '.join(names)}; every test article "
                f"labelled in one of them is a seed); nDCG's gain is how many of them it shares")
    return f"shares one of the seed's {column} labels"


def _missing(value: float | None) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _cell(value: float | None, sd: float | None = None) -> str:
    """`0.672`, or `0.672 ± 0.010` for a mean over seeds."""
    if _missing(value):
        return "–"
    return f"{value:.3f}" if _missing(sd) else f"{value:.3f} ± {sd:.3f}"


class ReportFileError(AspectNavError):
    """A file given as an evaluation report is not one; the message names the file and the reason."""


_Figures = dict[str, dict[str, float | None]]


class _ReportFile(BaseModel):
    """The JSON `EvaluationReport.save` writes (extra keys, such as a later release's, are ignored)."""

    corpus: str = Field("", description="a corpus name")
    aspects: list[str] = Field([], description="a list of column names")
    k: int = Field(10, ge=1, description="a whole number >= 1")
    split: dict[str, Any] = Field({}, description="an object describing the split")
    spaces: _Figures = Field({}, description="an object mapping each row to {column: figure}")
    notes: dict[str, str] = Field({}, description="an object mapping rows to text")
    spread: _Figures = Field({}, description="an object mapping each row to {column: sd}")


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
    spread: dict[str, dict[str, float]] = field(default_factory=dict)  # sd over seeds, where `spaces` holds means

    @classmethod
    def load(cls, path: Path) -> "EvaluationReport":
        """A report written by `save` (or by hand); anything else is a ReportFileError naming the file."""
        path = Path(path)
        data = parse_user_json(read_user_text(path, ReportFileError, what="report"), path, ReportFileError)
        if not isinstance(data, dict):
            raise ReportFileError(f"{path}: not an evaluation report (a JSON object), but {kind_of(data)}")
        try:
            shape = _ReportFile.model_validate(data)
        except ValidationError as error:
            raise ReportFileError(f"{path}: not an evaluation report: "
                                  f"{'; '.join(map(field_problem, refusals(error, _ReportFile)))}") from None
        return cls(shape.corpus, shape.aspects, shape.k, shape.split, shape.spaces, shape.notes, path, shape.spread)

    @classmethod
    def mean_of(cls, reports: list["EvaluationReport"]) -> "EvaluationReport":
        """Mean and sample sd of every figure over reports of the same rows and columns on other seeds
        (split and training); a row or figure missing from one of them is left out."""
        first = reports[0]
        if any(r.corpus != first.corpus or r.aspects != first.aspects or r.k != first.k for r in reports):
            raise ValueError("Reports to average must share corpus, columns and k.")
        spaces = [name for name in first.spaces if all(name in r.spaces for r in reports)]
        means, spread = {}, {}
        for name in spaces:
            keys = [key for key in first.spaces[name] if all(key in r.spaces[name] for r in reports)]
            values = {key: np.array([r.spaces[name][key] for r in reports], dtype=np.float64) for key in keys}
            means[name] = {key: float(v.mean()) for key, v in values.items()}
            spread[name] = {key: float(v.std(ddof=1)) if len(v) > 1 else float("nan") for key, v in values.items()}
        split = {key: first.split.get(key) for key in ("test_fraction", "train", "test")}
        split["seeds"] = [r.split.get("seed") for r in reports]
        notes = {name: note for name, note in first.notes.items() if name in means}
        return cls(first.corpus, list(first.aspects), first.k, split, means, notes, spread=spread)

    @property
    def seeds(self) -> list:
        return list(self.split.get("seeds") or [self.split.get("seed")])

    @property
    def name(self) -> str:
        return self.path.stem if self.path else f"{self.corpus}-s{self.split.get('seed')}"

    @property
    def title(self) -> str:
        """The report in words for a picker: `vital — main comparison of the spaces (13 rows; shipped
        with the app)`, from its file name and where it was found."""
        suffix = self.name.removeprefix(f"{self.corpus}-")
        what = REPORT_KINDS.get(suffix) or (f"evaluation run (split seed {suffix[1:]})" if suffix[1:].isdigit()
                                            and suffix[0] == "s" else f"report {suffix!r}")
        shipped = self.path is not None and self.path.resolve().parent == (ASSETS_DIR / "reports").resolve()
        where = "shipped with the app" if shipped else "your run"
        rows = f"{len(self.spaces)} row" + ("" if len(self.spaces) == 1 else "s")
        return f"{self.corpus} — {what} ({rows}; {where})"

    @property
    def overlap_k(self) -> int:
        """The n of the report's Overlap@n (50 unless the run said otherwise)."""
        key = next((key for scores in self.spaces.values() for key in scores if "/overlap@" in key), "overlap@50")
        return int(key.rsplit("@", 1)[1])

    def _key(self, pool: str, column: str, metric: str) -> str:
        if metric == "agts":
            return f"test/{column}/agts"
        if metric == "overlap":
            return f"corpus/{column}/overlap@{self.overlap_k}"
        if metric == "links":
            return f"corpus/{column}/links@{self.k}"
        return f"{pool}/{column}/{metric}@{self.k}"

    def seed_counts(self, column: str, pool: str) -> tuple[int, int] | None:
        """(seeds scored, labelled seeds left out for lack of a relevant article), or None if unrecorded."""
        for scores in self.spaces.values():
            if f"{pool}/{column}/seeds" in scores:
                return (int(scores[f"{pool}/{column}/seeds"]),
                        int(scores.get(f"{pool}/{column}/seeds_without_relevant", 0)))
        return None

    def value(self, space: str, column: str, metric: str, pool: str = "test") -> float | None:
        """A metric (METRICS, `agts` or `overlap`) of one space, or None where it has no value
        (missing_reason says why)."""
        value = self.spaces.get(space, {}).get(self._key(pool, column, metric))
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return None
        counts = self.seed_counts(column, "test" if metric == "agts" else pool)
        if metric in METRICS and counts is not None and counts[0] == 0:
            return None  # no seed was scored: the stored 0.0 is no measurement
        return float(value)

    def sd(self, space: str, column: str, metric: str, pool: str = "test") -> float | None:
        """The spread over seeds of `value` (None for a single-seed report)."""
        value = self.spread.get(space, {}).get(self._key(pool, column, metric))
        return None if _missing(value) else float(value)

    def best_spaces(self, column: str, metric: str, pool: str = "test") -> set[str]:
        """The spaces shown in bold for a figure (see `_best`); none for a metric that only describes."""
        return set() if metric in DESCRIPTIVE else self._best(self._key(pool, column, metric))

    def missing_reason(self, space: str, column: str, metric: str, pool: str = "test") -> str:
        """Why `value` is None, in words (`n/a: …`); empty when it has a value."""
        if self.value(space, column, metric, pool) is not None:
            return ""
        stored = self._key(pool, column, metric) in self.spaces.get(space, {})
        if metric in DESCRIPTIVE and column.partition(":")[0] in ("any", "all"):
            return "n/a: measured in the tabs of one aspect and of the seed's own aspects"
        if not stored:
            return "n/a: not measured in this run" if metric in DESCRIPTIVE else "n/a: not in this report"
        counts = self.seed_counts(column, "test" if metric == "agts" else pool)
        if metric == "agts":
            if self.ranks_by_links(space):
                return "n/a: links have no similarity score to correlate"
            if counts is not None and sum(counts) < 2:
                return "n/a: fewer than 2 labelled test articles"
            return "n/a: the sampled pairs all share a label, or none does"
        if counts is not None and counts == (0, 0):
            return "n/a: no test article has this label"
        return "n/a: no seed has a relevant article"

    def ranks_by_links(self, space: str) -> bool:
        """Whether the row ranks with the seed's links (the links column, a blend or default mix with links)."""
        spelt = self.notes.get(space) or space
        return spelt == "links" or "links:" in spelt or spelt.startswith("default-mix")

    def add(self, name: str, metrics: dict[str, float], note: str = "") -> None:
        self.spaces[name] = metrics
        if note:
            self.notes[name] = note

    def to_json(self) -> str:
        data = {"corpus": self.corpus, "aspects": self.aspects, "k": self.k, "split": self.split,
                "spaces": self.spaces, "notes": self.notes} | ({"spread": self.spread} if self.spread else {})
        return json.dumps(data, indent=2, default=float)

    def save(self, path: Path) -> tuple[Path, Path]:
        path.parent.mkdir(parents=True, exist_ok=True)
        json_path, md_path = path.with_suffix(".json"), path.with_suffix(".md")
        json_path.write_text(self.to_json())
        md_path.write_text(self.to_markdown())
        self.path = json_path
        return json_path, md_path

    def metric_rows(self, aspect: str, pool: str) -> list[dict]:
        """One row per space: P/R/MRR/MAP@k of `aspect` in `pool` (None where `value` has none)."""
        return [{"space": space} | {f"{short}@{self.k}": self.value(space, aspect, metric, pool)
                                    for metric, short in METRICS.items()}
                for space in self.spaces]

    def _best(self, key: str) -> set[str]:
        """Rows shown in bold for a figure: the best, and (over seeds) every row whose mean lies within the
        spread of the best, since a difference smaller than the spread is no difference the seeds support."""
        scored = {name: s[key] for name, s in self.spaces.items() if not _missing(s.get(key))}
        if len(scored) < 2:
            return set()
        top = max(scored, key=scored.get)
        sd = lambda name: self.spread.get(name, {}).get(key)  # noqa: E731
        margin = {name: max((v for v in (sd(top), sd(name)) if not _missing(v)), default=0.0) for name in scored}
        return {name for name, value in scored.items() if scored[top] - value <= margin[name]}

    def table(self, pool: str, metrics: tuple[str, ...] = ("precision", "recall", "mrr")) -> str:
        """Rows: spaces; columns: `metrics`@k per aspect, best of each column in bold."""
        k = self.k
        head = ["Space"] + [f"{a} {METRICS[m]}@{k}" for a in self.aspects for m in metrics]
        keys = [f"{pool}/{a}/{m}@{k}" for a in self.aspects for m in metrics]
        best = {key: self._best(key) for key in keys}
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for name, scores in self.spaces.items():
            cells = []
            for key in keys:
                text = _cell(scores.get(key), self.spread.get(name, {}).get(key))
                cells.append(f"**{text}**" if name in best[key] else text)
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def secondary_table(self) -> str:
        """AgTS (test pairs), Overlap@50 with the generic space and Links@k (corpus pool) per aspect; the
        last two describe a ranking, so nothing is bold."""
        described = [a for a in self.aspects if a.partition(":")[0] not in ("any", "all")]
        keys = [(f"{a} AgTS", f"test/{a}/agts") for a in self.aspects]
        for metric in DESCRIPTIVE:
            if any(self._key("corpus", a, metric) in s for s in self.spaces.values() for a in described):
                keys += [(f"{a} {metric_header(metric, self.k, self.overlap_k).split(' (')[0]}",
                          self._key("corpus", a, metric)) for a in described]
        lines = ["| " + " | ".join(["Space"] + [head for head, _ in keys]) + " |", "|" + "---|" * (len(keys) + 1)]
        for name, s in self.spaces.items():
            sd = self.spread.get(name, {})
            lines.append(f"| {name} | " + " | ".join(_cell(s.get(key), sd.get(key)) for _, key in keys) + " |")
        return "\n".join(lines)

    def to_markdown(self) -> str:
        seeds = self.seeds
        over = (f"mean ± sd over {len(seeds)} seeds ({', '.join(map(str, seeds))}: split and training); bold: the best "
                "and every figure within the spread of the best") if len(seeds) > 1 else \
            f"split seed {seeds[0]}; bold: the best"
        parts = [f"Corpus `{self.corpus}`, {over} ({self.split.get('train')} train / {self.split.get('test')} test "
                 f"articles), k = {self.k}."]
        for pool in POOLS:
            parts += [f"\n**{POOL_TITLES[pool]}**\n"]
            parts += ["\n\n".join(self.table(pool, group) for group in TABLE_GROUPS)]
        linked = any("/links@" in key for scores in self.spaces.values() for key in scores)
        described = "overlap with the generic space" + (" and share linked from the seed" if linked else "")
        parts += [f"\n**AgTS, {described}** (the overlap{' and the share' if linked else ''} describe a ranking: "
                  "higher is not better)\n", self.secondary_table()]
        if self.notes:
            parts += ["\n" + "\n".join(f"- {name}: {note}" for name, note in self.notes.items())]
        return "\n".join(parts) + "\n"


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
            except ReportFileError:
                continue  # not a report (or half-written): skipped rather than breaking the page
            if report.spaces and (corpus is None or report.corpus == corpus):
                reports.append(report)
    # The headline report (`<corpus>-main`, the README's table) first, then newest first.
    return sorted(reports, key=lambda report: not report.name.endswith("-main"))
