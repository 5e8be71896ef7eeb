"""Small tables as plain HTML: every cell escaped text, bold and italics typed, headers in order, a bad table an error."""
import pytest

from app_views.html_table import Cell, html_table
from tests.app_views.live_markup import html_table_cells, live_in_html
from tests.fixture_corpora import hostile_corpus


def test_cells_are_text_bold_italic_code_and_figures():
    fragment = html_table([{"space": "generic", "P@10": Cell("0.700", strong=True, number=True)},
                           {"space": "country", "P@10": Cell("n/a: not in this report", note=True)},
                           {"space": "links", "query": Cell("space:country", code=True)}], "country")
    assert html_table_cells(fragment) == [
        ("space", "th"), ("P@10", "th"), ("query", "th"),
        ("generic", "td"), ("0.700", "strong"), ("", "td"),  # a header a row lacks: an empty cell
        ("country", "td"), ("n/a: not in this report", "em"), ("", "td"),
        ("links", "td"), ("", "td"), ("space:country", "code")]
    assert '<td class="an-number"><strong>0.700</strong></td>' in fragment and 'aria-label="country"' in fragment


def test_corpus_text_stays_text():
    titles = [article.title for article in hostile_corpus("evil.example").articles[:6]]
    fragment = html_table([{"title": title, "note": Cell(title, code=True)} for title in titles], '"><script>')
    assert live_in_html(fragment) == [] and [text for text, _ in html_table_cells(fragment)][2::2] == titles
    assert "<script>" not in fragment


def test_a_table_without_rows_says_so():
    with pytest.raises(ValueError, match="table 'empty': no rows"):
        html_table([], "empty")
