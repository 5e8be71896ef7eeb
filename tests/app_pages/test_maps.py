"""Maps through AppTest: two t-SNE maps of the same points, seed highlighted, click to reseed."""
import json

from app_views.figures import selected_article
from explore.errors import UnknownSpaceError
from explore.maps import maps_dir
from tests.app_pages.conftest import engine_opener


def charts(at):
    return [json.loads(e.proto.spec) for e in at.get("plotly_chart")]


def test_map_of_two_spaces_with_seed_and_neighbours(app):
    at = app("app_pages/maps.py", seed="Person 7")
    left, right = charts(at)
    assert "generic" in left["layout"]["title"]["text"] and "country" in right["layout"]["title"]["text"]
    names = [trace["name"] for trace in left["data"]]
    assert names[-2:] == ["neighbour", "seed"] and any(n.startswith("Japan") for n in names)
    assert [t["name"] for t in left["data"]] == [t["name"] for t in right["data"]]  # same points, same colours
    seed = next(t for t in right["data"] if t["name"] == "seed")
    assert seed["customdata"] == ["p7"] and "Person 7" in seed["hovertext"][0]
    assert any("all of them" in i.value for i in at.info)  # default sample (2,000) > 120 articles
    assert len(list(maps_dir().glob("*.npz"))) == 2  # both projections cached on disk


def test_points_are_clickable_and_a_click_names_the_article(app):
    at = app("app_pages/maps.py", seed="Person 7")
    assert all(chart.proto.selection_mode for chart in at.get("plotly_chart"))
    assert selected_article({"points": [{"x": 1, "customdata": "p9"}]}) == "p9"
    assert selected_article({"points": [{"customdata": ["p3"]}]}) == "p3"
    assert selected_article({"points": []}) is None


def test_colour_aspect_and_sample_size(app):
    at = app("app_pages/maps.py", seed="Person 7")
    at.number_input(key="map_sample").set_value(60).run()
    at.selectbox(key="map_colour").select("occupation").run()
    assert not at.exception
    left, _ = charts(at)
    points = sum(len(t["customdata"]) for t in left["data"] if t["name"] not in ("seed", "neighbour"))
    assert 60 <= points <= 71  # the sample plus the seed and neighbours placed into it
    assert any(t["name"].startswith("painter") for t in left["data"])


def test_a_corpus_without_spaces_names_the_command(app, monkeypatch):
    def no_engine(corpus):
        raise UnknownSpaceError("Corpus 'fixture' has no space 'generic'.")

    engine_opener(monkeypatch, no_engine)
    at = app("app_pages/maps.py", seed="Person 7")
    assert "no space" in at.error[0].value
