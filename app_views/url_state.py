"""The explore view's state in the URL: ?seed=<title or id>&text=<free text>&k=<n>&blend=a:0.7,b:0.3
(the blend spelled as explore.query.Blend spells it everywhere).

The URL holds what a user would share: the seed (a title when it is unique, else the id), or a
free-text query, the number of cards per column and the blend weights. Parsing never raises;
anything malformed falls back to the default and is reported in `problems`.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Mapping

from explore.errors import InvalidQueryError
from explore.query import Blend

DEFAULT_K = 5
MAX_K = 50


@dataclass
class ViewState:
    seed: str | None = None  # a title or an id, as typed in the URL; resolved by the corpus
    text: str | None = None  # a free-text seed
    k: int = DEFAULT_K
    blend: Blend | None = None
    problems: list[str] = field(default_factory=list)


def parse_blend(value: str) -> tuple[Blend | None, list[str]]:
    """The URL's blend, or None and the reason it was ignored."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FutureWarning)
        try:
            blend = Blend.parse(value)
        except InvalidQueryError as error:
            return None, [f"blend={value!r} ignored: {error}"]
    return blend, [str(w.message) for w in caught]


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
    if state.blend is not None:
        query["blend"] = str(state.blend)
    return query
