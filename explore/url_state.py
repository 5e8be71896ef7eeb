"""The explore view's state in the URL: ?seed=<title or id>&text=<free text>&k=<n>&blend=a:0.7,b:0.3.

The URL holds what a user would share: the seed (a title when it is unique, else the id), or a
free-text query, the number of cards per column and the blend weights. Parsing never raises;
anything malformed falls back to the default and is reported in `problems`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

DEFAULT_K = 5
MAX_K = 50


@dataclass
class ViewState:
    seed: str | None = None  # a title or an id, as typed in the URL; resolved by the corpus
    text: str | None = None  # a free-text seed
    k: int = DEFAULT_K
    blend: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def parse_blend(value: str) -> tuple[dict[str, float], list[str]]:
    """'occupation:0.7,country:0.3' → {'occupation': 0.7, 'country': 0.3}; zero weights dropped."""
    weights: dict[str, float] = {}
    problems = []
    for part in filter(None, (p.strip() for p in (value or "").split(","))):
        name, sep, weight = part.rpartition(":")
        try:
            number = float(weight)
        except ValueError:
            number = -1.0
        if not sep or not name or not (0.0 <= number <= 1.0):
            problems.append(f"blend part {part!r} ignored: use name:weight with a weight from 0 to 1")
            continue
        if number > 0:
            weights[name] = number
    return weights, problems


def format_blend(weights: Mapping[str, float]) -> str:
    return ",".join(f"{name}:{weight:g}" for name, weight in weights.items() if weight > 0)


def seed_param(titles_to_ids: Mapping[str, tuple[str, ...]], article_id: str, title: str) -> str:
    """How a seed is written in a URL: its title when no other article shares it, else its id."""
    return title if len(titles_to_ids.get(title, ())) == 1 else article_id


def parse_query(params: Mapping[str, str]) -> ViewState:
    state = ViewState()
    seed = (params.get("seed") or "").strip()
    text = (params.get("text") or "").strip()
    state.seed = seed or None
    state.text = None if seed else (text or None)
    if "k" in params:
        try:
            state.k = min(MAX_K, max(1, int(params["k"])))
        except ValueError:
            state.problems.append(f"k={params['k']!r} ignored: not a whole number")
    if params.get("blend"):
        state.blend, problems = parse_blend(params["blend"])
        state.problems.extend(problems)
    return state


def to_query(state: ViewState) -> dict[str, str]:
    """The query parameters for `state` (defaults left out, so URLs stay short)."""
    query: dict[str, str] = {}
    if state.seed:
        query["seed"] = state.seed
    elif state.text:
        query["text"] = state.text
    if state.k != DEFAULT_K:
        query["k"] = str(state.k)
    if format_blend(state.blend):
        query["blend"] = format_blend(state.blend)
    return query
