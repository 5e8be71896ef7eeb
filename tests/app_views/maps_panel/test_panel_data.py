"""What the Maps panel is given: the texts as runs (drawn with textContent), each map's data with its caption,
the list, the marked article and the columns' widths."""
from __future__ import annotations

from app_views.maps_panel import MarkedArticle, PanelMap, panel_data
from app_views.rich_line import emphasis, plain, strong


def test_the_panel_s_data_keeps_every_text_as_runs_in_the_page_s_order():
    maps = [PanelMap({"spec": "{}", "underKey": "a"}, (plain("t-SNE: shipped."),)),
            PanelMap({"spec": "{}", "underKey": "b"}, (plain("t-SNE: cached. "), emphasis("<b>Curie</b>")))]
    marked = MarkedArticle("Pierre_Curie", "Pierre <Curie>", (plain("Marked in both maps: "), strong("Pierre <Curie>")),
                           "?seed=Pierre+%3CCurie%3E")
    data = panel_data([(plain("All 120 articles."),), (strong("Top-10"), plain(" overlap"))], maps,
                      {"items": []}, marked, [(plain("Choose a group."),)], [4, 4, 3])
    assert data["intro"] == [[{"text": "All 120 articles.", "style": "plain"}],
                             [{"text": "Top-10", "style": "strong"}, {"text": " overlap", "style": "plain"}]]
    assert [m["underKey"] for m in data["maps"]] == ["a", "b"]
    assert data["maps"][1]["caption"][1] == {"text": "<b>Curie</b>", "style": "em"}  # text as is: never markup
    assert data["marked"] == {"id": "Pierre_Curie", "title": "Pierre <Curie>", "full": None,
                              "explore": "?seed=Pierre+%3CCurie%3E",
                              "said": [{"text": "Marked in both maps: ", "style": "plain"},
                                       {"text": "Pierre <Curie>", "style": "strong"}]}
    assert data["neighbours"] == {"items": []} and data["weights"] == [4, 4, 3]
    assert data["notes"] == [[{"text": "Choose a group.", "style": "plain"}]]
    assert panel_data([], maps[:1], None, None, [], [1])["marked"] is None
