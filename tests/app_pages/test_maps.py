"""Maps through AppTest: two t-SNE maps of the same points, seed highlighted, a click marks the article in both
maps and offers to map or explore from it."""
import pytest

from explore.errors import UnknownSpaceError
from explore.maps import maps_dir
from app_views.view_session import VIEW_KEY
from tests.app_pages.conftest import (engine_opener, map_captions, map_figures, map_neighbour_list, maps_panel,
                                     map_settings, set_map_setting)


charts = map_figures


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
    assert any("Jaccard@10" in c for c in map_captions(at))
    counted = [c for c in map_captions(at) if "120" in c]
    assert len(counted) == 1 and counted[0].startswith("All 120 articles of the corpus, the same in both maps")
    assert not any("all of them" in i.value for i in at.info)  # the count is said once, in the caption
    assert len(list(maps_dir().glob("*.npz"))) == 2  # both projections cached on disk


def test_points_are_clickable_and_a_click_marks_the_article_in_both_maps(app):
    at = app("app_pages/maps.py", seed="Person 7")
    at.session_state["map_highlight"] = ("p7", "p9")  # what a click on Person 9 in either map leaves
    at.run()
    for chart in charts(at):
        clicked = next(t for t in chart["data"] if t["name"] == "clicked")
        assert clicked["customdata"] == ["p9"]
    marked = maps_panel(at)["marked"]  # its row above the maps: to map or explore from it (clicked: browser tests)
    assert (marked["id"], marked["title"]) == ("p9", "Person 9") and "seed=Person+9" in marked["explore"]
    assert "".join(run["text"] for run in marked["said"]) == "Marked in both maps (red ring): Person 9"
    at.session_state["map_highlight"] = None  # what "Map from" does: the mark goes, the article is the seed
    at.session_state[VIEW_KEY].set_seed("p9")
    at.run()
    assert at.session_state["map_highlight"] is None
    assert next(t for t in charts(at)[0]["data"] if t["name"] == "★ seed")["customdata"] == ["p9"]


def test_colour_aspect_and_sample_size(app):
    at = app("app_pages/maps.py", seed="Person 7")
    set_map_setting(at, "map_sample", 60).run()
    set_map_setting(at, "map_colour", "occupation").run()
    assert not at.exception
    left, _ = charts(at)
    points = sum(len(t["customdata"]) for t in left["data"] if t["name"] not in ("★ seed", "◇ neighbours"))
    assert 60 <= points <= 71  # the sample plus the seed and neighbours placed into it
    extra = points - 60
    counted = [c for c in map_captions(at) if "of the corpus's 120 articles" in c]
    assert len(counted) == 1 and counted[0].startswith(f"A random sample of 60 of the corpus's 120 articles, plus "
                                                       f"{extra} placed beside their nearest sampled articles")
    assert any(t["name"].startswith("painter") for t in left["data"])
    assert any("no occupation label" in c for c in map_captions(at))  # unlabelled points: faint, said in words


def test_switching_the_projection_draws_umap_maps_said_in_the_caption_and_the_url(app):
    at = app("app_pages/maps.py", seed="Person 7")
    assert map_settings(at)["map_projection"]["value"] == "tsne"
    assert sum("t-SNE (perplexity=30" in c for c in map_captions(at)) == 2
    set_map_setting(at, "map_projection", "umap").run()
    assert not at.exception
    assert all("UMAP" in chart["layout"]["title"]["text"] for chart in charts(at))
    said = [c for c in map_captions(at) if c.startswith("UMAP (n_neighbors=15, min_dist=0.1, metric=cosine")]
    assert len(said) == 2 and all("projected just now" in c for c in said)
    assert at.query_params["proj"] in ("umap", ["umap"])
    assert len(list(maps_dir().glob("*.npz"))) == 4  # t-SNE's two and UMAP's two, each cached


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
    captions = map_captions(at)
    assert any(c.startswith("t-SNE (perplexity=30") and "): projected just now, cached for next time." in c for c in captions)  # generic
    assert any(c.startswith("t-SNE (perplexity=30") and "): shipped with AspectNav, checksum verified." in c for c in captions)  # country
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


