"""What text shown by the app would turn into in the browser: images, links, raw HTML and bare addresses
in Markdown (parsed with markdown-it as CommonMark, plus GFM's rule that links bare addresses after
escapes are resolved), and tags in plotly's HTML-like labels. The page tests use it on AppTest's elements.
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from markdown_it import MarkdownIt

_MARKDOWN = MarkdownIt("commonmark")
# remark-gfm's autolink literals (Streamlit's Markdown), matched on text with its escapes resolved.
_BARE_ADDRESS = re.compile(r"(?i)(?:https?://|www\.)[-.\w]+|[-.\w+]+@[-\w]+(?:\.[-\w]+)+")
_TAG = re.compile(r"<\s*/?\s*([A-Za-z]+)([^>]*)>")
_PLOTLY_TEXT_KEYS = {"name", "text", "hovertext", "hovertemplate", "x", "y", "ticktext"}
ARTICLE_HOST = "en.wikipedia.org"  # the one place the corpora the tests build link to


def live_markup(markdown: str) -> list[str]:
    """Each image, raw HTML, bare address and link (other than a link to an article) in `markdown`."""
    found = []
    for block in _MARKDOWN.parse(markdown):
        for token in [block, *(block.children or [])]:
            if token.type == "image":
                found.append(f"image {token.attrs['src']}")
            elif token.type == "link_open" and urlsplit(str(token.attrs["href"])).hostname != ARTICLE_HOST:
                found.append(f"link {token.attrs['href']}")
            elif token.type in ("html_inline", "html_block"):
                found.append(f"html {token.content.strip()}")
            elif token.type == "text":
                found.extend(f"bare address {match.group()}" for match in _BARE_ADDRESS.finditer(token.content))
    return found


def code_spans(markdown: str) -> list[str]:
    """The text of each inline code span in `markdown`."""
    return [token.content for block in _MARKDOWN.parse(markdown) for token in block.children or []
            if token.type == "code_inline"]


def shown_markdown(at) -> list[str]:
    """Every Markdown string an AppTest run shows: text elements, alerts, button labels and tooltips,
    radio options and page links (selectbox options are plain text, so they are left out)."""
    texts = [element.value for kind in ("markdown", "caption", "title", "header", "subheader", "warning", "info",
                                        "error", "success") for element in getattr(at, kind)]
    texts += [text for button in at.button for text in (button.label, button.help) if text]
    texts += [option for radio in at.radio for option in radio.options]
    texts += [link.proto.label for link in at.get("page_link")]
    return texts


def live_in_app(at) -> list[str]:
    return [f"{live} in {text!r}" for text in shown_markdown(at) for live in live_markup(text)]


def live_in_figure(figure: dict) -> list[str]:
    """Tags other than a bare <b> or <br> in the text of a plotly figure (plotly renders <a href>,
    <span style> and more in names, hover text, tick labels and titles)."""
    found = []

    def walk(value, key=None):
        if isinstance(value, dict):
            for child_key, child in value.items():
                walk(child, child_key)
        elif isinstance(value, list):
            for child in value:
                walk(child, key)
        elif isinstance(value, str) and key in _PLOTLY_TEXT_KEYS:
            found.extend(tag.group() for tag in _TAG.finditer(value)
                         if tag.group(1).lower() not in ("b", "br") or tag.group(2).strip(" /"))

    walk(figure)
    return found


def live_in_charts(at) -> list[str]:
    """Live markup in every plotly figure of a page: st.plotly_chart's and the maps' (app_views/map_chart)."""
    from tests.app_pages.conftest import map_figures

    figures = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")] + map_figures(at)
    return [live for figure in figures for live in live_in_figure(figure)]


# What app_views/bar_chart.py, html_table.py, html_text.py and count_row.py write: any other tag or attribute in an st.html
# fragment came from the data.
_BAR_TAGS = {"style", "figure", "figcaption", "div", "span", "table", "thead", "tbody", "tr", "th", "td", "a",
             "strong", "em", "code", "abbr", "p", "h3"}
_BAR_ATTRIBUTES = {"class", "style", "scope", "title", "href", "aria-hidden", "aria-label"}


def live_in_html(fragment: str) -> list[str]:
    """Tags and attributes of an HTML fragment other than those the app writes itself (bar charts, tables, headings,
    captions), and links that leave the app."""
    from html.parser import HTMLParser

    found = []

    class Reader(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag not in _BAR_TAGS:
                found.append(f"tag <{tag}>")
            for name, value in attrs:
                if name not in _BAR_ATTRIBUTES:
                    found.append(f"attribute {name}={value!r} on <{tag}>")
                elif name == "href" and (urlsplit(value or "").scheme or urlsplit(value or "").netloc):
                    found.append(f"link {value}")
                elif name == "style" and tag != "style" and re.search(r"url\(|expression|@import", value or "", re.I):
                    found.append(f"style {value}")

    Reader().feed(fragment)
    return found


def html_text(fragment: str) -> str:
    """The text a reader sees (or a screen reader reads) in an HTML fragment: its style left out, one space between
    elements."""
    from html.parser import HTMLParser

    parts = []

    class Reader(HTMLParser):
        styled = False

        def handle_starttag(self, tag, attrs):
            self.styled = tag == "style"

        def handle_endtag(self, tag):
            self.styled = False
            parts.append(" ")

        def handle_data(self, data):
            if not self.styled:
                parts.append(data)

    Reader().feed(fragment)
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def live_in_html_elements(at) -> list[str]:
    return [live for element in at.get("html") for live in live_in_html(element.proto.body)]


def html_table_cells(fragment: str) -> list[tuple[str, str]]:
    """Each header and cell of the tables in an HTML fragment (app_views/html_table.py, not a bar chart's rows), in
    order, as (text, how it is set: "th", "td", "strong", "em" or "code" for the innermost markup)."""
    import re
    from html.parser import HTMLParser

    cells: list[list[str]] = []

    class Reader(HTMLParser):
        inside = False

        def handle_starttag(self, tag, attrs):
            if tag == "table":
                self.inside = "an-table" in (dict(attrs).get("class") or "").split()
            elif tag in ("th", "td") and self.inside:
                cells.append(["", tag])
            elif tag in ("strong", "em", "code") and cells and self.inside:
                cells[-1][1] = tag

        def handle_endtag(self, tag):
            if tag == "table":
                self.inside = False

        def handle_data(self, data):
            if cells and self.inside:
                cells[-1][0] += data

    Reader().feed(re.sub(r"<style>.*?</style>", "", fragment, flags=re.S))
    return [(text, how) for text, how in cells]
