"""A user study as data: title, consent text, tasks and the sources each task compares, and the design
declared before data collection (task order, attention and gold checks, exclusion rules).

A study file (YAML or JSON) is read by `load_study`, which checks its shape and sizes against pydantic
schemas (a refusal quotes the field's description); `check_study` then checks it against a corpus (seeds,
aspects, labels, check articles) and the sources the engine knows. Every refusal names the study and the
task or field, so a researcher can fix the file without guessing.
"""
from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from explore.errors import AmbiguousTitleError, AspectNavError, UnknownArticleError
from explore.names import NAME_PATTERN, NAME_RULE
from explore.query import Kind, Query
from explore.schema import Refusal, refusals
from explore.settings import ASSETS_DIR
from explore.user_files import kind_of, parse_user_json, parse_user_yaml, read_user_text
from study.check_tasks import DECOY_MIN_REMOTENESS, Check, CheckKind, decoy_suggestions, shared_labels
from study.exclusions import RULES, ExclusionRule
from study.planned_effect import PlannedEffect
from study.platform import Platform
from study.questionnaire import ITEM_SCHEMAS, PRESET_ITEMS, Questionnaire, QuestionnaireFile
from study.task_order import Design, TaskOrder

STUDIES_DIR = ASSETS_DIR / "studies"
DEFAULT_STUDY = "vital_default"
DEFAULT_SOURCES = ("links", "generic", "aspect", "union")
MAX_CANDIDATES_PER_SOURCE = 20
MAX_STUDY_BYTES = 1 << 20  # the shipped study is 4 kB; a study of thousands of tasks stays under it


class StudyDefinitionError(AspectNavError):
    """A study file is malformed or does not fit the corpus; the message names the task."""


@dataclass(frozen=True)
class Source:
    """Where candidates come from. `label` is what the analysis reports; `query` what the engine runs
    (any explore.query spelling: `links`, `morelike` (Wikipedia's Read more), `generic`, `aspect:<name>`, `union`,
    `blend:a:0.7,b:0.3`, ...)."""

    label: str
    query: Query

    @property
    def aspect(self) -> str | None:
        return self.query.name if self.query.kind is Kind.ASPECT else None

    def to_dict(self) -> dict:
        """The stored shape of earlier releases (kind, weights), so a stored study keeps its fingerprint."""
        blend = self.query.blend
        return {"label": self.label, "kind": "blend" if blend else str(self.query),
                "weights": blend.as_dict() if blend else {}}

    @classmethod
    def from_dict(cls, data: Mapping) -> "Source":
        weights = data.get("weights") or {}
        query = Query.blended(weights) if data["kind"] == "blend" else Query.parse(data["kind"])
        return cls(data["label"], query)


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
    check: Check | None = None  # an attention item or gold task: left out of the source comparison

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
    design: Design = Design()
    exclusions: tuple[ExclusionRule, ...] = ()
    planned_effect: PlannedEffect | None = None  # for `study simulate`; not in the fingerprint
    platform: Platform = Platform()  # the hand-off (ids, return URLs); not in the fingerprint
    questionnaire: Questionnaire = Questionnaire()  # asked after the ranking tasks

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise StudyDefinitionError(f"Study {self.name!r} has no task {task_id!r}.")

    @property
    def comparison_tasks(self) -> tuple[Task, ...]:
        """The tasks that compare sources (every task but the checks)."""
        return tuple(task for task in self.tasks if task.check is None)

    @property
    def check_tasks(self) -> tuple[Task, ...]:
        return tuple(task for task in self.tasks if task.check is not None)

    @property
    def source_labels(self) -> list[str]:
        return list(dict.fromkeys(source.label for task in self.comparison_tasks for source in task.sources))

    @property
    def task_types(self) -> list[str]:
        return list(dict.fromkeys(task.task_type for task in self.comparison_tasks))

    @property
    def screen_out_checks(self) -> frozenset[CheckKind]:
        """The check kinds whose failure sends a participant to the platform's screen-out URL: those a
        declared exclusion rule reads, when the platform declares a screen-out path."""
        if not self.platform.screens_out:
            return frozenset()
        return frozenset(rule.needs for rule in self.exclusions if rule.needs is not None)

    @property
    def task_order_rows(self) -> list[tuple[str, ...]]:
        """The Latin-square rows participants are assigned to in arrival order (empty when random)."""
        return self.design.rows([task.id for task in self.tasks])

    def to_dict(self) -> dict:
        """A study without checks, design or exclusions keeps the shape (and fingerprint) of earlier releases."""
        tasks = [_task_dict(task) for task in self.tasks]
        data = {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("tasks", "design", "exclusions", "planned_effect", "platform", "questionnaire")}
        if self.design != Design():
            data["design"] = self.design.to_dict()
        if self.exclusions:
            data["exclusions"] = [rule.model_dump() for rule in self.exclusions]
        if self.planned_effect:
            data["power"] = self.planned_effect.model_dump()
        if self.platform != Platform():
            data["platform"] = self.platform.model_dump(mode="json", exclude_none=True)
        if self.questionnaire.items:
            data["questionnaire"] = self.questionnaire.to_list()
        return {**data, "tasks": tasks}

    def fingerprint(self) -> str:
        """Changes when anything a participant ranks or the analysis reads changes (not the planned effect, nor
        the platform hand-off: a corrected completion URL must not split a running study)."""
        data = {key: value for key, value in self.to_dict().items() if key not in ("power", "platform")}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _task_dict(task: Task) -> dict:
    data = {**asdict(replace(task, check=None)), "sources": [source.to_dict() for source in task.sources]}
    del data["check"]
    return {**data, "check": task.check.to_dict()} if task.check else data