def _trace(chart, name):
    return next(t for t in chart["data"] if t["name"] == name)


def test_a_found_article_is_marked_and_centred_in_both_maps_and_its_neighbours_listed(app, monkeypatch):
    import numpy as np

    from app_views import figures

    monkeypatch.setattr(figures, "CENTRE_FROM", 100)  # the fixture's 120 points count as a large map
    at = app("app_pages/maps.py", seed="Person 7")
    assert at.text_input(key="seed_picker").label.startswith("Find an article on the maps")
    for chart in charts(at):
        seed = _trace(chart, "★ seed")
        x, y = _numbers(seed["x"])[0], _numbers(seed["y"])[0]
        xs, ys = chart["layout"]["xaxis"]["range"], chart["layout"]["yaxis"]["range"]
        assert np.mean(xs) == pytest.approx(x) and np.mean(ys) == pytest.approx(y)  # centred on the seed
    listed = map_neighbour_list(at)
    assert listed["seed"] == "Person 7" and not listed["freeText"]
    neighbours = {t for chart in charts(at) for t in _trace(chart, "◇ neighbours")["customdata"]}
    assert {item["id"] for item in listed["items"]} == neighbours
    assert all(item["explore"].startswith("?") and "seed=" in item["explore"] for item in listed["items"])
    first = sorted(neighbours)[0]
    at.session_state[VIEW_KEY].set_seed(first)  # what "Map from" does (the list's event; its click: browser tests)
    at.run()
    assert _trace(charts(at)[0], "★ seed")["customdata"] == [first]


def test_an_article_without_the_maps_aspect_is_said_to_lack_it(app):
    at = app("app_pages/maps.py", seed="Person 100")  # no country, no occupation label
    _, right = charts(at)
    assert any("Person 100 · no country label" in a["text"] for a in right["layout"]["annotations"])
    captions = " ".join(map_captions(at))
    assert "*Person 100* has no country label: where it lies on the country map says nothing about its country" \
        in captions


def test_default_colouring_is_the_aspect_that_labels_the_most_articles(app):
    from explore.corpus.model import Corpus
    from explore.corpus.registry import store_corpus
    from tests.fixture_corpora import fixture_corpus

    base = fixture_corpus()
    # occupation on every article, country on most: occupation must colour by default
    articles = [a.__class__(a.id, a.title, a.text, links=a.links, aspects=dict(a.aspects) | {
        "occupation": a.labels("occupation") or ("farmer",)}) for a in base]
    store_corpus(Corpus("busy", articles, base.provenance))
    at = app("app_pages/maps.py", corpus="busy", seed="Person 7")
    assert map_settings(at)["map_colour"]["value"] == "occupation"


def test_regions_are_named_on_both_maps_and_can_be_switched_off(app):
    at = app("app_pages/maps.py")  # no seed: each map whole, every region in view
    for chart in charts(at):
        regions = [a for a in chart["layout"]["annotations"] if a.get("name") == "region"]
        assert len(regions) >= 2 and all(a["text"] for a in regions)
    _, right = charts(at)
    countries = {"France", "Poland", "Japan", "Brazil", "Egypt"}
    assert any(a["text"].split(" · ")[0] in countries for a in right["layout"]["annotations"]
               if a.get("name") == "region")  # the country map's regions are its countries
    set_map_setting(at, "map_regions", False).run()
    assert not any(a.get("name") == "region" for chart in charts(at) for a in chart["layout"].get("annotations", []))
    assert at.query_params["regions"] == "off"


def test_spaces_colouring_and_the_marked_article_are_in_the_url_and_read_back(app):
    at = app("app_pages/maps.py", seed="Person 7", left="country", right="generic", colour="occupation",
             mark="Person 9")
    assert (map_settings(at)["map_left"]["value"], map_settings(at)["map_right"]["value"]) == ("country", "generic")
    assert map_settings(at)["map_colour"]["value"] == "occupation"
    assert _trace(charts(at)[0], "clicked")["customdata"] == ["p9"]
    assert "country" in charts(at)[0]["layout"]["title"]["text"]
    set_map_setting(at, "map_colour", "country").run()
    params = dict(at.query_params.items())
    assert params | {"seed": "Person 7"} == params and params["colour"] == "country"
    assert (params["left"], params["right"], params["mark"]) == ("country", "generic", "Person 9")


