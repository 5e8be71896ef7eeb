"""Plotly renders <a href>, <span style> and more in names, hover text, tick labels and titles:
corpus text in a figure is escaped (issue #13, item 4)."""
import numpy as np

from app_views.figures import colour_map, map_figure
from app_views.markdown import escape_html
from app_views.one_line_title import one_line_title
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
    assert clicked_label.text == escape_html(one_line_title(titles[2]))  # a label is one line: cut, then escaped


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


def test_a_density_map_draws_the_view_a_reader_zoomed_to_anew():
    """`looked_at` (where a reader zoomed or panned a density map) replaces the seed's view as the range whose image
    is aggregated anew and laid over the whole one."""
    from explore.map_density import DensityImage

    ranks = {"France": 0, "Japan": 1}
    points = points_of(["France", "Japan", "France", "Japan"], ["seed", "sample", "sample", "sample"], ranks)
    whole = DensityImage("data:image/png;base64,", (-10.0, 10.0), (-10.0, 10.0), 4)
    drawn = []

    def detail(x_range, y_range):
        drawn.append((x_range, y_range))
        return DensityImage("data:image/png;base64,", x_range, y_range, 4)

    figure = map_figure(points, "map", colour_map(ranks), density=whole, detail=detail,
                        looked_at=((1.0, 2.0), (3.0, 5.0)))
    assert drawn == [((1.0, 2.0), (3.0, 5.0))]
    assert [(image.x, image.y, image.sizex, image.sizey) for image in figure.layout.images] == \
        [(-10.0, 10.0, 20.0, 20.0), (1.0, 5.0, 1.0, 2.0)]
    assert len(map_figure(points, "map", colour_map(ranks), density=whole, detail=detail).layout.images) == 1