def study_from_dict(data: Mapping) -> StudyDefinition:
    """Inverse of `StudyDefinition.to_dict` (the store keeps studies as JSON)."""
    tasks = tuple(
        Task(**{**t, "sources": tuple(Source.from_dict(s) for s in t["sources"]),
                "check": Check.from_dict(t["check"]) if t.get("check") else None})
        for t in data["tasks"]
    )
    design = Design.from_dict(data["design"]) if data.get("design") else Design()
    exclusions = tuple(RULES[rule["rule"]].model_validate(rule) for rule in data.get("exclusions") or ())
    effect = PlannedEffect.model_validate(data["power"]) if data.get("power") else None
    platform = Platform.model_validate(data["platform"]) if data.get("platform") else Platform()
    questionnaire = Questionnaire.from_list(data.get("questionnaire") or [])
    rest = {key: value for key, value in data.items() if key not in ("power", "platform", "questionnaire")}
    return StudyDefinition(**{**rest, "tasks": tasks, "design": design, "exclusions": exclusions,
                              "planned_effect": effect, "platform": platform, "questionnaire": questionnaire})


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
    text = read_user_text(path, StudyDefinitionError, MAX_STUDY_BYTES, what="study file")
    read = parse_user_json if path.suffix == ".json" else parse_user_yaml
    data = read(text, path, StudyDefinitionError)
    if not isinstance(data, Mapping):
        raise StudyDefinitionError(f"{path}: a study file must be a mapping with title, corpus and tasks, "
                                   f"not {kind_of(data)}.")
    return parse_study(data, default_name=path.stem)


_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class _Schema(BaseModel):
    # A YAML `label: 1984` is the text "1984"; a misspelt key is refused rather than silently ignored.
    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True)


