"""Recipes: which Wikidata class to collect and which properties become aspects."""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Mapping

from explore.errors import AspectNavError
from explore.settings import ASSETS_DIR

RECIPES_DIR = ASSETS_DIR / "recipes"

_QID = re.compile(r"^Q[1-9][0-9]*$")
_PID = re.compile(r"^P[1-9][0-9]*$")
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]+)*$")
_ASPECT = re.compile(r"^[A-Za-z][A-Za-z0-9_ -]{0,39}$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")  # also the default corpus name


class RecipeError(AspectNavError):
    """A recipe file is missing or malformed; the message names the file and field."""


@dataclass(frozen=True)
class Recipe:
    """A class to collect (`class_qid`, with subclasses via P279* or not) and its aspects.

    `aspects` maps a Wikidata property (PID) to the aspect name its values label;
    `limit` caps the class articles, `noise` is how many random unlabelled articles to add.
    """

    name: str
    class_qid: str
    aspects: Mapping[str, str]
    subclasses: bool = True
    language: str = "en"
    limit: int = 5000
    noise: int = 10000
    description: str = ""

    def with_overrides(self, limit: int | None = None, noise: int | None = None) -> "Recipe":
        return replace(self, limit=self.limit if limit is None else limit, noise=self.noise if noise is None else noise)

    @property
    def query_key(self) -> str:
        """Hash of what the queries depend on (not limit/noise): names the fetch cache."""
        identity = {"class": self.class_qid, "subclasses": self.subclasses,
                    "aspects": dict(self.aspects), "language": self.language}
        return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]

    def to_json(self) -> str:
        data = asdict(self)
        data["aspects"] = dict(self.aspects)
        return json.dumps(data, sort_keys=True, ensure_ascii=False)


def builtin_recipe_names() -> list[str]:
    return sorted(path.stem for path in RECIPES_DIR.glob("*.json"))


def load_recipe(name_or_path: str | Path) -> Recipe:
    """A shipped recipe by name (`companies`), else a JSON recipe file by path."""
    text = str(name_or_path)
    builtin = RECIPES_DIR / f"{text}.json"
    path = builtin if _NAME.match(text) and builtin.exists() else Path(text).expanduser()
    if not path.exists():
        raise RecipeError(
            f"No recipe {text!r}: use one of {', '.join(builtin_recipe_names())} or the path of a JSON recipe file."
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RecipeError(f"Recipe file {path} cannot be read as JSON ({exc}).") from exc
    return recipe_from_dict(data, source=str(path), default_name=path.stem)


def recipe_from_dict(data: object, source: str = "recipe", default_name: str = "wikidata") -> Recipe:
    """Validate a parsed recipe; every problem names the field so a user can fix the file."""
    if not isinstance(data, dict):
        raise RecipeError(f"{source}: a recipe is a JSON object.")
    unknown = set(data) - {"name", "class", "subclasses", "aspects", "language", "limit", "noise", "description"}
    if unknown:
        raise RecipeError(f"{source}: unknown field(s) {', '.join(sorted(unknown))}.")

    def fail(field_name: str, expected: str) -> RecipeError:
        return RecipeError(f"{source}: field {field_name!r} must be {expected}, got {data.get(field_name)!r}.")

    class_qid = data.get("class")
    if not isinstance(class_qid, str) or not _QID.match(class_qid):
        raise fail("class", "a Wikidata item id such as \"Q4830453\"")
    aspects = data.get("aspects")
    if not isinstance(aspects, dict) or not aspects:
        raise fail("aspects", "an object mapping property ids to aspect names, e.g. {\"P17\": \"country\"}")
    for pid, aspect in aspects.items():
        if not _PID.match(str(pid)) or not isinstance(aspect, str) or not _ASPECT.match(aspect):
            raise RecipeError(f"{source}: aspect {pid!r}: {aspect!r} must map a property id (P17) to a name (country).")
    if len(set(aspects.values())) != len(aspects):
        raise fail("aspects", "an object whose aspect names are distinct")
    subclasses = data.get("subclasses", True)
    if not isinstance(subclasses, bool):
        raise fail("subclasses", "true or false")
    language = data.get("language", "en")
    if not isinstance(language, str) or not _LANGUAGE.match(language):
        raise fail("language", "a Wikipedia language code such as \"en\"")
    for count_field, default, minimum in (("limit", 5000, 1), ("noise", 10000, 0)):
        value = data.get(count_field, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise fail(count_field, f"a whole number >= {minimum}")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not _NAME.match(name):
        raise fail("name", "a corpus name: 1-64 letters, digits, '.', '_' or '-'")
    return Recipe(
        name=name,
        class_qid=class_qid,
        aspects=dict(aspects),
        subclasses=subclasses,
        language=language,
        limit=data.get("limit", 5000),
        noise=data.get("noise", 10000),
        description=str(data.get("description", "")),
    )
