"""Text from a corpus or a URL shown as Streamlit Markdown: escaped once, here, for every page."""
from __future__ import annotations

import html

from app_views.cards import Card
from explore.corpus.model import Article, Corpus

_SPECIAL = "\\`*_{}[]<>()#+-.!|$~:"


def escape_markdown(text: str) -> str:
    """Text shown as Markdown: no accidental formatting, links, LaTeX or colour directives."""
    text = html.escape(str(text), quote=False)
    for char in _SPECIAL:
        text = text.replace(char, "\\" + char)
    return text


def markdown_link(text: str, url: str) -> str:
    """A Markdown link whose text is escaped and whose address cannot end the link early."""
    address = url.replace(" ", "%20").replace("(", "%28").replace(")", "%29").replace("<", "%3C").replace(">", "%3E")
    return f"[{escape_markdown(text)}]({address})"


def _badges(colour: str, labels: dict) -> list[str]:
    return [f":{colour}-badge[{escape_markdown(name)}: {escape_markdown(label)}]"
            for name, values in labels.items() for label in values]


def aspect_chips(article: Article) -> str:
    """Markdown badges, one per aspect label."""
    return " ".join(_badges("blue", article.aspects)) or "_no aspect labels_"


def shared_chips(card: Card) -> str:
    """The labels a card shares with the seed, highlighted; nothing when it shares none."""
    return " ".join(_badges("green", card.shared))


def link_caption(corpus: Corpus) -> str:
    """What the corpus's links are, in words (mentions only approximate the lead's hyperlinks)."""
    return {
        "mentions": "Mentioned articles (approximation of the lead's hyperlinks: titles found in the text)",
        "hyperlinks": "Linked articles",
    }.get(corpus.provenance.links, "Links")
