"""The Corpus page's headline counts as one HTML fragment: each label above its figure, help on a pointer, text only."""
import pytest

from app_views.count_row import Count, count_row
from tests.app_views.live_markup import html_text, live_in_html


def test_counts_in_order_with_help_on_the_label():
    fragment = count_row([Count("Articles", "10,033"), Count("Links", "212,431", help='Mentioned "articles" <a>')])
    assert html_text(fragment) == "Articles 10,033 Links 212,431"
    assert '<abbr title="Mentioned &quot;articles&quot; &lt;a&gt;">Links</abbr>' in fragment
    assert live_in_html(fragment) == []


def test_no_counts_is_an_error():
    with pytest.raises(ValueError, match="at least one count"):
        count_row([])
