"""Recipes: which Wikidata class to collect and which properties become aspects."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Annotated, Mapping

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from explore.errors import AspectNavError
from explore.names import NAME_PATTERN, NAME_RULE, is_name
from explore.schema import Refusal, refusals
from explore.settings import ASSETS_DIR
from explore.user_files import parse_user_json, read_user_text

RECIPES_DIR = ASSETS_DIR / "recipes"
MAX_RECIPE_BYTES = 1 << 20  # a recipe is a few lines

_QID = r"^Q[1-9][0-9]*$"
_LANGUAGE = r"^[a-z]{2,3}(-[a-z0-9]+)*$"
_PropertyId = Annotated[str, StringConstraints(pattern=r"^P[1-9][0-9]*$")]
_AspectName = Annotated[str, StringConstraints(pattern=NAME_PATTERN)]


class RecipeError(AspectNavError):
    """A recipe file is missing or malformed; the message names the file and field."""


@dataclass(frozen=True)
class Recipe:
    """A class to collect (`class_qid`, with subclasses via P279* or not) and its aspects.

    `aspects` maps a Wikidata property (PID) to the aspect name its values label (several properties may
    label one aspect: P17 and P27 both give a "country"); `limit` caps the class articles, `noise` is how
    many random unlabelled articles to add. A recipe without a class only labels a corpus (`corpus label`).
    """

    name: str
    class_qid: str | None
    aspects: Mapping[str, str]
    subclasses: bool = True
    language: str = "en"
    limit: int = 5000
    noise: int = 10000
    description: str = ""

    def require_class(self) -> str:
        """The class to build from; a label-only recipe cannot build a corpus, and says what it is for."""
        if self.class_qid is None:
            raise RecipeError(f"Recipe {self.name!r} has no \"class\", so it cannot build a corpus; it labels one: "
                              f"`aspectnav corpus label CORPUS --recipe {self.name}`. Add a \"class\" to build.")
        return self.class_qid

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
    path = builtin if is_name(text) and builtin.exists() else Path(text).expanduser()
    if not path.exists():
        raise RecipeError(
            f"No recipe {text!r}: use one of {', '.join(builtin_recipe_names())} or the path of a JSON recipe file."
        )
    data = parse_user_json(read_user_text(path, RecipeError, MAX_RECIPE_BYTES, what="recipe"), path, RecipeError)
    return recipe_from_dict(data, source=str(path), default_name=path.stem)


class RecipeFile(BaseModel):
    """A recipe file as written. Strict: a limit of "10" or a `subclasses` of "yes" is refused, not guessed."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field("wikidata", pattern=NAME_PATTERN, description=f"a corpus name: {NAME_RULE}")
    class_qid: str | None = Field(None, alias="class", pattern=_QID, description='a Wikidata item id such as "Q4830453"')
    subclasses: bool = Field(True, description="true or false")
    aspects: dict[_PropertyId, _AspectName] = Field(
        min_length=1, description=f'an object mapping property ids to aspect names ({NAME_RULE}), '
                                  'e.g. {"P17": "country", "P27": "country"}')
    language: str = Field("en", pattern=_LANGUAGE, description='a Wikipedia language code such as "en"')
    limit: int = Field(5000, ge=1, description="a whole number >= 1")
    noise: int = Field(10000, ge=0, description="a whole number >= 0")
    description: str = Field("", description="text")


def _sentence(refusal: Refusal) -> str:
    """field 'limit' must be a whole number >= 1, got 0 (and the like)."""
    if not refusal.field:
        return f"a recipe is a JSON object with the fields {refusal.expected}, not {type(refusal.got).__name__}"
    if refusal.unknown:
        return f"unknown field {refusal.field!r}; known fields: {refusal.expected}"
    if refusal.missing:
        return f"field {refusal.field!r} is required: {refusal.expected}"
    if refusal.key is not None:
        return f"field {refusal.field!r}: bad property id {refusal.key!r}; must be {refusal.expected}"
    return f"field {refusal.field!r} must be {refusal.expected}, got {refusal.got!r}"


def recipe_from_dict(data: object, source: str = "recipe", default_name: str = "wikidata") -> Recipe:
    """Validate a parsed recipe; every problem names the field so a user can fix the file."""
    try:  # the default name (the file's stem) must be a corpus name too
        file = RecipeFile.model_validate({"name": default_name, **data} if isinstance(data, dict) else data)
    except ValidationError as error:
        raise RecipeError(f"{source}: {'; '.join(map(_sentence, refusals(error, RecipeFile)))}.") from None
    return Recipe(name=file.name, class_qid=file.class_qid, aspects=file.aspects,
                  subclasses=file.subclasses, language=file.language, limit=file.limit, noise=file.noise,
                  description=file.description)
