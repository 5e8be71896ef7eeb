"""A user study as data: title, consent text, tasks and the sources each task compares.

A study file (YAML or JSON) is read by `load_study`, which checks its shape and sizes; `check_study`
then checks it against a corpus (seeds, aspects, labels) and the sources the engine knows. Every
refusal names the study and the task, so a researcher can fix the file without guessing.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from explore.errors import AmbiguousTitleError, AspectNavError, UnknownArticleError
from explore.settings import ASSETS_DIR

STUDIES_DIR = ASSETS_DIR / "studies"
DEFAULT_STUDY = "vital_default"
DEFAULT_SOURCES = ("links", "generic", "aspect", "union")
# Plain kinds a source may name; "aspect" alone means the task's own aspect.
PLAIN_KINDS = ("links", "generic", "union", "intersection")
MAX_CANDIDATES_PER_SOURCE = 20
_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class StudyDefinitionError(AspectNavError):
    """A study file is malformed or does not fit the corpus; the message names the task."""


@dataclass(frozen=True)
class Source:
    """Where candidates come from. `label` is what the analysis reports; `kind` what the engine runs.

    `kind` is `links`, `generic`, `aspect:<name>`, `union`, `intersection` or `blend`; a blend
    carries `weights` (space name → weight).
    """

    label: str
    kind: str
    weights: Mapping[str, float] = field(default_factory=dict)

    @property
    def aspect(self) -> str | None:
        return self.kind.split(":", 1)[1] if self.kind.startswith("aspect:") else None


@dataclass(frozen=True)
class Task:
    """One exploration task: read on from `seed` towards `goal` along `aspect` = `label`."""

    id: str
    aspect: str
    label: str
    seed: str
    goal: str
    sources: tuple[Source, ...]
    candidates_per_source: int = 3
    rank_depth: int = 5

    @property
    def task_type(self) -> str:
        """Tasks are grouped by their aspect in the analysis (country tasks, occupation tasks)."""
        return self.aspect

    @property
    def nominal_candidates(self) -> int:
        """Candidates shown when no two sources agree (12 in the research)."""
        return self.candidates_per_source * len(self.sources)


@dataclass(frozen=True)
class StudyDefinition:
    name: str
    title: str
    corpus: str
    intro: str
    consent: str
    tasks: tuple[Task, ...]

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise StudyDefinitionError(f"Study {self.name!r} has no task {task_id!r}.")

    @property
    def source_labels(self) -> list[str]:
        return list(dict.fromkeys(source.label for task in self.tasks for source in task.sources))

    @property
    def task_types(self) -> list[str]:
        return list(dict.fromkeys(task.task_type for task in self.tasks))

    def to_dict(self) -> dict:
        return asdict(self)

    def fingerprint(self) -> str:
        """Changes when anything a participant sees or the analysis reads changes."""
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()[:16]


def study_from_dict(data: Mapping) -> StudyDefinition:
    """Inverse of `StudyDefinition.to_dict` (the store keeps studies as JSON)."""
    tasks = tuple(
        Task(**{**t, "sources": tuple(Source(**s) for s in t["sources"])}) for t in data["tasks"]
    )
    return StudyDefinition(**{**data, "tasks": tasks})


def study_path(name_or_path: str | Path) -> Path:
    """A path as given, or the name of a shipped study in assets/studies/."""
    path = Path(name_or_path)
    if path.suffix in {".yaml", ".yml", ".json"} or path.exists():
        return path
    for suffix in (".yaml", ".yml", ".json"):
        candidate = STUDIES_DIR / f"{name_or_path}{suffix}"
        if candidate.exists():
            return candidate
    shipped = ", ".join(sorted(p.stem for p in STUDIES_DIR.glob("*.y*ml")))
    raise StudyDefinitionError(f"No study file {str(name_or_path)!r}. Shipped studies: {shipped}.")


def load_study(name_or_path: str | Path = DEFAULT_STUDY) -> StudyDefinition:
    """Read and shape-check a study file (no corpus needed; see `check_study` for that)."""
    path = study_path(name_or_path)
    if not path.exists():
        raise StudyDefinitionError(f"Study file {str(path)!r} does not exist.")
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise StudyDefinitionError(f"Study file {str(path)!r} cannot be read: {exc}") from None
    return parse_study(data, default_name=path.stem)


def parse_study(data: Any, default_name: str = DEFAULT_STUDY) -> StudyDefinition:
    if not isinstance(data, Mapping):
        raise StudyDefinitionError("A study file must be a mapping with title, corpus and tasks.")
    name = str(data.get("name") or default_name)
    if not _SLUG.match(name):
        raise StudyDefinitionError(f"Study name {name!r}: use 1-64 letters, digits, '.', '_' or '-'.")
    where = f"Study {name!r}"
    defaults = data.get("defaults") or {}
    raw_tasks = data.get("tasks")
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise StudyDefinitionError(f"{where}: 'tasks' must be a non-empty list.")
    tasks = tuple(_parse_task(raw, index, defaults, where) for index, raw in enumerate(raw_tasks, start=1))
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise StudyDefinitionError(f"{where}, task {task.id!r}: the id is used twice.")
        seen.add(task.id)
    return StudyDefinition(
        name=name,
        title=str(data.get("title") or name),
        corpus=str(data.get("corpus") or "vital"),
        intro=str(data.get("intro") or "").strip(),
        consent=str(data.get("consent") or "").strip(),
        tasks=tasks,
    )


def _parse_task(raw: Any, index: int, defaults: Mapping, where: str) -> Task:
    if not isinstance(raw, Mapping):
        raise StudyDefinitionError(f"{where}, task #{index}: must be a mapping.")
    task_id = str(raw.get("id") or f"task-{index}")
    here = f"{where}, task {task_id!r}"
    if not _SLUG.match(task_id):
        raise StudyDefinitionError(f"{here}: the id must be 1-64 letters, digits, '.', '_' or '-'.")
    for key in ("aspect", "label", "seed", "goal"):
        if not str(raw.get(key) or "").strip():
            raise StudyDefinitionError(f"{here}: '{key}' is required.")
    aspect = str(raw["aspect"]).strip()
    sources = tuple(_parse_source(s, aspect, here) for s in raw.get("sources", defaults.get("sources", DEFAULT_SOURCES)))
    per_source = _size(raw.get("candidates_per_source", defaults.get("candidates_per_source", 3)), "candidates_per_source", here)
    depth = _size(raw.get("rank_depth", defaults.get("rank_depth", 5)), "rank_depth", here)
    if not sources:
        raise StudyDefinitionError(f"{here}: 'sources' is empty; name at least one source.")
    labels = [s.label for s in sources]
    if len(set(labels)) != len(labels):
        raise StudyDefinitionError(f"{here}: two sources share a label ({', '.join(labels)}); give blends distinct labels.")
    if per_source > MAX_CANDIDATES_PER_SOURCE:
        raise StudyDefinitionError(
            f"{here}: candidates_per_source = {per_source} is more than a participant can read (max {MAX_CANDIDATES_PER_SOURCE})."
        )
    if depth > per_source * len(sources):
        raise StudyDefinitionError(
            f"{here}: rank_depth = {depth} is impossible with {len(sources)} sources × {per_source} candidates "
            f"= at most {per_source * len(sources)} candidates."
        )
    return Task(
        id=task_id,
        aspect=aspect,
        label=str(raw["label"]).strip(),
        seed=str(raw["seed"]).strip(),
        goal=str(raw["goal"]).strip(),
        sources=sources,
        candidates_per_source=per_source,
        rank_depth=depth,
    )


def _size(value: Any, key: str, here: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise StudyDefinitionError(f"{here}: '{key}' must be a whole number of at least 1, not {value!r}.")
    return value


def _parse_source(raw: Any, task_aspect: str, here: str) -> Source:
    if isinstance(raw, str):
        raw = raw.strip()
        if raw == "aspect":
            # Reported as "aspect" so that country and occupation tasks pool into one source.
            return Source(label="aspect", kind=f"aspect:{task_aspect}")
        if raw.startswith("aspect:"):
            label = "aspect" if raw == f"aspect:{task_aspect}" else raw
            return Source(label=label, kind=raw)
        if raw in PLAIN_KINDS:
            return Source(label=raw, kind=raw)
        raise StudyDefinitionError(
            f"{here}: unknown source {raw!r}; use links, generic, aspect, aspect:<name>, union, intersection "
            "or a blend mapping {label, kind: blend, weights}."
        )
    if isinstance(raw, Mapping):
        kind = str(raw.get("kind") or "").strip()
        label = str(raw.get("label") or kind).strip()
        weights = raw.get("weights") or {}
        if kind == "aspect":
            kind = f"aspect:{task_aspect}"
        if kind == "blend":
            if not isinstance(weights, Mapping) or not weights:
                raise StudyDefinitionError(f"{here}, source {label!r}: a blend needs 'weights' (space → weight).")
            try:
                weights = {str(k): float(v) for k, v in weights.items()}
            except (TypeError, ValueError):
                raise StudyDefinitionError(f"{here}, source {label!r}: blend weights must be numbers.") from None
            if any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
                raise StudyDefinitionError(f"{here}, source {label!r}: blend weights must be ≥ 0 and not all 0.")
            return Source(label=label, kind=kind, weights=weights)
        if kind in PLAIN_KINDS or kind.startswith("aspect:"):
            return Source(label=label, kind=kind)
        raise StudyDefinitionError(f"{here}: unknown source kind {kind!r}.")
    raise StudyDefinitionError(f"{here}: a source must be a name or a mapping, not {raw!r}.")


def check_study(study: StudyDefinition, corpus, known_spaces: Iterable[str] | None = None,
                known_kinds: Iterable[str] | None = None) -> StudyDefinition:
    """Refuse a study that does not fit `corpus`: unknown seed, aspect, label or space.

    `known_spaces` are the space names a blend may weight and an `aspect:` source may name
    (default: `generic` plus the corpus's aspects); `known_kinds`, when given (the engine's
    available kinds), bound every other source. Seeds are resolved to article ids.
    """
    kinds = set(known_kinds) if known_kinds is not None else None
    if corpus.name != study.corpus:
        raise StudyDefinitionError(f"Study {study.name!r} is for corpus {study.corpus!r}, not {corpus.name!r}.")
    spaces = set(known_spaces) if known_spaces is not None else {"generic", *corpus.aspect_names}
    resolved = []
    for task in study.tasks:
        here = f"Study {study.name!r}, task {task.id!r}"
        try:
            seed = corpus.find(task.seed)
        except (UnknownArticleError, AmbiguousTitleError) as exc:
            raise StudyDefinitionError(f"{here}: seed — {exc}") from None
        if task.aspect not in corpus.aspect_names:
            raise StudyDefinitionError(
                f"{here}: unknown aspect {task.aspect!r}; corpus {corpus.name!r} has {', '.join(corpus.aspect_names)}."
            )
        if task.label not in corpus.label_counts(task.aspect):
            raise StudyDefinitionError(f"{here}: no article of corpus {corpus.name!r} has {task.aspect} = {task.label!r}.")
        for source in task.sources:
            if source.aspect is not None and source.aspect not in spaces:
                raise StudyDefinitionError(f"{here}: unknown space {source.kind!r}; known: {', '.join(sorted(spaces))}.")
            unknown = [name for name in source.weights if name not in spaces]
            if unknown:
                raise StudyDefinitionError(
                    f"{here}, source {source.label!r}: unknown space {unknown[0]!r}; known: {', '.join(sorted(spaces))}."
                )
            if kinds is not None and source.kind != "blend" and source.kind not in kinds:
                raise StudyDefinitionError(
                    f"{here}: unknown space {source.kind!r} for source {source.label!r}; "
                    f"the engine offers: {', '.join(sorted(kinds))}."
                )
            if source.kind == "links" and corpus.provenance.links == "none":
                raise StudyDefinitionError(f"{here}: source 'links' but corpus {corpus.name!r} has no links.")
        resolved.append(replace(task, seed=seed.id))
    return replace(study, tasks=tuple(resolved))
