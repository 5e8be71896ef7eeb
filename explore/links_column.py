"""The links column: the seed's links worth clicking, best first (issue #12, point 5).

Stored links have two problems a reader sees:
- mention links (titles found in a lead) catch common words: "her husband" links *Husband*, "joint
  researches" links *Joint* (the anatomy). A one-word title the lead writes only in lower case
  (`named_only_as_common_word`) is hidden unless the lead is about it: unless the article is among
  the seed's nearest `NEAR_SHARE` of the corpus in the generic space. A title the corpus writes
  mostly as a common word (the build's `common_word_titles`: *Second*, *Area*, *History*) that the
  lead writes only in lower case or inside a longer name ("the Second World War", "Greater Tokyo
  Area") is hidden unless among the seed's nearest `COMMON_NEAR_SHARE` (*World War II* is near
  *History* in the generic space, but no lead is about history by saying "deadliest in history"),
  and always when the lead writes it only inside longer names (its "War" is the Second World War's).
- a nickname or a name holding the title ("Light" of "the City of Light", "Father" of "the Father of His
  Country", "War" of "World War II") mentions a longer name, not the title: such a link
  (`named_only_within_names`) whose title is a common word, or that is not among the seed's nearest tenth, is
  ranked last, after every link the lead names on its own ("China" of "the People's Republic of China" keeps its
  place for *Zhou Enlai*: not a common word, and near).
- stored links carry no reading order: mentions come in text order, Wikipedia's API lists links
  alphabetically, a JSONL file in whatever order it was written. They are ordered by generic
  similarity to the seed, unless the corpus's provenance declares them ranked
  (`details["link_order"] = "ranked"`).

Links are filtered when served, never rewritten: the stored corpus, its content hash and the spaces
built on it stay as they are. Without a generic space, links are served as stored.
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explore.corpus.mention_links import (COMMON_WORDS_DETAIL, _tokens, named_only_as_common_word, named_only_in_passing,
                                         named_only_inside_longer_names)
from explore.corpus.model import Article, Corpus

# "The lead is about it": the linked article is among the seed's nearest tenth of the corpus. A share,
# not a count, so the rule means the same in a corpus of 2,000 or 200,000 articles; below
# MIN_NEAR articles nothing is hidden (too few to tell near from far).
NEAR_SHARE = 0.10
MIN_NEAR = 50
# A common word mentioned in passing stays only when the lead is closely about it (its nearest hundredth).
COMMON_NEAR_SHARE = 0.01
RANKED = "ranked"


@dataclass(frozen=True)
class SeedLinks:
    """The links to show, best first; the mentions hidden as common words; whether similarity ordered them.
    Tuples: the engine caches one per seed and hands it to every caller."""

    ids: tuple[str, ...]
    hidden: tuple[str, ...] = ()
    by_similarity: bool = False


def links_are_ranked(corpus: Corpus) -> bool:
    """Whether the corpus says its links come in a meaningful order (its provenance's `link_order`)."""
    return corpus.provenance.details.get("link_order") == RANKED


@lru_cache(maxsize=8)
def _common_words(listed: str) -> frozenset[str]:
    return frozenset(json.loads(listed))


def common_words(corpus: Corpus) -> frozenset[str]:
    """The one-word titles the corpus's build found to be mostly common words (none if it did not say)."""
    return _common_words(corpus.provenance.details.get(COMMON_WORDS_DETAIL, "[]"))


def seed_links(corpus: Corpus, article: Article, similarities: "np.ndarray | Mapping[int, float] | None") -> SeedLinks:
    """`article`'s links in the corpus (itself and repeats aside), common-word mentions hidden and
    the rest ordered by `similarities` (the seed's generic cosine to every corpus row; None: as stored). Hyperlinks
    hide nothing, so for them the cosines of the linked rows alone will do (a mapping row → cosine): no pass over
    every row."""
    ids = [i for i in dict.fromkeys(article.links) if i in corpus and i != article.id]
    if similarities is None:
        return SeedLinks(tuple(ids))
    position = corpus.position
    hidden = []
    mentions = corpus.provenance.links == "mentions"
    near = max(MIN_NEAR, math.ceil(NEAR_SHARE * len(corpus)))
    near_at = np.partition(similarities, -near)[-near] if mentions and near < len(corpus) else -np.inf
    if mentions and near < len(corpus):
        threshold = np.partition(similarities, -near)[-near]
        closely = max(MIN_NEAR, math.ceil(COMMON_NEAR_SHARE * len(corpus)))
        close_threshold = np.partition(similarities, -closely)[-closely]
        common = common_words(corpus)

        def in_passing(i: str) -> bool:
            title, similarity = corpus[i].title, similarities[position[i]]
            if title in common and named_only_inside_longer_names(title, article.text):
                return True  # "Second" of "the Second World War" is no mention of the unit of time
            return (similarity < threshold and named_only_as_common_word(title, article.text)) or (
                similarity < close_threshold and title in common and named_only_in_passing(title, article.text))
        hidden = [i for i in ids if in_passing(i)]
    kept = [i for i in ids if i not in hidden]
    if links_are_ranked(corpus):
        return SeedLinks(tuple(kept), tuple(hidden), False)
    within = {i for i in kept if mentions and named_only_within_names(
        corpus[i].title, article.text) and (corpus[i].title in common_words(corpus) or similarities[position[i]] < near_at)}
    order = sorted(kept, key=lambda i: (i in within, -similarities[position[i]]))
    return SeedLinks(tuple(order), tuple(hidden), True)


# Small words that join the parts of a name ("Father of His Country", "City of Light", "Gulf of Mexico").
NAME_JOINERS = frozenset({"of", "the", "and", "de", "del", "la", "von", "van", "du"})
SENTENCE_ENDS = frozenset(".!?:;")


def _inside_a_name(tokens: list[str], index: int) -> bool:
    """Whether tokens[index] is part of a longer capitalised name: a capitalised word beside it, or one across a
    joining word ("City of Light", "Father of His Country", "a Founding Father")."""
    def capitalised(at: int) -> bool:
        return 0 <= at < len(tokens) and tokens[at][:1].isupper()

    def opens(at: int) -> bool:  # tokens[at] begins a sentence: its capital says nothing (a quotation's does)
        return at == 0 or tokens[at - 1] in SENTENCE_ENDS

    after = capitalised(index + 1) or (index + 2 < len(tokens) and tokens[index + 1] in NAME_JOINERS
                                       and capitalised(index + 2))
    before = not opens(index) and ((capitalised(index - 1) and not opens(index - 1)) or
                                   (index >= 2 and tokens[index - 1] in NAME_JOINERS and capitalised(index - 2)
                                    and not opens(index - 2)))
    return after or before


def named_only_within_names(title: str, text: str) -> bool:
    """Whether `text` writes the one-word `title` as a name only inside longer names: a nickname ("the City of
    Light", "the Father of His Country") or a name holding it ("World War II"); lower case it may write it too,
    as the common word. The mention is of the longer name, not of the article the title is."""
    if len(_tokens(title)) != 1:
        return False
    tokens = _tokens(text)
    named = [index for index, token in enumerate(tokens) if token == title]
    return bool(named) and all(_inside_a_name(tokens, index) for index in named)


def links_description(corpus: Corpus, by_similarity: bool) -> str:
    """What the links column is, in one sentence a new reader understands."""
    what = ("Titles mentioned in the lead: an approximation of the lead's hyperlinks"
            if corpus.provenance.links == "mentions" else "The articles this one links to")
    if by_similarity:
        return f"{what}, ordered by similarity to the seed."
    return f"{what}, in the source's order." if not links_are_ranked(corpus) else f"{what}, in the source's ranking."


def hidden_note(corpus: Corpus, hidden: tuple[str, ...]) -> str:
    """Plain text naming the hidden common-word mentions (the caller escapes it)."""
    if not hidden:
        return ""
    words = ", ".join(corpus[i].title.lower() for i in hidden)
    return f"Hidden (common words the lead is not about): {words}."
