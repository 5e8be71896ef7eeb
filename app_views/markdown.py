"""Text from a corpus or a URL, escaped once, here, for every page: as Streamlit Markdown (text, headings,
alerts, buttons, badges) and inside plotly's HTML-like labels (hover text, legend, ticks, titles)."""
from __future__ import annotations

import html
import re

from app_views.cards import Card
from explore.corpus.model import Article, Corpus, is_web_address

_SPECIAL = "\\`*_{}[]<>()#+-.!|$~:="  # "=" underlines a setext heading
# GFM turns a bare "http://…", "www.…" or "name@host.tld" into a link after the escapes are resolved;
# an invisible word joiner (U+2060) inside each keeps it text.
_BARE_ADDRESS = re.compile(r"(?i)https?(?=:)|www(?=\.)|@")
_WORD_JOINER = "\u2060"
_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)


def escape_markdown(text: str) -> str:
    """Text shown as Markdown: no formatting, links, images, HTML, LaTeX or colour directives."""
    text = _BARE_ADDRESS.sub(lambda match: match.group() + _WORD_JOINER, str(text))
    text = html.escape(text, quote=False)
    for char in _SPECIAL:
        text = text.replace(char, "\\" + char)
    # Four leading spaces or a tab start a code block: each line's indent is kept as character references.
    return _INDENT.sub(lambda m: m.group().replace(" ", "&#32;").replace("\t", "&#9;"), text)


def escape_html(text: str) -> str:
    """Text inside a plotly label, which renders <a href>, <span style> and other tags."""
    return html.escape(str(text), quote=False)


def code_span(text: str) -> str:
    """Inline code (nothing inside is Markdown) whose fence outlasts any backtick run in `text`."""
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_link(text: str, url: str) -> str:
    """A Markdown link whose text is escaped and whose address cannot end the link early; only an
    http(s) address becomes a link (anything else shows the text alone)."""
    if not is_web_address(url):
        return escape_markdown(text)
    address = url.replace("(", "%28").replace(")", "%29").replace("<", "%3C").replace(">", "%3E")
    return f"[{escape_markdown(text)}]({address})"


def map_hover(article: Article) -> str:
    """A map point's hover label: the title in bold, then one line of labels per aspect (an inferred one said so)."""
    lines = [f"{escape_html(name)}: {escape_html(', '.join(values))}"
             + (" (inferred)" if article.is_inferred(name) else "")
             for name, values in article.all_labels(inferred=True).items()]
    return "<br>".join([f"<b>{escape_html(article.title)}</b>", *lines])


def _badges(colour: str, labels: dict) -> list[str]:
    return [f":{colour}-badge[{escape_markdown(name)}: {escape_markdown(label)}]"
            for name, values in labels.items() for label in values]


def aspect_chips(article: Article) -> str:
    """Markdown badges, one per aspect label; an inferred label (a model's guess, not the source's) in grey and
    said so."""
    inferred = {name: labels for name, labels in article.inferred.items() if not article.aspects.get(name)}
    guessed = [badge[:-1] + " · inferred]" for badge in _badges("gray", inferred)]  # each badge ends with "]"
    return " ".join(_badges("blue", article.aspects) + guessed) or "_no aspect labels_"


def shared_chips(card: Card) -> str:
    """The labels a card shares with the seed, highlighted; nothing when it shares none. Highlighted
    text, not badges: a badge is cut to its column's width, text wraps."""
    return " ".join(f":green-background[{escape_markdown(name)}: {escape_markdown(label)}]"
                    for name, values in card.shared.items() for label in values)


def link_caption(corpus: Corpus) -> str:
    """What the corpus's links are, in words (mentions only approximate the lead's hyperlinks)."""
    return {
        "mentions": "Mentioned articles (approximation of the lead's hyperlinks: titles found in the text)",
        "hyperlinks": "Linked articles",
    }.get(corpus.provenance.links, "Links")
