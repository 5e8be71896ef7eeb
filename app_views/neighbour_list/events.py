"""What a reader does in the Maps page's neighbour list, as typed events: neighbour_list.js sends a trigger with an
article id; `parse_neighbour_event` makes the event, or None for anything malformed (logged and ignored)."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Union

MAP_FROM, EXPLORE_FROM = "map_from", "explore_from"
TRIGGERS = (MAP_FROM, EXPLORE_FROM)
MAX_ID = 512  # characters: an article id is far shorter; a longer value is not one the list sends
log = logging.getLogger("aspectnav.neighbour_list")


@dataclass(frozen=True)
class MapFrom:
    """Map from this article: it becomes the seed of both maps."""
    article_id: str


@dataclass(frozen=True)
class ExploreFrom:
    """Explore from this article: the Explore page opens with it as the seed."""
    article_id: str


NeighbourEvent = Union[MapFrom, ExploreFrom]


def parse_neighbour_event(trigger: str, value: object) -> NeighbourEvent | None:
    """The event a trigger's value stands for; None when the value is not one the list sends."""
    if isinstance(value, str) and 0 < len(value) <= MAX_ID:
        if trigger == MAP_FROM:
            return MapFrom(value)
        if trigger == EXPLORE_FROM:
            return ExploreFrom(value)
    log.warning("Ignored a neighbour-list event the page does not send: %s=%r", trigger, value)
    return None