class _StudyFile(_Schema):
    """A study file as written; `defaults` and each task are checked on their own, so a refusal names the task."""

    name: str = Field(pattern=NAME_PATTERN, description=NAME_RULE)
    title: str | None = Field(None, description="text")
    corpus: str | None = Field(None, pattern=NAME_PATTERN, description=f"a corpus name such as vital: {NAME_RULE}")
    intro: str | None = Field(None, description="text")
    consent: str | None = Field(None, description="text")
    defaults: dict[str, Any] | None = Field(None, description="a mapping of sources, candidates_per_source, rank_depth")
    design: dict[str, Any] | None = Field(
        None, description="a mapping {order: random | balanced_latin_square, reassign_after_minutes: <minutes>}")
    platform: dict[str, Any] | None = Field(
        None, description="a mapping {kind: prolific | mturk | none, completion_url, completion_code, "
                          "screen_out_url, screen_out_code}")
    exclusions: list[Any] | None = Field(
        None, description=f"a list of exclusion rules, each a mapping {{rule: {' | '.join(RULES)}}}")
    power: dict[str, Any] | None = Field(
        None, description="a mapping {mean_rank: {<source>: <expected mean rank>, ...}, participant_sd: <number>}")
    questionnaire: dict[str, Any] | None = Field(
        None, description="a mapping {preset: resque, items: [{id, kind: likert | single_choice | free_text, text, "
                          "required, scope: per_source | once, ...}]}")
    tasks: list[Any] = Field(min_length=1, description="a non-empty list of tasks")


class _DesignFile(_Schema):
    """How participants get their task order."""

    order: TaskOrder = Field(TaskOrder.RANDOM, description=" or ".join(map(str, TaskOrder)))
    reassign_after_minutes: float | None = Field(
        None, gt=0, le=7 * 24 * 60,
        description="minutes (above 0, at most a week) after which an unfinished participant's task order goes "
                    "back to the pool")


class _Defaults(_Schema):
    """What every task uses unless it says otherwise."""

    sources: tuple[Any, ...] = Field(
        DEFAULT_SOURCES, min_length=1,
        description="a list of at least one source: a query (links, generic, aspect, union, aspect:<name>, "
                    "blend:<space>:<weight>,...) or a mapping {label, kind}")
    candidates_per_source: int = Field(
        3, strict=True, ge=1, le=MAX_CANDIDATES_PER_SOURCE,
        description=f"a whole number from 1 to {MAX_CANDIDATES_PER_SOURCE} (a participant cannot read more)")
    rank_depth: int = Field(5, strict=True, ge=1, description="a whole number of at least 1")


class _TaskFile(_Defaults):
    id: str = Field(pattern=NAME_PATTERN, description=NAME_RULE)
    aspect: _Text = Field(description="a corpus aspect name such as country")
    label: _Text = Field(description="a label of that aspect such as France")
    seed: _Text = Field(description="the title of the article the task starts from")
    goal: _Text = Field(description="a text shown to the participant, such as 'Learn about France'")
    check: dict[str, Any] | None = Field(
        None, description="a mapping {kind: attention, rank_first: <title>} or {kind: gold, decoy: <title>}")


class _AttentionFile(_Schema):
    kind: Literal["attention"]
    rank_first: _Text = Field(description="the title of the article the goal tells participants to rank first")


class _GoldFile(_Schema):
    kind: Literal["gold"]
    decoy: _Text = Field(description="the title of an article unrelated to the seed, that nobody attentive ranks first")


_CHECK_FILES: dict[str, type[_Schema]] = {"attention": _AttentionFile, "gold": _GoldFile}


def _validated(schema: type[_Schema], data: Any, here: str):
    try:
        return schema.model_validate(data)
    except ValidationError as error:
        raise StudyDefinitionError(f"{here}: {'; '.join(map(_sentence, refusals(error, schema)))}.") from None


def _sentence(refusal: Refusal) -> str:
    """'rank_depth' must be a whole number of at least 1, not 0 (and the like)."""
    field, got = refusal.field, refusal.got
    if not field:  # a check across fields (its own sentence), or not a mapping at all
        return refusal.expected if isinstance(got, Mapping) else f"must be a mapping of {refusal.expected}, not {got!r}"
    if refusal.unknown:
        return f"unknown field {field!r}; known fields: {refusal.expected}"
    if refusal.missing or got is None or (isinstance(got, str) and not got.strip()):
        return f"{field!r} is required: {refusal.expected}"
    if isinstance(got, (list, tuple, dict)) and not got:
        return f"{field!r} is empty; expected {refusal.expected}"
    return f"{field!r} must be {refusal.expected}, not {got!r}"


