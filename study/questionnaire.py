"""Questionnaire items a study asks after its ranking tasks: Likert (5 or 7 points), single choice, free text.

An item is asked `once` (after every task) or `per_source`: after each comparison task, about each source's
candidates, shown as blinded lists ("List A", "List B", … in an order drawn per participant and task), so a
participant rates what a source proposed without ever learning which source it was.

The `resque` preset paraphrases constructs of ResQue (Pu, Chen & Hu 2011, "A user-centric evaluation framework
for recommender systems", RecSys '11): perceived accuracy, novelty and diversity per source; transparency, trust
and intention to use once. The wording is our own, shortened for read-next links; it is not the validated
instrument, so a study that reports ResQue scores should quote the original items instead.
"""
from __future__ import annotations

import random
import string
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from explore.errors import AspectNavError
from explore.names import NAME_PATTERN, NAME_RULE

ONCE_PAGE = ""  # the page key of the `once` items (a task id is never empty)
MAX_FREE_TEXT = 5000

_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class QuestionnaireAnswerError(AspectNavError):
    """An answer that does not fit its item (a Likert value off the scale, an option not offered, too long)."""


class ItemKind(str, Enum):
    LIKERT = "likert"
    SINGLE_CHOICE = "single_choice"
    FREE_TEXT = "free_text"

    def __str__(self) -> str:
        return self.value


class Scope(str, Enum):
    PER_SOURCE = "per_source"  # after each comparison task, about each source's candidates (blinded)
    ONCE = "once"  # after all tasks

    def __str__(self) -> str:
        return self.value


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    id: str = Field(pattern=NAME_PATTERN, description=NAME_RULE)
    text: _Text = Field(description="the question or statement shown to the participant")
    required: bool = Field(True, strict=True, description="true or false")
    scope: Scope = Field(Scope.ONCE, description="per_source or once")


