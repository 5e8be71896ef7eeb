"""The Maps page's maps with their captions, the seed's nearest articles beside them, the marked article above them
and the page's notes below, as one element (a Streamlit v2 component, maps_panel.js). As Streamlit elements (columns,
a caption and a component per map, the list's component, the marked article's row) the page was fifteen elements, and
the browser's rendering of them, not the server, kept its open at 1.5-1.8x a minimal page's; Explore's panel, one
element, opens at 1.1x. Text is plain data (rich lines), drawn with textContent only; what the reader does comes back
as typed events (events.py)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from app_views import map_chart, neighbour_list
from app_views.event_component import mount_event_component
from app_views.maps_panel.events import TRIGGERS, PanelEvent, parse_panel_event
from app_views.one_line_title import cut_title_hover, one_line_title
from app_views.rich_line import RICH_LINE_JS, RichLine, to_data

HERE = Path(__file__).resolve().parent
COMPONENT_NAME = "aspectnav_maps_panel"
KEY = "maps-panel"
SCRIPTS = (RICH_LINE_JS, *map_chart.SCRIPTS, neighbour_list.SCRIPT, HERE / "maps_panel.js")  # each uses those before
STYLES = (map_chart.CSS, neighbour_list.CSS, HERE / "maps_panel.css")


@dataclass(frozen=True)
class PanelMap:
    """One map: what map_chart.js draws (map_chart.map_data) and the caption under it."""
    data: dict
    caption: RichLine


@dataclass(frozen=True)
class MarkedArticle:
    """The article a click marked in the maps, above them: what to say of it and its Explore address."""
    article_id: str
    title: str
    said: RichLine
    explore: str  # a query string (corpus_choice.explore_hrefs)


def panel_data(intro: Sequence[RichLine], maps: Sequence[PanelMap], neighbours: dict | None,
               marked: MarkedArticle | None, notes: Sequence[RichLine], weights: Sequence[int]) -> dict:
    """The panel's JSON: `intro` lines above the maps, the marked article's row, the maps side by side in columns of
    `weights` (the maps', then the list's when there is one), the `neighbours` list (neighbour_list.list_data) and
    `notes` under them."""
    return {"intro": [to_data(line) for line in intro],
            "marked": {"id": marked.article_id, "title": one_line_title(marked.title),
                       "full": cut_title_hover(marked.title), "said": to_data(marked.said),
                       "explore": marked.explore} if marked else None,
            "maps": [{**shown.data, "caption": to_data(shown.caption)} for shown in maps],
            "neighbours": neighbours, "notes": [to_data(note) for note in notes], "weights": list(weights)}


def maps_panel(data: dict, on_event: Callable[[PanelEvent], None]) -> None:
    """Mount the panel; a reader's action calls `on_event(event)` before the page reruns."""
    mount_event_component(COMPONENT_NAME, SCRIPTS, data, KEY, TRIGGERS, parse_panel_event, on_event, css=STYLES)
