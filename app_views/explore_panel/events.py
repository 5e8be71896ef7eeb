"""What a reader does in the explore panel, as typed events, and what each does to their view.

The panel's script sends one of four triggers (a card picked, a step along the trail, a change to the mix, the
cards per column or columns per row)
with a JSON value; `parse_event` turns it into one of the event types below, or None for anything malformed
(the page ignores it and logs it), and `apply_event` changes the view. Streamlit-free, so tests drive the
same code the page's callback runs.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Union

from app_views.url_state import MAX_K
from app_views.view_state import MAX_WEIGHT, PER_ROW_RANGE, ExploreView
from explore.corpus.model import Article, Corpus
from explore.mix import shown_mix, weight_names, with_links_share, with_spaces
from explore.neighbours import Neighbourhood

PICK, NAV, MIX, LAYOUT = "pick", "nav", "mix", "layout"  # the panel's triggers (explore_panel.js sends these)
TRIGGERS = (PICK, NAV, MIX, LAYOUT)
log = logging.getLogger("aspectnav.explore_panel")


@dataclass(frozen=True)
class Pick:
    """A card's title clicked: that article becomes the seed."""
    article_id: str


@dataclass(frozen=True)
class Back:
    pass


@dataclass(frozen=True)
class Forward:
    pass


@dataclass(frozen=True)
class Jump:
    """A crumb of the trail clicked."""
    index: int


@dataclass(frozen=True)
class MixSpaces:
    """The mix's pills changed: these spaces, equal weights, the links share kept."""
    names: tuple[str, ...]


@dataclass(frozen=True)
class LinksShare:
    share: float


@dataclass(frozen=True)
class Weight:
    """One weight of the mix set on its own."""
    name: str
    value: float


@dataclass(frozen=True)
class PerRow:
    """Columns per row chosen (the panel has already laid them out; the view keeps it for the next page run)."""
    columns: int


@dataclass(frozen=True)
class CardsPerColumn:
    """k chosen: each column shows this many cards (Maps marks as many neighbours)."""
    k: int


@dataclass(frozen=True)
class ReadMoreShown:
    """Wikipedia's Read more column switched on or off."""
    shown: bool


PanelEvent = Union[Pick, Back, Forward, Jump, MixSpaces, LinksShare, Weight, PerRow, CardsPerColumn, ReadMoreShown]


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def parse_event(trigger: str, value: object) -> PanelEvent | None:
    """The event a trigger's value stands for; None when the value is not one the panel sends."""
    if trigger == PICK and isinstance(value, str) and value:
        return Pick(value)
    if trigger == NAV:
        if value == "back":
            return Back()
        if value == "forward":
            return Forward()
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return Jump(value)
    if trigger == MIX and isinstance(value, dict):
        if isinstance(value.get("spaces"), list) and all(isinstance(name, str) for name in value["spaces"]):
            return MixSpaces(tuple(value["spaces"]))
        share = _number(value.get("links"))
        if share is not None:
            return LinksShare(min(max(share, 0.0), 1.0))
        weight = _number(value.get("value"))
        if isinstance(value.get("weight"), str) and weight is not None:
            return Weight(value["weight"], min(max(weight, 0.0), MAX_WEIGHT))
    if trigger == LAYOUT and isinstance(value, dict) and len(value) == 1:
        (what, number), = value.items()
        if what == "read_more" and isinstance(number, bool):
            return ReadMoreShown(number)
        if isinstance(number, int) and not isinstance(number, bool):
            if what == "per_row":
                return PerRow(min(max(number, PER_ROW_RANGE[0]), PER_ROW_RANGE[1]))
            if what == "k":
                return CardsPerColumn(min(max(number, 1), MAX_K))
    log.warning("Ignored a panel event the page does not send: %s=%r", trigger, value)
    return None


def apply_event(view: ExploreView, corpus: Corpus, engine: Neighbourhood | None, seed: Article | None,
                event: PanelEvent) -> None:
    """Change the view as the event asks (a pick of an article not in `corpus` changes nothing). A mix change starts from the mix on screen (the seed's default until the
    reader changed it); one that would leave nothing to rank by keeps the mix."""
    if isinstance(event, Pick):
        if event.article_id in corpus:
            view.set_seed(event.article_id)
    elif isinstance(event, Back):
        view.back()
    elif isinstance(event, Forward):
        view.forward()
    elif isinstance(event, Jump):
        if event.index < len(view.trail.seeds):
            view.jump(event.index)
    elif isinstance(event, PerRow):
        view.per_row = event.columns
    elif isinstance(event, CardsPerColumn):
        view.k = event.k
    elif isinstance(event, ReadMoreShown):
        view.read_more = event.shown
    elif engine is not None:
        mix = shown_mix(engine, seed, view.blend)
        if isinstance(event, MixSpaces):
            chosen = with_spaces(engine, mix, event.names)
        elif isinstance(event, LinksShare):
            chosen = with_links_share(engine, seed, mix, event.share)
        else:
            if event.name not in weight_names(engine):
                return
            view.blend = mix
            view.set_weight(event.name, event.value)
            return
        if chosen is not None:
            view.blend = chosen
