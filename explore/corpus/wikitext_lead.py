"""A page's wikitext read for what a corpus keeps: its lead as plain text (the text before the first section
heading, without templates, references, files, categories or markup) and the titles its wikilinks point to. Parsed
by mwparserfromhell, which knows wikitext's nesting (a link inside an infobox inside a reference) as a regular
expression cannot."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

import mwparserfromhell
from mwparserfromhell.nodes import (Argument, Comment, ExternalLink, Heading, HTMLEntity, Node, Tag, Template, Text,
                                    Wikilink)
from mwparserfromhell.wikicode import Wikicode

# Namespaces whose links are never article text or article links, whatever the wiki's language; a dump's siteinfo
# adds its own names (Datei, Kategorie, ...).
DEFAULT_NAMESPACES = frozenset({"file", "image", "media", "category", "template", "help", "wikipedia", "portal",
                                "special", "talk", "user", "draft", "module", "mediawiki"})
_INTERWIKI = re.compile(r"[a-z][a-z-]{0,11}")  # [[fr:Paris]], [[wikt:lead]]: written lower case, no spaces
_DROPPED_TAGS = frozenset({"ref", "references", "gallery", "table", "math", "score", "timeline", "imagemap",
                           "syntaxhighlight", "source", "templatedata", "graph", "mapframe", "noinclude"})
_BREAK_TAGS = frozenset({"br", "hr", "p", "div", "li"})
# Inline templates whose words belong to the sentence ({{lang|fr|Paris}}, {{convert|105|km2}}); every other
# template (infoboxes, hatnotes, citations, pronunciations) is left out of the lead.
_WORDS_OF = {"lang": lambda t: _positional(t, -1), "nowrap": lambda t: _positional(t, 0),
             "nobr": lambda t: _positional(t, 0), "convert": lambda t: " ".join(_positional_all(t)[:2]),
             "cvt": lambda t: " ".join(_positional_all(t)[:2])}
_STYLE = re.compile(r"'{2,}")
_SWITCH = re.compile(r"__[A-Z]+__")
_SPACE = re.compile(r"\s+")
_SPACE_BEFORE = re.compile(r"\s+([,.;:!?)\]])")
_SPACE_AFTER = re.compile(r"([(\[])\s+")
_EMPTY_BRACKETS = re.compile(r"\(\s*[,;:]?\s*\)|\[\s*\]")


@dataclass(frozen=True)
class LeadAndLinks:
    lead: str  # plain text, one line, "" when the page has no text before its first heading
    links: tuple[str, ...]  # link targets in page order, first mention, as written (section and ":" prefix removed)


def lead_and_links(wikitext: str, namespaces: frozenset[str] = DEFAULT_NAMESPACES) -> LeadAndLinks:
    """The lead and the article links of a page of wikitext; `namespaces` are the names (lower case) whose links
    are not articles."""
    code = mwparserfromhell.parse(wikitext, skip_style_tags=True)  # '' and ''' stay text, removed below
    lead_nodes: list[Node] = []
    for node in code.nodes:
        if isinstance(node, Heading):
            break
        lead_nodes.append(node)
    lead = _tidy("".join(_plain(node, namespaces) for node in lead_nodes))
    links = (_link_target(link, namespaces) for link in code.filter_wikilinks())
    return LeadAndLinks(lead, tuple(dict.fromkeys(link for link in links if link)))


def is_redirect_text(wikitext: str) -> bool:
    """An old export without <redirect/> still says so in its text ("#REDIRECT [[Target]]")."""
    return wikitext.lstrip()[:9].upper() == "#REDIRECT"


def _plain(node: Node | Wikicode | None, namespaces: frozenset[str]) -> str:
    if node is None:
        return ""
    if isinstance(node, Wikicode):
        return "".join(_plain(child, namespaces) for child in node.nodes)
    if isinstance(node, Text):
        return str(node.value)
    if isinstance(node, HTMLEntity):
        return node.normalize()
    if isinstance(node, Wikilink):
        if _namespace_of(str(node.title), namespaces):
            return ""
        return _plain(node.text, namespaces) if node.text is not None else str(node.title).lstrip(":").split("#")[0]
    if isinstance(node, ExternalLink):
        return _plain(node.title, namespaces) if node.title is not None else ""
    if isinstance(node, Template):
        words = _WORDS_OF.get(str(node.name).strip().lower())
        return words(node) if words else ""
    if isinstance(node, Tag):
        name = str(node.tag).strip().lower()
        if name in _DROPPED_TAGS:
            return ""
        if name in _BREAK_TAGS and node.contents is None:
            return " "
        return _plain(node.contents, namespaces) + (" " if name in _BREAK_TAGS else "")
    if isinstance(node, (Comment, Argument, Heading)):
        return ""
    return str(node)


def _positional_all(template: Template) -> list[str]:
    return [str(param.value).strip() for param in template.params if not param.showkey]


def _positional(template: Template, index: int) -> str:
    values = _positional_all(template)
    return values[index] if values and -len(values) <= index < len(values) else ""


def _namespace_of(title: str, namespaces: frozenset[str]) -> bool:
    """True when `title` names a page outside the articles: File:, Category:, ... or another wiki ([[fr:Paris]])."""
    prefix, colon, _ = title.strip().lstrip(":").partition(":")
    if not colon:
        return False
    return prefix.strip().lower().replace("_", " ") in namespaces or bool(_INTERWIKI.fullmatch(prefix))


def _link_target(link: Wikilink, namespaces: frozenset[str]) -> str:
    title = html.unescape(str(link.title)).strip()
    if not title or title.startswith("#") or _namespace_of(title, namespaces) or "{" in title:
        return ""
    return title.lstrip(":").split("#", 1)[0].strip()


def _tidy(text: str) -> str:
    """One line of prose: markup leftovers out, no space before punctuation, no brackets emptied by a removed
    template (a pronunciation, a reference)."""
    text = _SWITCH.sub("", _STYLE.sub("", text))
    text = _SPACE.sub(" ", text)
    text = _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", text))
    text = _EMPTY_BRACKETS.sub("", text)
    return _SPACE_BEFORE.sub(r"\1", _SPACE.sub(" ", text)).strip()
