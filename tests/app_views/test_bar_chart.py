"""HTML bar charts (Corpus, Evaluation): every number written, sd where there is one, "n/a" for no value, corpus text
only as escaped text, a label's link relative to the app."""
import re

import pytest

from app_views.bar_chart import Bar, BarChart, judged_bar_chart, label_distribution_chart, metric_bar_chart
from tests.app_views.live_markup import html_text, live_in_html
from tests.fixture_corpora import hostile_corpus

CORPUS = hostile_corpus("evil.example")


def widths(fragment: str) -> list[float]:
    return [float(w) for w in re.findall(r'class="an-bar" style="width:([\d.]+)%', fragment)]


def test_label_charts_write_each_count_most_common_first_and_link_each_label():
    chart = label_distribution_chart({"Poland": 3, "France": 12, "Peru": 1}, "country", 0.42, top=2,
                                     href=lambda label: f"maps?only={label}")
    fragment = chart.html()
    assert html_text(fragment) == ("country: top 2 of 3 labels (42% of articles labelled) France 12 articles "
                                   "Poland 3 articles")
    assert widths(fragment) == [100.0, 25.0]
    assert '<a href="maps?only=France">France</a>' in fragment and live_in_html(fragment) == []


def test_metric_bars_show_sd_as_text_and_whisker_and_n_a_without_a_bar():
    rows = [{"space": "generic", "MAP@10": None}, {"space": "country space", "MAP@10": 0.25}]
    fragment = metric_bar_chart(rows, "MAP@10", "country: MAP@10", [None, 0.05]).html()
    assert html_text(fragment) == "country: MAP@10 generic n/a country space 0.250 ± 0.050"
    assert widths(fragment) == [25.0]  # on a 0..1 scale; no bar for n/a
    assert 'class="an-sd" style="left:20.00%;width:calc(30.00% - 20.00%)"' in fragment
    assert "±" not in html_text(metric_bar_chart(rows, "MAP@10", "t").html())  # one seed: no sd


def test_judged_bars_name_each_series_for_a_screen_reader_and_in_a_legend():
    rows = [{"column": "your mix", "worth reading": 0.8, "worth reading sd": 0.1, "shares the aspect": 0.5,
             "shares the aspect sd": None}]
    text = html_text(judged_bar_chart(rows, "Worth reading").html())
    assert text == ("Worth reading worth reading (P@5) shares the aspect (@5) your mix worth reading (P@5): "
                    "0.80 ± 0.10 shares the aspect (@5): 0.50")


def test_hostile_aspects_labels_and_titles_stay_text():
    for aspect in CORPUS.aspect_names:
        fragment = label_distribution_chart(CORPUS.label_counts(aspect), aspect, CORPUS.coverage(aspect), 15,
                                            href=lambda label: "maps?only=" + label).html()
        assert live_in_html(fragment) == [], aspect
        assert aspect in html_text(fragment)
    rows = [{"space": article.title, "P@10": 0.5} for article in CORPUS.articles[:5]]
    fragment = metric_bar_chart(rows, "P@10", f"{CORPUS.aspect_names[2]}: P@10").html()
    assert live_in_html(fragment) == [] and CORPUS.articles[0].title in html_text(fragment)


def test_a_bar_without_a_value_per_series_is_refused():
    with pytest.raises(ValueError, match="1 values and 0 sds for 2 series"):
        BarChart("t", [Bar("a", (0.5,))], series=("one", "two"))


def test_a_grid_of_charts_is_one_fragment_with_one_style():
    from app_views.bar_chart import chart_grid

    charts = [label_distribution_chart({"Poland": 3}, aspect, 0.5, top=5) for aspect in ("country", "topic")]
    fragment = chart_grid(charts)
    assert fragment.count("<style>") == 1 and fragment.count('<figure class="an-bars">') == 2
    assert html_text(fragment) == " ".join(html_text(chart.html()) for chart in charts)
    assert live_in_html(fragment) == []
