"""The Maps page's neighbour list: what it shows (plain text, similarities marked where a space ranks the article
among its nearest) and the events its script sends."""
from __future__ import annotations

from app_views.neighbour_list import list_data
from app_views.neighbour_list.events import EXPLORE_FROM, MAP_FROM, MAX_ID, ExploreFrom, MapFrom, \
    parse_neighbour_event
from explore.map_neighbours import MapNeighbour


def test_the_list_says_each_neighbour_s_similarities_and_where_to_explore_from_it():
    found = [MapNeighbour("Pierre_Curie", "Pierre <Curie>", (0.781, 0.884), (1, 2)),
             MapNeighbour("Roman_Polanski", "Roman Polanski", (0.08, 0.92), (None, 1))]
    data = list_data(found, "Marie Curie", False, 5, ["generic", "country (aspect)"], lambda i: f"?seed={i}")
    assert data["seed"] == "Marie Curie" and not data["freeText"]
    assert data["caption"] == ("The 5 nearest in each space; cosine similarity in generic | country (aspect) "
                               "(bold: among that space's nearest).")
    first, second = data["items"]
    assert first == {"id": "Pierre_Curie", "title": "Pierre <Curie>", "full": None, "explore": "?seed=Pierre_Curie",
                     "scores": [{"text": "0.78", "near": True}, {"text": "0.88", "near": True}]}
    assert second["scores"] == [{"text": "0.08", "near": False}, {"text": "0.92", "near": True}]
    text = list_data(found, "a mountain", True, 5, ["generic"], lambda i: "?")
    assert text["seed"] == "a mountain" and text["freeText"]


def test_the_list_s_events_and_what_it_never_sends():
    assert parse_neighbour_event(MAP_FROM, "Pierre_Curie") == MapFrom("Pierre_Curie")
    assert parse_neighbour_event(EXPLORE_FROM, "Pierre_Curie") == ExploreFrom("Pierre_Curie")
    for trigger, value in ((MAP_FROM, ""), (MAP_FROM, None), (EXPLORE_FROM, 7), (MAP_FROM, "x" * (MAX_ID + 1)),
                           ("pick", "Pierre_Curie")):
        assert parse_neighbour_event(trigger, value) is None
