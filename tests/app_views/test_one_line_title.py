"""The one cut for a title shown in one line (issue #49 item 8): short titles whole, long ones at a word's end."""
from app_views.one_line_title import ONE_LINE_CHARS, cut_title_hover, one_line_title

LONG = "Word " * 2000  # 10,000 characters


def test_a_title_that_fits_is_left_whole_and_gets_no_hover():
    title = "International Covenant on Economic, Social and Cultural Rights"
    assert one_line_title(title) == title and cut_title_hover(title) is None


def test_a_long_title_is_cut_at_a_words_end_and_keeps_its_whole_for_the_hover():
    shown = one_line_title(LONG)
    assert len(shown) <= ONE_LINE_CHARS and shown.endswith("Word…")
    assert cut_title_hover(LONG) == LONG


def test_one_endless_word_or_line_breaks_still_make_one_short_line():
    assert one_line_title("x" * 10_000) == "x" * (ONE_LINE_CHARS - 1) + "…"
    assert one_line_title("Two\nlines") == "Two lines" and cut_title_hover("Two\nlines") is None