def parse_study(data: Any, default_name: str = DEFAULT_STUDY) -> StudyDefinition:
    if not isinstance(data, Mapping):
        raise StudyDefinitionError("A study file must be a mapping with title, corpus and tasks.")
    name = str(data.get("name") or default_name)
    where = f"Study {name!r}"
    study = _validated(_StudyFile, {**data, "name": name}, where)
    defaults = _validated(_Defaults, study.defaults or {}, f"{where}, defaults")
    tasks = tuple(_parse_task(raw, index, defaults, where) for index, raw in enumerate(study.tasks, start=1))
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise StudyDefinitionError(f"{where}, task {task.id!r}: the id is used twice.")
        seen.add(task.id)
    if not any(task.check is None for task in tasks):
        raise StudyDefinitionError(f"{where}: every task is a check; at least one task must compare sources.")
    design = _validated(_DesignFile, study.design or {}, f"{where}, design")
    if design.reassign_after_minutes is not None and design.order is TaskOrder.RANDOM:
        raise StudyDefinitionError(f"{where}, design: reassign_after_minutes needs order: balanced_latin_square "
                                   "(random orders have no rows to hand back).")
    exclusions = _parse_exclusions(study.exclusions or [], tasks, where)
    platform = _validated(Platform, study.platform or {}, f"{where}, platform")
    if platform.screens_out and not any(rule.needs is not None for rule in exclusions):
        raise StudyDefinitionError(
            f"{where}, platform: screen_out_url is declared but no exclusion rule reads a check "
            f"(failed_attention or gold_ranked_first), so nobody would be screened out; declare one or remove "
            f"screen_out_url and screen_out_code.")
    return StudyDefinition(
        name=name,
        title=study.title or name,
        corpus=study.corpus or "vital",
        intro=(study.intro or "").strip(),
        consent=(study.consent or "").strip(),
        tasks=tasks,
        design=Design(design.order, design.reassign_after_minutes),
        exclusions=exclusions,
        planned_effect=_parse_effect(study.power, tasks, where) if study.power is not None else None,
        platform=platform,
        questionnaire=_parse_questionnaire(study.questionnaire, where) if study.questionnaire is not None
        else Questionnaire(),
    )


def _parse_questionnaire(raw: Mapping, where: str) -> Questionnaire:
    """The preset's items (if any), then the study's own; ids distinct, each item checked by its kind's schema."""
    block = _validated(QuestionnaireFile, raw, f"{where}, questionnaire")
    items = list(PRESET_ITEMS[block.preset]()) if block.preset else []
    for index, item in enumerate(block.items, start=1):
        item_id = item.get("id") if isinstance(item, Mapping) else None
        here = f"{where}, questionnaire item " + (repr(str(item_id)) if item_id is not None else f"#{index}")
        kind = item.get("kind") if isinstance(item, Mapping) else None
        if kind not in ITEM_SCHEMAS:
            got = kind if isinstance(item, Mapping) else item
            raise StudyDefinitionError(f"{here}: 'kind' must be one of {', '.join(ITEM_SCHEMAS)}, not {got!r}.")
        parsed = _validated(ITEM_SCHEMAS[kind], item, here)
        if any(earlier.id == parsed.id for earlier in items):
            preset = f" (the {block.preset} preset has it)" if block.preset and parsed.id in \
                [i.id for i in PRESET_ITEMS[block.preset]()] else ""
            raise StudyDefinitionError(f"{here}: the id is used twice{preset}; give each item its own id.")
        items.append(parsed)
    if not items:
        raise StudyDefinitionError(f"{where}, questionnaire: no items; add items or preset: resque "
                                   f"(or remove the block).")
    return Questionnaire(tuple(items))


def _parse_effect(raw: Mapping, tasks: tuple[Task, ...], where: str) -> PlannedEffect:
    effect = _validated(PlannedEffect, raw, f"{where}, power")
    labels = list(dict.fromkeys(s.label for t in tasks if t.check is None for s in t.sources))
    if sorted(effect.mean_rank) != sorted(labels):
        raise StudyDefinitionError(f"{where}, power: mean_rank must give one figure for each source "
                                   f"({', '.join(labels)}), not for {', '.join(effect.mean_rank)}.")
    return effect


