"""What a neighbours request asks for, named once: a `Query` (kind, optional space name, optional `Blend`).

One spelling everywhere (CLI `--kind`, URL, study files, `training evaluate --spaces`, benchmarks):

    links | morelike | generic[:<space>] | aspect:<aspect or space> | union[:<space>] | intersection[:<space>]
    | space:<space> | blend:<space>:<weight>,<space>:<weight>,...

A blend on its own (the URL's `?blend=`, the CLI's `--blend`) is `<space>:<weight>,...`; in a blend,
`links` weighs "linked from the seed" next to the spaces (`blend:links:0.3,country:0.7`, scored by
explore/ranking.py). `parse()` and
`str()` round-trip. The spellings of earlier releases (`name=0.7` and `blend:a+b`) are still read, with
a FutureWarning, for one release.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from enum import Enum
from typing import Mapping

from explore.errors import InvalidQueryError


class Kind(str, Enum):
    LINKS = "links"
    MORELIKE = "morelike"  # Wikipedia's own "Read more" (explore/morelike.py): a baseline, no space
    GENERIC = "generic"
    ASPECT = "aspect"
    UNION = "union"
    INTERSECTION = "intersection"
    SPACE = "space"
    BLEND = "blend"

    def __str__(self) -> str:
        return self.value


# Kinds whose spaces the engine stores under that same kind (explore.spaces.Space.kind).
SPACE_KINDS = (Kind.GENERIC, Kind.ASPECT, Kind.UNION, Kind.INTERSECTION)
SPELLINGS = ("links", "morelike", "generic[:<space>]", "aspect:<name>", "union[:<space>]", "intersection[:<space>]",
             "space:<space>", "blend:<space>:<weight>,<space>:<weight>")


def _weight_text(weight: float) -> str:
    text = repr(float(weight))  # the shortest text that reads back as the same float
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class Blend:
    """A query-time weighted mix of spaces: positive weights, in the order written (not normalised)."""

    weights: tuple[tuple[str, float], ...]

    def __post_init__(self):
        if not self.weights:
            raise InvalidQueryError("A blend needs at least one space with a positive weight, e.g. occupation:0.7.")
        names = [name for name, _ in self.weights]
        if len(set(names)) != len(names):
            raise InvalidQueryError(f"A blend names a space twice: {', '.join(names)}.")

    @classmethod
    def of(cls, weights: Mapping[str, object]) -> "Blend":
        """From a mapping space → weight; zero weights are dropped, bad ones refused by name."""
        clean = []
        for name, weight in weights.items():
            name = str(name).strip()
            if not name:
                raise InvalidQueryError("A blend weight has no space name.")
            try:
                number = float(weight)
            except (TypeError, ValueError):
                raise InvalidQueryError(f"Weight of {name!r} must be a number, got {weight!r}.") from None
            if not math.isfinite(number) or number < 0:
                raise InvalidQueryError(f"Weight of {name!r} must be a finite number >= 0, got {weight!r}.")
            if number > 0:
                clean.append((name, number))
        return cls(tuple(clean))

    @classmethod
    def parse(cls, text: str) -> "Blend":
        """'occupation:0.7,country:0.3' → Blend; the old 'occupation=0.7' is read with a warning."""
        parts = [part.strip() for part in str(text or "").split(",") if part.strip()]
        if not parts:
            raise InvalidQueryError("Empty blend: use space:weight pairs, e.g. occupation:0.7,country:0.3.")
        weights: dict[str, str] = {}
        old = False
        for part in parts:
            name, sep, weight = part.rpartition(":")
            if not sep and "=" in part:
                name, sep, weight = part.rpartition("=")
                old = True
            if not sep or not name.strip() or not weight.strip():
                raise InvalidQueryError(f"Bad blend part {part!r}: use space:weight, e.g. occupation:0.7.")
            if name.strip() in weights:
                raise InvalidQueryError(f"Blend part {part!r} names space {name.strip()!r} a second time.")
            weights[name.strip()] = weight.strip()
        if old:
            warnings.warn(f"Blend spelling {text!r} is deprecated: write {str(cls.of(weights))!r} "
                          "(space:weight); name=weight stops working in the next release.", FutureWarning, stacklevel=2)
        return cls.of(weights)

    def normalised(self) -> dict[str, float]:
        """Space → weight, summing to 1 (what ranking uses)."""
        total = sum(weight for _, weight in self.weights)
        return {name: weight / total for name, weight in self.weights}

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.weights]

    def as_dict(self) -> dict[str, float]:
        return dict(self.weights)

    def __str__(self) -> str:
        return ",".join(f"{name}:{_weight_text(weight)}" for name, weight in self.weights)


@dataclass(frozen=True)
class Query:
    """A kind, the space or aspect it names (optional for generic/union/intersection) and a blend's weights.

    Which space a query means is settled by the engine (`Neighbourhood.resolve`), which refuses a
    query that matches several spaces and lists them."""

    kind: Kind
    name: str | None = None
    blend: Blend | None = None

    def __post_init__(self):
        object.__setattr__(self, "kind", Kind(self.kind))
        if (self.kind is Kind.BLEND) != (self.blend is not None):
            raise InvalidQueryError("A blend query carries weights, and only a blend query does.")
        if self.name is not None and self.kind in (Kind.LINKS, Kind.MORELIKE, Kind.BLEND):
            raise InvalidQueryError(f"Kind {self.kind} takes no name; got {self.kind}:{self.name}.")
        if self.name is None and self.kind in (Kind.ASPECT, Kind.SPACE):
            raise InvalidQueryError(f"Kind {self.kind} needs a name: {self.kind}:<name>. Valid kinds: "
                                    f"{', '.join(SPELLINGS)}.")

    @classmethod
    def parse(cls, text: "str | Query") -> "Query":
        if isinstance(text, Query):
            return text
        raw = str(text or "").strip()
        if not raw:
            raise InvalidQueryError(f"Empty kind; valid kinds: {', '.join(SPELLINGS)}.")
        head, sep, rest = raw.partition(":")
        try:
            kind = Kind(head.strip())
        except ValueError:
            raise InvalidQueryError(f"Unknown kind {head.strip()!r} in {raw!r}; valid kinds: {', '.join(SPELLINGS)}.") \
                from None
        rest = rest.strip()
        if kind is Kind.BLEND:
            if not rest:
                raise InvalidQueryError("A blend needs weights: blend:<space>:<weight>,..., "
                                        "e.g. blend:occupation:0.7,country:0.3.")
            if ":" not in rest and "=" not in rest and "+" in rest:  # blend:a+b of earlier releases: equal weights
                names = [name.strip() for name in rest.split("+") if name.strip()]
                new = cls(Kind.BLEND, blend=Blend.of({name: 1 for name in names}))
                warnings.warn(f"Kind {raw!r} is deprecated: write {str(new)!r}; "
                              "blend:a+b stops working in the next release.", FutureWarning, stacklevel=2)
                return new
            return cls(Kind.BLEND, blend=Blend.parse(rest))
        if sep and not rest:
            raise InvalidQueryError(f"Kind {raw!r} has an empty name after ':'.")
        if rest and (":" in rest or "," in rest):
            raise InvalidQueryError(f"Bad name {rest!r} in kind {raw!r}: a space name has no ':' or ','.")
        return cls(kind, rest or None)

    @classmethod
    def blended(cls, weights: "Blend | Mapping[str, float]") -> "Query":
        return cls(Kind.BLEND, blend=weights if isinstance(weights, Blend) else Blend.of(weights))

    def __str__(self) -> str:
        if self.kind is Kind.BLEND:
            return f"blend:{self.blend}"
        return f"{self.kind}:{self.name}" if self.name else str(self.kind)


LINKS = Query(Kind.LINKS)
MORELIKE = Query(Kind.MORELIKE)
GENERIC = Query(Kind.GENERIC)


def split_queries(text: str) -> list[str]:
    """'generic,blend:a:0.5,b:0.5,union' → ['generic', 'blend:a:0.5,b:0.5', 'union']: a comma-separated
    list of queries in which a blend keeps its further `space:weight` parts (no kind is spelt that way)."""
    kinds = {kind.value for kind in Kind}
    items: list[str] = []
    for part in (piece.strip() for piece in str(text or "").split(",")):
        if not part:
            continue
        continues_blend = items and "blend:" in items[-1] and ":" in part and part.partition(":")[0] not in kinds
        if continues_blend:
            items[-1] += "," + part
        else:
            items.append(part)
    return items
