"""The Maps page's list of the seed's nearest articles, beside the maps, drawn by the maps panel (neighbour_list.js):
each article's title, its similarity in each map's space, a link to explore from it and a button to map from it. As
Streamlit widgets it was four elements per article, a fifth of the page's work in the browser. The data is plain
JSON drawn with textContent only; the reader's choice comes back as a typed event (events.py)."""
from __future__ import annotations


from collections.abc import Callable, Sequence
from pathlib import Path

from app_views.one_line_title import cut_title_hover, one_line_title
from explore.map_neighbours import MapNeighbour

HERE = Path(__file__).resolve().parent
SCRIPT, CSS = HERE / "neighbour_list.js", HERE / "neighbour_list.css"


def list_data(found: Sequence[MapNeighbour], seed_title: str, free_text: bool, k: int, titles: Sequence[str],
              explore_href: Callable[[str], str]) -> dict:
    """What the list shows: `seed_title` (the seed article's title, or the reader's text when `free_text`), the
    `k` nearest per space of `titles`, and for each listed article its similarities (bold where that space ranks it
    among its nearest) and the Explore address `explore_href(article_id)` (a query string)."""
    return {
        "seed": seed_title, "freeText": free_text,
        "caption": f"The {k} nearest in each space; cosine similarity in {' | '.join(titles)} "
                   "(bold: among that space's nearest).",
        "items": [{"id": n.id, "title": one_line_title(n.title), "full": cut_title_hover(n.title),
                   "explore": explore_href(n.id),
                   "scores": [{"text": f"{similarity:.2f}", "near": rank is not None}
                              for similarity, rank in zip(n.similarities, n.ranks)]} for n in found],
    }
