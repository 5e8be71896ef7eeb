"""Maps through AppTest: two t-SNE maps of the same points, seed highlighted, a click marks the article in both
maps and offers to map or explore from it."""
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
    assert names[-2:] == ["◇ neighbours", "★ seed"] and any(n.startswith("Japan") for n in names)
    colours = lambda chart: [(t["name"], t["marker"]["color"]) for t in chart["data"]]  # noqa: E731
    assert colours(left) == colours(right)  # same points, same colours
    seed = next(t for t in right["data"] if t["name"] == "★ seed")
    assert seed["customdata"] == ["p7"] and "Person 7" in seed["hovertext"][0]
    assert any("Person 7" in a["text"] for a in right["layout"]["annotations"])  # the seed's label, beside it
    assert any("Jaccard@10" in m.value for m in at.markdown)
    assert any("all of them" in i.value for i in at.info)  # default sample (2,000) > 120 articles
    assert len(list(maps_dir().glob("*.npz"))) == 2  # both projections cached on disk


def test_points_are_clickable_and_a_click_marks_the_article_in_both_maps(app):
    at = app("app_pages/maps.py", seed="Person 7")
    assert all(chart.proto.selection_mode for chart in at.get("plotly_chart"))
    at.session_state["map_highlight"] = ("p7", "p9")  # what a click on Person 9 in either map leaves
    at.run()
    for chart in charts(at):
        clicked = next(t for t in chart["data"] if t["name"] == "clicked")
        assert clicked["customdata"] == ["p9"]
    assert any(link.label == "Explore from Person 9" for link in at.get("page_link"))
    at.button(key="map_from").click().run()  # reseeds the maps; the mark goes
    assert at.session_state["map_highlight"] is None
    assert next(t for t in charts(at)[0]["data"] if t["name"] == "★ seed")["customdata"] == ["p9"]
    assert selected_article({"points": [{"x": 1, "customdata": "p9"}]}) == "p9"
    assert selected_article({"points": [{"customdata": ["p3"]}]}) == "p3"
    assert selected_article({"points": []}) is None


def test_colour_aspect_and_sample_size(app):
    at = app("app_pages/maps.py", seed="Person 7")
    at.number_input(key="map_sample").set_value(60).run()
    at.selectbox(key="map_colour").select("occupation").run()
    assert not at.exception
    left, _ = charts(at)
    points = sum(len(t["customdata"]) for t in left["data"] if t["name"] not in ("★ seed", "◇ neighbours"))
    assert 60 <= points <= 71  # the sample plus the seed and neighbours placed into it
    assert any(t["name"].startswith("painter") for t in left["data"])
    assert any("no occupation label" in c.value for c in at.caption)  # unlabelled points: faint, said in words


def test_a_corpus_without_spaces_names_the_command(app, monkeypatch):
    def no_engine(corpus):
        raise UnknownSpaceError("Corpus 'fixture' has no space 'generic'.")

    engine_opener(monkeypatch, no_engine)
    at = app("app_pages/maps.py", seed="Person 7")
    assert "no space" in at.error[0].value


def test_shipped_maps_are_drawn_as_they_are_and_said_to_be(app, monkeypatch, tmp_path):
    """A verified shipped map of the page's sample is drawn without computing t-SNE; the caption says where
    each map came from."""
    import numpy as np

    from explore import maps, shipped_maps
    from explore.maps import DEFAULT_SAMPLE, ProjectionParams, projection_key, select_sample
    from tests.app_pages.conftest import fixture_engine
    from tests.fixture_corpora import fixture_corpus

    engine = fixture_engine(fixture_corpus())
    sample = select_sample(len(engine.corpus), DEFAULT_SAMPLE)
    coords = np.random.default_rng(0).uniform(-40, 40, size=(len(sample.base), 2))
    shipped_maps.write_shipped_maps(tmp_path / "fixture", "fixture", sample, 0, ProjectionParams(),
                                    {"country": (projection_key(engine.spaces["country"]), coords, "openTSNE")})
    monkeypatch.setattr(shipped_maps, "SHIPPED_MAPS_DIR", tmp_path)
    computed = []
    real_tsne = maps.tsne
    monkeypatch.setattr(maps, "tsne", lambda vectors, *args, **kwargs: computed.append(len(vectors)) or
                        real_tsne(vectors, *args, **kwargs))
    at = app("app_pages/maps.py", seed="Person 7")
    captions = [c.value for c in at.caption]
    assert any(c.endswith("articles: projected just now, cached for next time.") for c in captions)  # generic
    assert any(c.endswith("articles: shipped with AspectNav, checksum verified.") for c in captions)  # country
    assert computed == [len(sample.base)]  # generic only
    right = charts(at)[1]
    xs = np.sort(np.concatenate([_numbers(trace["x"]) for trace in right["data"]
                                 if trace["name"] not in ("★ seed", "◇ neighbours", "clicked")]))
    assert np.allclose(xs, np.sort(coords[:, 0]), atol=0.05)  # the shipped coordinates, as float16 keeps them


def _numbers(values):
    """A plotly array from the chart's JSON: a list, or a typed array ({"dtype", "bdata"} in base64)."""
    import base64

    import numpy as np

    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).astype(float)
    return np.asarray(values, dtype=float)