def _parse_exclusions(raw_rules: list[Any], tasks: tuple[Task, ...], where: str) -> tuple[ExclusionRule, ...]:
    """Each rule known, given once, and with the check task it reads present in the study."""
    rules = []
    for index, raw in enumerate(raw_rules, start=1):
        name = raw.get("rule") if isinstance(raw, Mapping) else None
        here = f"{where}, exclusions #{index}" + (f" ({name!r})" if isinstance(name, str) else "")
        if not isinstance(raw, Mapping) or name not in RULES:
            got = name if isinstance(raw, Mapping) else raw
            raise StudyDefinitionError(f"{here}: 'rule' must be one of {', '.join(RULES)}, not {got!r}.")
        rule = _validated(RULES[name], raw, here)
        if any(earlier.rule == rule.rule for earlier in rules):
            raise StudyDefinitionError(f"{here}: the rule is declared twice.")
        if rule.needs is not None and not any(t.check and t.check.kind is rule.needs for t in tasks):
            raise StudyDefinitionError(
                f"{here}: the study has no {rule.needs} task to apply it to; add a task with "
                f"check: {{kind: {rule.needs}, ...}} or remove the rule.")
        rules.append(rule)
    return tuple(rules)


def _parse_task(raw: Any, index: int, defaults: _Defaults, where: str) -> Task:
    task_id = str(raw.get("id") or f"task-{index}") if isinstance(raw, Mapping) else None
    here = f"{where}, task {task_id!r}" if task_id else f"{where}, task #{index}"
    fields = _validated(_TaskFile, {**defaults.model_dump(), **raw, "id": task_id} if task_id else raw, here)
    sources = tuple(_parse_source(s, fields.aspect, here) for s in fields.sources)
    labels = [s.label for s in sources]
    if len(set(labels)) != len(labels):
        raise StudyDefinitionError(
            f"{here}: two sources share a label ({', '.join(labels)}); give blends distinct labels.")
    per_source, depth = fields.candidates_per_source, fields.rank_depth
    if depth > per_source * len(sources):
        raise StudyDefinitionError(
            f"{here}: rank_depth = {depth} is impossible with {len(sources)} sources × {per_source} candidates "
            f"= at most {per_source * len(sources)} candidates."
        )
    return Task(id=task_id, aspect=fields.aspect, label=fields.label, seed=fields.seed, goal=fields.goal,
                sources=sources, candidates_per_source=per_source, rank_depth=depth,
                check=_parse_check(fields.check, fields.goal, here) if fields.check is not None else None)


def _parse_check(raw: Mapping, goal: str, here: str) -> Check:
    kind = raw.get("kind")
    if kind not in _CHECK_FILES:
        raise StudyDefinitionError(f"{here}: check 'kind' must be attention or gold, not {kind!r}.")
    schema = _validated(_CHECK_FILES[kind], raw, f"{here}, check")
    if isinstance(schema, _AttentionFile):
        if schema.rank_first.casefold() not in goal.casefold():
            raise StudyDefinitionError(
                f"{here}, check: the goal must name {schema.rank_first!r}, the article to rank first, so that "
                f"participants can follow it (e.g. 'To show you are reading, rank “{schema.rank_first}” first.').")
        return Check(CheckKind.ATTENTION, schema.rank_first)
    return Check(CheckKind.GOLD, schema.decoy)


def _parse_source(raw: Any, task_aspect: str, here: str) -> Source:
    """A source name (any query spelling; bare `aspect` = the task's own aspect) or a mapping
    {label, kind} ({label, kind: blend, weights} of earlier releases is still read, with a warning)."""
    if isinstance(raw, Mapping):
        kind = str(raw.get("kind") or "").strip()
        label = str(raw.get("label") or "").strip() or None
        weights = raw.get("weights")
        if kind == "blend" and weights is not None:
            if not isinstance(weights, Mapping):
                raise StudyDefinitionError(f"{here}, source {label or kind!r}: 'weights' must map space → weight.")
            query = _query(lambda: Query.blended(weights), here, label or kind)
            warnings.warn(f"{here}, source {label or kind!r}: kind: blend with weights is deprecated; write "
                          f"kind: {str(query)!r}.", FutureWarning, stacklevel=2)
            return Source(label or str(query), query)
        raw_kind = kind
    elif isinstance(raw, str):
        raw_kind, label = raw.strip(), None
    else:
        raise StudyDefinitionError(f"{here}: a source must be a name or a mapping, not {raw!r}.")
    if raw_kind == "aspect":
        raw_kind = f"aspect:{task_aspect}"
    query = _query(lambda: Query.parse(raw_kind), here, label or raw_kind)
    if label is None:
        # The task's own aspect is reported as "aspect" so that country and occupation tasks pool into one source.
        label = "aspect" if query == Query(Kind.ASPECT, task_aspect) else str(query)
    return Source(label, query)


