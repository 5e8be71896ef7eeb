"""Plotly renders <a href>, <span style> and more in names, hover text, tick labels and titles:
corpus text in a figure is escaped (issue #13, item 4)."""
import numpy as np

from app_views.figures import colour_map, label_distribution_figure, map_figure, metric_bar_figure
from app_views.markdown import escape_html
from explore.maps import NO_LABEL, OTHER, MapPoints
from tests.app_views.live_markup import live_in_figure
from tests.fixture_corpora import hostile_corpus

CORPUS = hostile_corpus("evil.example")


def test_a_map_shows_hostile_labels_and_the_seed_title_as_text():
    titles = [a.title for a in CORPUS.articles[:3]]
    labels = [a.aspects["country"][0] for a in CORPUS.articles[:3]]
    ranks = {label: rank for rank, label in enumerate(dict.fromkeys(labels))}
    points = MapPoints(ids=["h0", "h1", "h2"], titles=titles, hover=["<b>x</b><br>y"] * 3, colour=labels,
                       role=["seed", "neighbour", "sample"], coords=np.zeros((3, 2)), placed=np.zeros(3, bool),
                       legend=list(ranks), ranks=ranks)
    figure = map_figure(points, f"<a href='http://evil.example'>{CORPUS.aspect_names[1]}</a>", colour_map(ranks),
                        highlight="h2")
    assert live_in_figure(figure.to_plotly_json()) == []
    seed_label, clicked_label = figure.layout.annotations
    assert seed_label.text.startswith("★ ![pic](http://evil.example/title.png) Image &lt;img")
    assert clicked_label.text == escape_html(titles[2])


def points_of(labels: list[str], role: list[str], ranks: dict[str, int]) -> MapPoints:
    n = len(labels)
    return MapPoints(ids=[f"a{i}" for i in range(n)], titles=[f"T{i}" for i in range(n)], colour=labels, role=role,
                     coords=np.arange(2 * n, dtype=float).reshape(n, 2), placed=np.zeros(n, bool),
                     legend=sorted({l for l in labels if l in ranks}, key=ranks.get) + [OTHER] * (OTHER in labels),
                     ranks=ranks)


def test_a_label_has_one_colour_in_both_maps_and_for_every_seed_and_unlabelled_points_are_faint():
    ranks = {"France": 0, "Japan": 1, "Peru": 2}  # the corpus's label ranks (explore.maps.label_ranks)
    first = points_of(["Peru", "France", NO_LABEL, OTHER], ["seed", "sample", "sample", "sample"], ranks)
    second = points_of(["Japan", "Peru", NO_LABEL, NO_LABEL], ["sample", "sample", "seed", "neighbour"], ranks)

    def colour_of(figure, label):
        return {trace.name.split(" (")[0]: trace.marker.color for trace in figure.data}[label]

    one, two = (map_figure(p, "t", colour_map(p.ranks)) for p in (first, second))
    assert colour_of(one, "Peru") == colour_of(two, "Peru") == colour_map(ranks)["Peru"]
    assert len({colour_map(ranks)[label] for label in ranks}) == 3
    unlabelled = next(trace for trace in one.data if trace.name.startswith(NO_LABEL))
    assert unlabelled.showlegend is False and unlabelled.marker.opacity < 0.5
    assert one.layout.legend.orientation == "h" and one.layout.legend.y < 0  # below the plot, not beside it


def test_the_seed_label_points_from_beside_the_seed():
    figure = map_figure(points_of(["France"], ["seed"], {"France": 0}), "t", colour_map({"France": 0}))
    (label,) = figure.layout.annotations
    assert label.showarrow and (label.ax, label.ay) != (0, 0) and label.text == "★ T0"


def test_label_charts_and_metric_bars_show_hostile_aspects_and_labels_as_text():
    for aspect in CORPUS.aspect_names:
        assert live_in_figure(label_distribution_figure(CORPUS, aspect).to_plotly_json()) == []
    rows = [{"space": "generic", "P@10": 0.5}]
    assert live_in_figure(metric_bar_figure(rows, "P@10", f"{CORPUS.aspect_names[2]}: P@10").to_plotly_json()) == []


