"""The explore view's state in the URL: ?seed=<title or id>&text=<free text>&k=<n>&cols=<n>&blend=a:0.7,b:0.3
&readmore=1 (the blend spelled as explore.query.Blend spells it everywhere; readmore adds Wikipedia's Read more
column), and the Maps page's own part (MapState).

The URL holds what a user would share: the seed (a title when it is unique, else the id), or a
free-text query, the number of cards per column, the columns per row and the blend weights. Parsing never raises;
anything malformed falls back to the default and is reported in `problems`.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Mapping

from explore.errors import InvalidQueryError
from explore.maps import Projector
from explore.query import Blend

DEFAULT_K = 5
MAX_K = 50
DEFAULT_PER_ROW = 4  # columns wide enough for a card's labels and its similarity bar at 1600 px
PER_ROW_RANGE = (2, 10)  # the panel's "Columns per row" choices


@dataclass
class ViewState:
    seed: str | None = None  # a title or an id, as typed in the URL; resolved by the corpus
    text: str | None = None  # a free-text seed
    k: int = DEFAULT_K
    blend: Blend | None = None
    per_row: int = DEFAULT_PER_ROW
    read_more: bool = False  # Wikipedia's Read more column shown (off by default: a baseline to compare with)
    problems: list[str] = field(default_factory=list)


READ_MORE_PARAM = "readmore"
_ON, _OFF = ("1", "on", "true", "yes"), ("0", "off", "false", "no", "")


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
    if "cols" in params:
        try:
            state.per_row = min(PER_ROW_RANGE[1], max(PER_ROW_RANGE[0], int(params["cols"])))
        except ValueError:
            state.problems.append(f"cols={params['cols']!r} ignored: not a whole number")
    if params.get("blend"):
        state.blend, problems = parse_blend(params["blend"])
        state.problems.extend(problems)
    if READ_MORE_PARAM in params:
        value = str(params[READ_MORE_PARAM]).strip().lower()
        if value in _ON or value in _OFF:
            state.read_more = value in _ON
        else:
            state.problems.append(f"{READ_MORE_PARAM}={params[READ_MORE_PARAM]!r} ignored: say {READ_MORE_PARAM}=1 to "
                                  "show Wikipedia's Read more")
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
    if state.per_row != DEFAULT_PER_ROW:
        query["cols"] = str(state.per_row)
    if state.blend is not None:
        query["blend"] = str(state.blend)
    if state.read_more:
        query[READ_MORE_PARAM] = "1"
    return query


# --- the Maps page's own part of the URL: ?left=generic&right=country&colour=topic&only=Arts&mark=Paris&regions=off
# &proj=umap

MAP_PARAMS = ("left", "right", "colour", "only", "mark", "regions", "proj")
REGIONS_OFF = "off"


@dataclass
class MapState:
    """The two spaces, the colouring aspect (and one label of it the map is filtered to), the marked article (a
    title or an id) and whether regions are named. Names are checked by the page against what the corpus has; parsing only reads."""

    left: str | None = None
    right: str | None = None
    colour: str | None = None
    only: str | None = None  # one label of `colour`: only its articles in colour
    mark: str | None = None
    regions: bool = True
    projector: Projector = Projector.TSNE  # how both maps are projected (proj=umap; t-SNE, the default, left out)
    problems: list[str] = field(default_factory=list)


def parse_map_query(params: Mapping[str, str]) -> MapState:
    """The Maps part of a URL; never raises (an unknown `regions` or `proj` value is reported, its default kept)."""
    value = lambda key: (params.get(key) or "").strip() or None  # noqa: E731
    state = MapState(left=value("left"), right=value("right"), colour=value("colour"), only=value("only"),
                     mark=value("mark"))
    regions = value("regions")
    if regions is not None and regions not in (REGIONS_OFF, "on"):
        state.problems.append(f"regions={regions!r} ignored: say regions=off to hide the region names")
    state.regions = regions != REGIONS_OFF
    if value("proj") is not None:
        try:
            state.projector = Projector.parse(value("proj"))
        except ValueError as error:
            state.problems.append(f"proj={value('proj')!r} ignored: {error}; the maps stay t-SNE")
    return state


def map_query(state: MapState) -> dict[str, str]:
    """The Maps part of the URL for `state` (regions left out while on, the default)."""
    query = {key: getattr(state, key) for key in ("left", "right", "colour", "only", "mark") if getattr(state, key)}
    if not state.regions:
        query["regions"] = REGIONS_OFF
    if state.projector is not Projector.TSNE:
        query["proj"] = state.projector.value
    return query
