"""A rich line drawn as Markdown stays the same words: escaped text, emphasis and code spans, no indent trouble."""
from app_views.rich_line import code, emphasis, plain, strong, to_data, to_markdown, to_text


def test_one_line_as_markdown_as_data_and_as_text():
    line = (emphasis("*Title* [x](y)"), plain(" has no label; run "), code("a `b` c"), plain("."))
    assert to_markdown(line) == "*\\*Title\\* \\[x\\]\\(y\\)* has no label; run ``a `b` c``\\."
    assert to_text(line) == "*Title* [x](y) has no label; run a `b` c."
    assert to_data(line)[2] == {"text": "a `b` c", "style": "code"}


def test_a_leading_space_is_kept_as_indent_text_only_at_the_start_of_the_line():
    assert to_markdown((plain("    four spaces"),)).startswith("&#32;&#32;&#32;&#32;four")
    assert to_markdown((plain("a"), plain(" b"))) == "a b"


def test_strong_words_are_bold_in_markdown_and_named_for_the_script():
    line = (strong("Top-10 overlap: 0.30"), plain(" of "), emphasis("Curie"))
    assert to_markdown(line) == "**Top\\-10 overlap\\: 0\\.30** of *Curie*"
    assert to_data(line)[0] == {"text": "Top-10 overlap: 0.30", "style": "strong"}
