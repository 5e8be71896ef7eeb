"""Headings and captions written as HTML: text escaped, emphasis and code set apart as their Markdown was."""
from app_views.html_text import Code, Emphasis, caption, heading
from tests.app_views.live_markup import html_text, live_in_html


def test_text_is_escaped_and_only_the_marked_words_are_set_apart():
    hostile = "<img src=x onerror=alert(1)> **not bold** [a](https://evil.example)"
    written = caption("Files: ", Code("a<b>.json"), ", ", Emphasis(hostile), ".")
    assert "<em>&lt;img src=x onerror=alert(1)&gt; **not bold** [a](https://evil.example)</em>" in written
    assert "<code>a&lt;b&gt;.json</code>" in written and live_in_html(written) == []
    assert html_text(written) == f"Files: a<b>.json , {hostile} ."
    assert html_text(heading("Worth <reading>")) == "Worth <reading>"
    assert '<h3 class="an-heading">Worth &lt;reading&gt;</h3>' in heading("Worth <reading>")