def test_chart_titles_sit_below_the_hover_toolbar_and_missing_bars_say_n_a():
    """The toolbar covers a figure's top 40 px; the title sits on the plot, under a taller top margin."""
    rows = [{"space": "generic", "MAP@10": None}, {"space": "<b>mine</b>", "MAP@10": 0.25}]
    for figure in (label_distribution_figure(CORPUS, CORPUS.aspect_names[0]), metric_bar_figure(rows, "MAP@10", "t")):
        layout = figure.to_plotly_json()["layout"]
        assert layout["margin"]["t"] >= 70
        assert (layout["title"]["yref"], layout["title"]["y"], layout["title"]["yanchor"]) == ("paper", 1, "bottom")
    bars = metric_bar_figure(rows, "MAP@10", "t").data[0]
    assert list(bars.text) == ["n/a", "0.250"] and list(bars.x) == ["generic", "&lt;b&gt;mine&lt;/b&gt;"]


def test_region_names_stay_inside_the_map_and_never_cover_each_other():
    import random

    from app_views.figures import CHAR_PX, LINE_PX, PLOT_PX, placed_regions
    from explore.map_regions import Region

    def region(x, y, name, size=10):
        return Region(x, y, tuple(name.split(" · ")), tuple(range(size)))

    def boxes(placed):  # on a map of 0..100 both ways
        half_h = LINE_PX * 100 / PLOT_PX[1] / 2
        return [((x - (half_w := (CHAR_PX * len(r.name) + 8) * 100 / PLOT_PX[0] / 2), x + half_w),
                 (y - half_h, y + half_h)) for r, x, y in placed]

    def overlap(a, b):
        return all(a[axis][0] < b[axis][1] - 1e-9 and b[axis][0] < a[axis][1] - 1e-9 for axis in (0, 1))

    crowded = [region(50, 50, "Mathematics · Physical sciences", 30), region(52, 50, "Sciences · Technology", 20),
               region(99, 10, "Geography · History", 5), region(150, 50, "Far away")]
    placed = placed_regions(crowded, (0.0, 100.0), (0.0, 100.0))
    assert [r.name for r, _, _ in placed] == ["Mathematics · Physical sciences", "Sciences · Technology",
                                              "Geography · History"]  # the bigger first; off the map: no name
    rng = random.Random(3)
    many = [region(rng.uniform(0, 100), rng.uniform(0, 100), "Word · Other word", rng.randint(1, 50))
            for _ in range(30)]
    for placement in (placed, placed_regions(many, (0.0, 100.0), (0.0, 100.0))):
        found = boxes(placement)
        assert all(0 <= lo and hi <= 100 for box in found for lo, hi in box)  # never cut at an edge
        assert not any(overlap(a, b) for n, a in enumerate(found) for b in found[n + 1:])


def test_a_maps_plot_width_follows_its_column():
    from app_views.figures import PLOT_PX, plot_width

    assert plot_width([4, 4], 0) == PLOT_PX[0]  # two maps side by side (measured: 537 px)
    assert abs(plot_width([4, 4, 3], 1) - 380) <= 2  # beside the seed's neighbour list (measured: 380 px)


def test_a_region_name_keeps_off_the_seeds_label():
    from app_views.figures import placed_regions, pointer_boxes
    from explore.map_regions import Region

    seed_label = dict(x=50.0, y=50.0, ax=60, ay=-50, text="★ Marie Curie")  # up and to the right of the star
    avoid = pointer_boxes(seed_label, (0.0, 100.0), (0.0, 100.0))
    label_box = avoid[0]
    centre = ((label_box[0] + label_box[1]) / 2, (label_box[2] + label_box[3]) / 2)
    region = Region(centre[0], centre[1], ("United Kingdom", "People"), tuple(range(9)))
    for kept, x, y in placed_regions([region], (0.0, 100.0), (0.0, 100.0), avoid=avoid):
        assert abs(y - centre[1]) > (label_box[3] - label_box[2]) * 0.9  # moved a line off the label
