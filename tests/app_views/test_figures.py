"""Plotly renders <a href>, <span style> and more in names, hover text, tick labels and titles:
corpus text in a figure is escaped (issue #13, item 4)."""
import numpy as np

from app_views.figures import colour_map, label_distribution_figure, map_figure, metric_bar_figure
from explore.maps import MapPoints
from tests.app_views.live_markup import live_in_figure
from tests.fixture_corpora import hostile_corpus

CORPUS = hostile_corpus("evil.example")


def test_a_map_shows_hostile_labels_and_the_seed_title_as_text():
    titles = [a.title for a in CORPUS.articles[:3]]
    labels = [a.aspects["country"][0] for a in CORPUS.articles[:3]]
    points = MapPoints(ids=["h0", "h1", "h2"], titles=titles, hover=["<b>x</b><br>y"] * 3, colour=labels,
                       role=["seed", "neighbour", "sample"], coords=np.zeros((3, 2)), placed=np.zeros(3, bool),
                       legend=labels)
    figure = map_figure(points, f"<a href='http://evil.example'>{CORPUS.aspect_names[1]}</a>", colour_map(labels))
    assert live_in_figure(figure.to_plotly_json()) == []
    seed = next(trace for trace in figure.data if trace.name == "seed")
    assert seed.text[0].startswith("![pic](http://evil.example/title.png) Image &lt;img")


def test_label_charts_and_metric_bars_show_hostile_aspects_and_labels_as_text():
    for aspect in CORPUS.aspect_names:
        assert live_in_figure(label_distribution_figure(CORPUS, aspect).to_plotly_json()) == []
    rows = [{"space": "generic", "P@10": 0.5}]
    assert live_in_figure(metric_bar_figure(rows, "P@10", f"{CORPUS.aspect_names[2]}: P@10").to_plotly_json()) == []
