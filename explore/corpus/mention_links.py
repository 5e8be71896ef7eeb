"""Mention links: other corpus titles named in a lead, in order of first mention.

Leads without hyperlinks still name other articles. We approximate the lead's links by
matching titles, longest first, on word boundaries. Why these rules:
- exact case, so "Mercury" (planet) is not found in "mercury poisoning";
- the lower-cased form too for common-noun titles ("Theoretical physics" in "... theoretical
  physics ...") when multi-word or at least 5 letters, so "art" or "war" do not flood the links;
- "Hans Krebs (biochemist)" is found as "Hans Krebs" unless that base names several articles;
  a one-word base ("Capital (economics)") is too ambiguous and is never matched on its own;
- titles under 3 characters and the article itself are never linked.
The lower-cased match also finds common words ("her husband", "joint researches"), and the exact-case match
finds a common word inside a longer name ("Second" in "the Second World War", "Area" in "Greater Tokyo
Area"): `named_only_as_common_word` and `named_only_in_passing` tell those apart, `common_word_titles` says
which one-word titles the corpus writes mostly as common words, and explore/links_column.py hides the
mentions the lead is not about.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

_WORD = re.compile(r"\w+(?:['’.-]\w+)*|[^\w\s]", re.UNICODE)
_PAREN = re.compile(r"\s*\([^)]*\)$")
MAX_TITLE_TOKENS = 10
MIN_TITLE_CHARS = 3
MIN_LOWERCASE_SINGLE_WORD = 5
# A one-word title is a common word when the corpus writes it in lower case at least this share of the
# times it writes it on its own mid-sentence ("second" 80%, "history" 97%; "Japan" 0%, "Earth" 12%).
COMMON_WORD_SHARE = 0.5
# Where a mention corpus's provenance details keep its `common_word_titles` (a JSON list), for the links column.
COMMON_WORDS_DETAIL = "common_word_titles"
_SENTENCE_OPENERS = frozenset('.!?:;"“(')


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


def _on_its_own(tokens: list[str], index: int) -> bool:
    """Whether tokens[index] has no capitalised word beside it in its sentence (not part of a longer name)."""
    def capitalised(at: int) -> bool:
        return 0 <= at < len(tokens) and tokens[at][:1].isupper()
    opens_sentence = index == 0 or tokens[index - 1] in _SENTENCE_OPENERS
    return not capitalised(index + 1) and (opens_sentence or not capitalised(index - 1))


def _mid_sentence(tokens: list[str], index: int) -> bool:
    return index > 0 and tokens[index - 1] not in _SENTENCE_OPENERS


def common_word_titles(titles: Iterable[str], texts: Iterable[str]) -> list[str]:
    """The one-word titles ("Second", "Area", "History") that the texts write in lower case at least
    COMMON_WORD_SHARE of the times they write them on their own mid-sentence: the word is mostly
    a common word, and a capitalised mention of it is mostly part of some longer name."""
    words = {title for title in titles if len(_tokens(title)) == 1 and title[:1].isupper() and title[1:].islower()}
    lower_case = {word.lower(): word for word in words}
    as_word, as_name = Counter(), Counter()
    for text in texts:
        tokens = _tokens(text)
        for index, token in enumerate(tokens):
            if token in lower_case:
                as_word[lower_case[token]] += 1
            elif token in words and _mid_sentence(tokens, index) and _on_its_own(tokens, index):
                as_name[token] += 1
    return sorted(word for word in words if as_word[word] and
                  as_word[word] >= COMMON_WORD_SHARE * (as_word[word] + as_name[word]))


def named_only_in_passing(title: str, text: str) -> bool:
    """Whether `text` never writes the one-word `title` on its own as a name: only in lower case or only
    inside a longer capitalised name ("the Second World War", "the Greater Tokyo Area")."""
    title_tokens = _tokens(title)
    if len(title_tokens) != 1:
        return False
    tokens = _tokens(text)
    return not any(token == title and _on_its_own(tokens, index) for index, token in enumerate(tokens))


def named_only_inside_longer_names(title: str, text: str) -> bool:
    """Whether `text` writes the one-word `title` only inside longer capitalised names ("the Second World
    War" for *Second*, "Greater Tokyo Area" for *Area*): the mention is of those names, not of the title."""
    tokens = _tokens(title)
    return (len(tokens) == 1 and title in _tokens(text) and named_only_in_passing(title, text)
            and not named_only_as_common_word(title, text) and title.lower() not in _tokens(text))
