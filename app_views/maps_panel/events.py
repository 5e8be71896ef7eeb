"""What a reader does in the Maps page's panel, as typed events: a map's click, selection or new view (map_chart's
events, with the map it happened on), or "Map from" / "Explore from" an article (the neighbour list's events, sent
from the list and from the marked article's row). `parse_panel_event` makes the event, or None for anything
malformed (logged and ignored)."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Union

from app_views.map_chart.events import TRIGGERS as MAP_TRIGGERS, MapEvent, parse_map_event
from app_views.neighbour_list.events import TRIGGERS as LIST_TRIGGERS, NeighbourEvent, parse_neighbour_event

TRIGGERS = MAP_TRIGGERS + LIST_TRIGGERS
MAX_MAPS = 2  # a page shows one map or two side by side
log = logging.getLogger("aspectnav.maps_panel")


@dataclass(frozen=True)
class OnMap:
    """`event` happened on map `side` (0: the left one)."""
    side: int
    event: MapEvent


PanelEvent = Union[OnMap, NeighbourEvent]


def parse_panel_event(trigger: str, value: object) -> PanelEvent | None:
    """The event a trigger's value stands for: a map's trigger comes as {"map": side, "value": what the map sent}."""
    if trigger in LIST_TRIGGERS:
        return parse_neighbour_event(trigger, value)
    side = value.get("map") if isinstance(value, dict) else None
    if trigger not in MAP_TRIGGERS or not isinstance(side, int) or isinstance(side, bool) or \
            not 0 <= side < MAX_MAPS or set(value) != {"map", "value"}:
        log.warning("Ignored a maps-panel event the page does not send: %s=%r", trigger, value)
        return None
    event = parse_map_event(trigger, value["value"])
    return OnMap(side, event) if event is not None else None