def test_a_bad_map_url_is_reported_and_the_defaults_kept(app):
    at = app("app_pages/maps.py", seed="Person 7", left="nowhere", colour="<b>x</b>", mark="Nobody At All")
    warnings = " ".join(w.value for w in at.warning).replace("\\", "")  # as read: Markdown escapes dropped
    assert "left='nowhere' ignored" in warnings and "mark='Nobody At All' ignored" in warnings
    assert "colour=" in warnings and "<b>" not in warnings  # escaped
    assert map_settings(at)["map_left"]["value"] == "generic" and not at.exception


def test_a_setting_the_page_cannot_draw_is_replaced_by_its_default(app):
    at = app("app_pages/maps.py", seed="Person 7")
    for key, value in (("map_left", "a space of another corpus"), ("map_sample", 10**9), ("map_colour", "<b>x</b>"),
                       ("map_projection", "pca"), ("map_regions", "yes")):
        at.session_state[key] = value  # what an older page or another corpus left in the session
    at.run()
    assert not at.exception
    drawn = map_settings(at)
    assert [drawn[key]["value"] for key in ("map_left", "map_sample", "map_projection", "map_regions")] == \
        ["generic", 20_000, "tsne", True]
    assert drawn["map_colour"]["value"] in [value for value, _ in drawn["map_colour"]["options"]]
    assert len(charts(at)) == 2


def test_a_box_selection_is_ringed_in_both_maps_listed_and_exported(app):
    at = app("app_pages/maps.py", seed="Person 7")
    at.session_state["map_selected"] = ("p9", "p11", "p3")  # what a box over three points in either map leaves
    at.run()
    for chart in charts(at):
        assert sorted(_trace(chart, "selected")["customdata"]) == ["p11", "p3", "p9"]
    assert any(m.value.startswith("**Selected: 3 articles**") for m in at.markdown)
    table = at.dataframe[0].value
    assert list(table["title"]) == ["Person 9", "Person 11", "Person 3"]
    assert all("seed=Person" in href and href.startswith("./?") for href in table["explore"])
    at.button(key="map_selection_clear").click().run()
    assert not any(t["name"] == "selected" for chart in charts(at) for t in chart["data"])
    assert not at.dataframe


def test_a_label_filter_from_the_url_colours_only_that_label(app):
    at = app("app_pages/maps.py", seed="Person 7", colour="country", only="Japan")
    for chart in charts(at):
        shown = [t["name"] for t in chart["data"] if t.get("showlegend") is not False]
        assert shown == ["Japan (20)"], shown
        faint = _trace(chart, "(not the chosen label) (100)")
        assert faint["showlegend"] is False and faint["marker"]["opacity"] < 0.5
    assert any("Only the articles labelled **country: Japan** (20)" in m.value for m in at.markdown)
    assert at.query_params["only"] == "Japan"
    at.button(key="map_only_clear").click().run()
    assert "only" not in at.query_params
    assert any(t["name"].startswith("France") for t in charts(at)[0]["data"])


def test_a_label_filter_of_another_aspect_or_an_unknown_label_is_not_applied(app):
    at = app("app_pages/maps.py", seed="Person 7", colour="country", only="Atlantis")
    assert any("No article has the country label “Atlantis”" in w.value for w in at.warning)
    assert any(t["name"].startswith("Japan") for t in charts(at)[0]["data"]) and "only" not in at.query_params


