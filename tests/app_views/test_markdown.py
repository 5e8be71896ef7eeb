import html
import re

import pytest

from app_views.cards import Card
from app_views.markdown import aspect_chips, escape_markdown, markdown_link, shared_chips
from explore.corpus.model import Article
from tests.app_views.live_markup import live_markup


def test_markdown_and_html_in_corpus_text_are_shown_as_text():
    assert escape_markdown("*bold* [x](y) <b> $x$ :red[z]") == (
        "\\*bold\\* \\[x\\]\\(y\\) &lt;b&gt; \\$x\\$ \\:red\\[z\\]")
    assert escape_markdown("Marie Curie") == "Marie Curie"


def test_a_link_cannot_be_closed_early_by_its_address():
    assert markdown_link("Mercury (planet)", "https://en.wikipedia.org/wiki/Mercury_(planet)") == (
        "[Mercury \\(planet\\)](https://en.wikipedia.org/wiki/Mercury_%28planet%29)")


def test_chips_escape_their_labels():
    article = Article("a", "A", "text", aspects={"country": ("France",), "occupation": ("a]b",)})
    assert aspect_chips(article) == ":blue-badge[country: France] :blue-badge[occupation: a\\]b]"
    assert aspect_chips(Article("b", "B", "text")) == "_no aspect labels_"
    card = Card("b", "B", "snippet", shared={"country": ["France"]})
    assert shared_chips(card) == ":green-background[country: France]"


def shown(markdown: str) -> str:
    """The text a reader sees: escapes resolved, entities decoded, the invisible word joiner dropped."""
    return html.unescape(re.sub(r"\\(.)", r"\1", markdown)).replace("\u2060", "")


@pytest.mark.parametrize("text", ["see http://evil.example/x.png now", "HTTPS://evil.example", "www.evil.example",
                                  "write to me@evil.example", "(http://evil.example)"])
def test_bare_addresses_stay_text(text):
    # GFM turns a bare address into a link after the escapes are resolved, so escaping alone is not enough.
    escaped = escape_markdown(text)
    assert live_markup(escaped) == [] and shown(escaped) == text


@pytest.mark.parametrize("url", ["javascript:alert(1)", "data:text/html,<b>x</b>", "//evil.example/x", "wiki/X"])
def test_only_an_http_address_becomes_a_link(url):
    assert markdown_link("Read (this)", url) == "Read \\(this\\)"


def test_a_link_whose_address_tries_to_break_out_stays_one_link():
    link = markdown_link("X", "https://en.wikipedia.org/wiki/X)![u](http://evil.example/u.png)<img/src=x>")
    assert live_markup(link) == [] and link.count("](") == 1


@pytest.mark.parametrize("text", ["    Indented title", "\tTabbed title", "Lead\n\n    indented line",
                                  "```\nfenced\n```", "~~~\nfenced"])
def test_a_title_or_lead_never_becomes_a_code_block(text):
    """Issue #25 item 10: four leading spaces or a tab made a title a code block."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(escape_markdown(text))
    assert not [t.type for t in tokens if t.type in ("code_block", "fence")]
    rendered = MarkdownIt("commonmark").render(escape_markdown(text))
    assert html.unescape(re.sub("<[^>]+>", "", rendered)).replace("\u2060", "").split() == text.split()


_PLAIN_TOKENS = {"paragraph_open", "paragraph_close", "inline", "text", "softbreak", "hardbreak"}
_STARTS = ["", " ", "   ", "    ", "\t", "\n", "\n\n"]
_MARKS = [*"\\`*_{}[]<>()#+-.!|$~:=&\"'", "1.", "1)", "***", "---", "===", "```", "~~~", "<b>", "<!--",
          "[x](javascript:alert(1))", "](", "![i](x)", "&amp;", "&#96;", "a|b\n-|-", "[x]: http://e.example",
          "<http://e.example>", "\\\n", "$$x$$", ":red[x]", ":material/home:"]
_ENDS = ["", " x", "\n===", "\n---", "\n    y", "\n> q", "\n- item"]


def test_no_title_or_lead_renders_as_anything_but_its_text():
    """Issue #25 item 10, as a class: every Markdown-significant mark, at the start of a line, after up to a tab of
    indent, and followed by a setext underline, an indented line, a quote or a list item, stays a paragraph of text
    (a title followed by a line of "=" became a heading)."""
    from markdown_it import MarkdownIt

    renderer = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    rendered_as_markup = []
    for start in _STARTS:
        for mark in _MARKS:
            for end in _ENDS:
                text = f"{start}{mark}{end}"
                tokens = renderer.parse(escape_markdown(text))
                kinds = {t.type for block in tokens for t in [block, *(block.children or [])]} - _PLAIN_TOKENS
                if kinds:
                    rendered_as_markup.append((text, sorted(kinds)))
    assert rendered_as_markup == []