def _query(make, here: str, label: str) -> Query:
    try:
        return make()
    except AspectNavError as exc:
        raise StudyDefinitionError(f"{here}, source {label!r}: {exc}") from None


def check_study(study: StudyDefinition, corpus, known_spaces: Iterable[str] | None = None,
                resolve: Callable[[Query], object] | None = None,
                remoteness: Callable[[str], Mapping[str, float]] | None = None) -> StudyDefinition:
    """Refuse a study that does not fit `corpus`: unknown seed, aspect, label, space or check article.

    `known_spaces` are the space names a blend may weight and an `aspect:` source may name
    (default: `generic` plus the corpus's aspects); `resolve`, when given (the engine's
    `Neighbourhood.resolve`), must accept every source other than links; `remoteness`, when given
    (seed id → article id → share of the corpus nearer the seed in the generic space), must put
    every gold decoy far from its seed. Seeds and check articles are resolved to article ids.
    """
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
                raise StudyDefinitionError(f"{here}: unknown space {str(source.query)!r}; known: {', '.join(sorted(spaces))}.")
            unknown = [name for name in (source.query.blend.names if source.query.blend else ()) if name not in spaces]
            if unknown:
                raise StudyDefinitionError(
                    f"{here}, source {source.label!r}: unknown space {unknown[0]!r}; known: {', '.join(sorted(spaces))}."
                )
            if resolve is not None and source.query.kind not in (Kind.LINKS, Kind.MORELIKE):  # neither is a space
                _query(lambda: resolve(source.query), here, source.label)
            if source.query.kind is Kind.LINKS and corpus.provenance.links == "none":
                raise StudyDefinitionError(f"{here}: source 'links' but corpus {corpus.name!r} has no links.")
        check = _check_article(task, seed.id, corpus, remoteness, here) if task.check else None
        resolved.append(replace(task, seed=seed.id, check=check))
    return replace(study, tasks=tuple(resolved))


def _check_article(task: Task, seed_id: str, corpus, remoteness, here: str) -> Check:
    """The check's article as an id; a gold decoy must share no label with the seed and lie far from it."""
    try:
        article = corpus.find(task.check.article)
    except (UnknownArticleError, AmbiguousTitleError) as exc:
        raise StudyDefinitionError(f"{here}: check article — {exc}") from None
    if article.id == seed_id:
        raise StudyDefinitionError(f"{here}: the check article {article.title!r} is the seed itself.")
    if task.check.kind is CheckKind.GOLD:
        far = remoteness(seed_id) if remoteness else None
        shared = shared_labels(corpus, seed_id, article.id)
        if shared:
            problem = "shares " + "; ".join(f"{aspect} = {', '.join(v)}" for aspect, v in shared.items()) + " with the seed"
        elif far is not None and far[article.id] < DECOY_MIN_REMOTENESS:
            problem = (f"is nearer the seed in the generic space than {1 - far[article.id]:.0%} of the corpus "
                       f"(a decoy must be farther from it than {DECOY_MIN_REMOTENESS:.0%})")
        else:
            problem = None
        if problem:
            suggested = ", ".join(repr(corpus[a].title) for a in decoy_suggestions(corpus, seed_id, far)) if far else ""
            hint = f"; unrelated and far from it: {suggested}" if suggested else ""
            raise StudyDefinitionError(f"{here}: gold decoy {article.title!r} {problem}{hint}.")
    return replace(task.check, article=article.id)