def test_a_marked_article_stays_in_view_of_both_centred_maps(app, monkeypatch):
    import numpy as np

    from app_views import figures

    monkeypatch.setattr(figures, "CENTRE_FROM", 100)  # the fixture's 120 points count as a large map
    centred = app("app_pages/maps.py", seed="Person 7")
    assert any("click a point to mark it in both maps. Each map is centred on ★, closer in" in c
               for c in map_captions(centred))
    at = app("app_pages/maps.py", seed="Person 7", mark="Person 100")
    for chart in charts(at):
        clicked = _trace(chart, "clicked")
        x, y = _numbers(clicked["x"])[0], _numbers(clicked["y"])[0]
        (x0, x1), (y0, y1) = chart["layout"]["xaxis"]["range"], chart["layout"]["yaxis"]["range"]
        assert x0 < x < x1 and y0 < y < y1
        seed = _trace(chart, "★ seed")
        assert np.mean([x0, x1]) == pytest.approx(_numbers(seed["x"])[0])  # still centred on the seed
        for region in (a for a in chart["layout"]["annotations"] if a.get("name") == "region"):
            assert x0 < region["x"] < x1 and y0 < region["y"] < y1  # no name cut at the edge


def test_a_small_map_is_shown_whole_around_its_seed(app):
    at = app("app_pages/maps.py", seed="Person 7")  # 120 points: read at a glance, not zoomed
    assert all("range" not in chart["layout"].get("xaxis", {}) for chart in charts(at))
    assert not any("centred on ★" in m for m in [*map_captions(at), *(m.value for m in at.markdown)])
    assert any("; click a point to mark it in both maps.\n\n**Top-10 overlap" in c for c in map_captions(at))


def test_a_corpus_above_the_full_map_size_is_drawn_whole_by_density(app, monkeypatch):
    from app_views import figures
    from explore import maps

    monkeypatch.setattr(maps, "FULL_MAP_UP_TO", 50)  # the fixture's 120 articles count as a large corpus
    monkeypatch.setattr(figures, "CENTRE_FROM", 100)  # and as a map centred on its seed
    at = app("app_pages/maps.py", seed="Person 7")
    assert any(c.startswith("All 120 articles of the corpus, drawn by density") for c in map_captions(at))
    for chart in charts(at):
        image, detail = chart["layout"]["images"]  # the whole map, then the centred view's range drawn anew
        assert image["source"].startswith("data:image/png;base64,") and image["xref"] == "x"
        assert image["layer"] == "below" and image["sizex"] > 0 and image["sizey"] > 0
        view = chart["layout"]["xaxis"]["range"]
        assert detail["x"] == pytest.approx(view[0]) and detail["sizex"] == pytest.approx(view[1] - view[0])
        assert detail["sizex"] < image["sizex"]
        hidden = _trace(chart, "articles")  # the sampled points: hover and clicks, not drawn
        assert hidden["marker"]["opacity"] == 0 and len(hidden["customdata"]) == 120
        assert _trace(chart, "★ seed")["customdata"] == ["p7"]
        assert any(t.get("showlegend") and t["x"] == [None] for t in chart["data"])  # a legend of colours
    at.session_state["map_selected"] = ("p9", "p11", "p3")
    at.run()
    for chart in charts(at):
        assert len(_numbers(_trace(chart, "selected")["x"])) == 3
    assert any(m.value.startswith("**Selected: 3 articles**") for m in at.markdown)
    assert list(at.dataframe[0].value["title"]) == ["Person 9", "Person 11", "Person 3"]


def test_a_corpus_with_one_space_draws_one_map_and_the_hint_says_so(app, monkeypatch):
    from app_views import figures

    monkeypatch.setattr(figures, "CENTRE_FROM", 100)  # the fixture's 120 points count as a large map
    at = app("app_pages/maps.py", corpus="plain", seed="Person 7")  # no aspect labels: the generic space alone
    assert len(charts(at)) == 1
    said = " ".join(map_captions(at))
    assert "click a point to mark it. The map is centred on ★, closer in: double-click it to see all of it." in said
    assert "both maps" not in said


def test_neighbours_k_is_offered_only_with_a_seed_to_have_neighbours(app):
    at = app("app_pages/maps.py")
    assert "k" not in map_settings(at) and {"map_left", "map_sample", "map_projection"} <= set(map_settings(at))
    assert not map_neighbour_list(at)
    at = app("app_pages/maps.py", seed="Person 7", k="3")
    assert map_settings(at)["k"]["value"] == 3 and len(map_neighbour_list(at)["items"]) >= 3
