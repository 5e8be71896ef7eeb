"""Input files read through pydantic schemas: a ValidationError as refusals a user can act on.

A schema field's `description` says what it expects ("a whole number of at least 1"), so the
refusal quotes the schema itself; each reader (study, JSONL, recipe, training) words the sentence.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError


@dataclass(frozen=True)
class Refusal:
    field: str  # dotted path, e.g. "aspects.country"; "" for the record as a whole
    expected: str  # the field's description, a validator's message, pydantic's wording, or the known fields
    got: Any
    missing: bool = False  # a required field is absent
    unknown: bool = False  # a field the schema does not have
    key: str | None = None  # the mapping key at fault (`field` is then the mapping)


def refusals(error: ValidationError, model: type[BaseModel] | None = None) -> list[Refusal]:
    """One Refusal per problem, in field order. `model` supplies the descriptions of its top-level fields."""
    found = []
    for problem in error.errors(include_url=False):
        loc, key = list(problem["loc"]), None
        if "[key]" in loc:  # pydantic's loc is (..., mapping, key, "[key]")
            loc, key = loc[:loc.index("[key]") - 1], str(problem["input"])
        path = []
        for part in loc:
            if isinstance(part, int):
                break  # a list item: the list's field says what its items must be
            path.append(str(part))
        kind = problem["type"]
        if kind in ("value_error", "assertion_error"):
            expected = str(problem["ctx"]["error"])
        elif model is not None and (kind == "extra_forbidden" or not path):
            expected = ", ".join(info.alias or key for key, info in model.model_fields.items())  # the known fields
        else:
            info = _field(model, path[0]) if model is not None and path else None
            expected = info.description if info is not None and info.description else \
                problem["msg"].removeprefix("Input should be ")
        found.append(Refusal(".".join(path), expected, problem.get("input"),
                             missing=kind == "missing", unknown=kind == "extra_forbidden", key=key))
    return found


def field_problem(refusal: Refusal) -> str:
    """A data file's refusal in words: field 'title': required, must be a non-empty string (and the like)."""
    if refusal.unknown:
        return f"field {refusal.field!r}: unknown field; allowed: {refusal.expected}"
    if refusal.key is not None:
        return f"field {refusal.field!r}: bad name {refusal.key!r}; must be {refusal.expected}"
    blank = refusal.missing or (isinstance(refusal.got, str) and not refusal.got.strip())
    return f"field {refusal.field!r}: {'required, ' if blank else ''}must be {refusal.expected}"


def _field(model: type[BaseModel], name: str):
    """A field by the name the input uses (its alias, e.g. a recipe's `class`) or by its own name."""
    return next((info for key, info in model.model_fields.items() if name in (key, info.alias)), None)