class LikertItem(_Item):
    kind: Literal["likert"] = "likert"
    points: Literal[5, 7] = Field(5, description="5 or 7")
    anchors: tuple[_Text, _Text] = Field(
        ("Strongly disagree", "Strongly agree"), description="a list of two texts: the low end, then the high end")

    def accept(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= self.points:
            raise QuestionnaireAnswerError(f"Item {self.id!r}: pick a point from 1 to {self.points}, not {value!r}.")
        return value

    def label(self, point: int) -> str:
        """'1 · Strongly disagree', '3', '5 · Strongly agree': the anchors mark the ends."""
        anchor = {1: self.anchors[0], self.points: self.anchors[1]}.get(point)
        return f"{point} · {anchor}" if anchor else str(point)


class ChoiceItem(_Item):
    kind: Literal["single_choice"] = "single_choice"
    options: tuple[_Text, ...] = Field(min_length=2, description="a list of at least two distinct options")

    @field_validator("options")
    @classmethod
    def _distinct(cls, options: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(options)) != len(options):
            repeated = ", ".join(sorted({repr(o) for o in options if options.count(o) > 1}))
            raise ValueError(f"distinct options ({repeated} is repeated)")
        return options

    def accept(self, value: Any) -> str:
        if value not in self.options:
            raise QuestionnaireAnswerError(f"Item {self.id!r}: choose one of {', '.join(self.options)}, not {value!r}.")
        return value


class FreeTextItem(_Item):
    kind: Literal["free_text"] = "free_text"
    max_length: int = Field(500, strict=True, ge=1, le=MAX_FREE_TEXT,
                            description=f"a whole number of characters from 1 to {MAX_FREE_TEXT}")

    def accept(self, value: Any) -> str:
        if not isinstance(value, str):
            raise QuestionnaireAnswerError(f"Item {self.id!r}: the answer must be text.")
        if len(value.strip()) > self.max_length:
            raise QuestionnaireAnswerError(f"Item {self.id!r}: at most {self.max_length} characters, please "
                                           f"(this answer has {len(value.strip())}).")
        return value.strip()


Item = LikertItem | ChoiceItem | FreeTextItem
ITEM_SCHEMAS: dict[str, type[_Item]] = {str(ItemKind.LIKERT): LikertItem, str(ItemKind.SINGLE_CHOICE): ChoiceItem,
                                        str(ItemKind.FREE_TEXT): FreeTextItem}
PRESETS = ("resque",)


class QuestionnaireFile(BaseModel):
    """The `questionnaire:` block as written; items are checked one by one so a refusal names the item."""

    model_config = ConfigDict(extra="forbid")
    preset: Literal["resque"] | None = Field(None, description=" or ".join(PRESETS))
    items: list[Any] = Field(default_factory=list, description="a list of items, each a mapping {id, kind, text, ...}")


def _resque() -> tuple[Item, ...]:
    per_source = Scope.PER_SOURCE
    return (
        LikertItem(id="accuracy", scope=per_source, text="The articles in this list are ones I would want to read next."),
        LikertItem(id="novelty", scope=per_source, text="This list showed me articles I would not have found myself."),
        LikertItem(id="diversity", scope=per_source, text="The articles in this list are varied, not all alike."),
        LikertItem(id="transparency", text="I could tell why the articles were suggested to me."),
        LikertItem(id="trust", text="I would trust suggestions like these to lead me to good articles."),
        LikertItem(id="intention", text="I would use suggestions like these when reading Wikipedia."),
    )


PRESET_ITEMS = {"resque": _resque}


@dataclass(frozen=True)
class Questionnaire:
    items: tuple[Item, ...] = ()

    @property
    def per_source(self) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.scope is Scope.PER_SOURCE)

    @property
    def once(self) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.scope is Scope.ONCE)

    def item(self, item_id: str) -> Item:
        return next(item for item in self.items if item.id == item_id)

    def to_list(self) -> list[dict]:
        return [item.model_dump(mode="json") for item in self.items]

    @classmethod
    def from_list(cls, data: list[Mapping]) -> "Questionnaire":
        return cls(tuple(ITEM_SCHEMAS[raw["kind"]].model_validate(raw) for raw in data))

    def accept(self, items: tuple[Item, ...], answers: Mapping[str, Any], where: str = "") -> dict[str, Any]:
        """The answers to one list (or the once page) checked against `items`: every required item answered,
        nothing unknown; an empty free text is no answer."""
        known = {item.id: item for item in items}
        unknown = [key for key in answers if key not in known]
        if unknown:
            raise QuestionnaireAnswerError(f"Unknown question {unknown[0]!r}; reload the page.")
        kept = {}
        for item in items:
            value = answers.get(item.id)
            if value is not None and not (isinstance(value, str) and not value.strip()):
                kept[item.id] = item.accept(value)
            elif item.required:
                raise QuestionnaireAnswerError(f"Please answer every question{where}: “{item.text}” is still open.")
        return kept


@dataclass(frozen=True)
class ShownList:
    """One source's candidates as a participant sees them on a per-source page: a letter and titles, no source."""

    letter: str
    titles: tuple[str, ...]


@dataclass(frozen=True)
class QuestionnairePage:
    """One questionnaire page: the per-source items about each list of a task (blinded), or the once items.
    `draft` holds what was saved so far: {letter: {item: value}} per source, {item: value} once."""

    key: str  # the task id, or ONCE_PAGE
    items: tuple[Item, ...]
    lists: tuple[ShownList, ...] = ()
    draft: Mapping[str, Any] = None  # type: ignore[assignment]

    @property
    def per_source(self) -> bool:
        return self.key != ONCE_PAGE


def blinded_lists(task_id: str, sources: list[str], candidates: list[Mapping], shuffle_seed: int
                  ) -> list[tuple[str, str, tuple[str, ...]]]:
    """(letter, source, titles) per source that proposed a candidate, in an order drawn from the participant's
    seed and the task (the same on every reload); titles in the order the task showed them."""
    present = [s for s in sources if any(s in c["sources"] for c in candidates)]
    random.Random(f"{shuffle_seed}:{task_id}").shuffle(present)
    return [(string.ascii_uppercase[i], source, tuple(c["title"] for c in candidates if source in c["sources"]))
            for i, source in enumerate(present)]
