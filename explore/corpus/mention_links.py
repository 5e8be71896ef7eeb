"""Mention links: other corpus titles named in a lead, in order of first mention.

Leads without hyperlinks still name other articles. We approximate the lead's links by
matching titles, longest first, on word boundaries. Why these rules:
- exact case, so "Mercury" (planet) is not found in "mercury poisoning";
- the lower-cased form too for common-noun titles ("Theoretical physics" in "... theoretical
  physics ...") when multi-word or at least 5 letters, so "art" or "war" do not flood the links;
- "Hans Krebs (biochemist)" is found as "Hans Krebs" unless that base names several articles;
  a one-word base ("Capital (economics)") is too ambiguous and is never matched on its own;
- titles under 3 characters and the article itself are never linked.
The lower-cased match also finds common words ("her husband", "joint researches"):
`named_only_as_common_word` tells those apart, and explore/links_column.py hides the ones the lead is not about.
"""
from __future__ import annotations

import re
from typing import Iterable

_WORD = re.compile(r"\w+(?:['’.-]\w+)*|[^\w\s]", re.UNICODE)
_PAREN = re.compile(r"\s*\([^)]*\)$")
MAX_TITLE_TOKENS = 10
MIN_TITLE_CHARS = 3
MIN_LOWERCASE_SINGLE_WORD = 5


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text)


def _surface_forms(title: str) -> list[str]:
    base = _PAREN.sub("", title).strip()
    if base != title:
        return [title, base] if " " in base else [title]
    forms = [title]
    lowered = title[:1].lower() + title[1:]
    if title[1:] == title[1:].lower() and lowered != title and (" " in title or len(title) >= MIN_LOWERCASE_SINGLE_WORD):
        forms.append(lowered)
    return [f for f in forms if len(f) >= MIN_TITLE_CHARS]


def build_title_index(titles: Iterable[tuple[str, str]]) -> dict[tuple[str, ...], str]:
    """Map token tuples of each unambiguous surface form to its article id."""
    claims: dict[tuple[str, ...], set[str]] = {}
    exact: dict[tuple[str, ...], str] = {}
    for article_id, title in titles:
        for i, form in enumerate(_surface_forms(title)):
            key = tuple(_tokens(form))
            if 0 < len(key) <= MAX_TITLE_TOKENS:
                claims.setdefault(key, set()).add(article_id)
                if i == 0:
                    exact[key] = article_id
    index = {}
    for key, ids in claims.items():
        if key in exact:
            index[key] = exact[key]  # a full title always wins over another's short form
        elif len(ids) == 1:
            index[key] = next(iter(ids))
    return index


def mention_links(text: str, self_id: str, index: dict[tuple[str, ...], str]) -> list[str]:
    """Ids of titles mentioned in `text`, longest match first, in order of first mention."""
    tokens = _tokens(text)
    found: dict[str, None] = {}
    position = 0
    while position < len(tokens):
        for length in range(min(MAX_TITLE_TOKENS, len(tokens) - position), 0, -1):
            article_id = index.get(tuple(tokens[position : position + length]))
            if article_id is not None:
                if article_id != self_id:
                    found.setdefault(article_id)
                position += length
                break
        else:
            position += 1
    return list(found)


def named_only_as_common_word(title: str, text: str) -> bool:
    """Whether `text` mentions the one-word `title` only in lower case ("her husband", "the nature of"):
    running text writes it as a common noun, never as the name the title is, so the mention may mean
    any sense of the word. Names ("Physics" in "Nobel Prize in Physics") and multi-word titles are kept."""
    title_tokens = _tokens(title)
    if len(title_tokens) != 1 or title_tokens[0].lower() == title_tokens[0]:
        return False
    (word,) = title_tokens
    tokens = set(_tokens(text))
    return word not in tokens and (word[:1].lower() + word[1:]) in tokens
