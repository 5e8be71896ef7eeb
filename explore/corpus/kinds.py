"""What kind of thing an article is, read off the head of its short description ("1968 film by …" → film).

The vocabulary is data (assets/aspects/kinds.json): a head maps by its longest known suffix of words, so "Edible
berry" → fruit and "Woodwind instrument" → musical instrument. "X of Y" is tried as a phrase first ("Unit of area"),
then a head that says nothing alone ("Species of venomous snake", "Branch of mathematics") is read through its
complement, else its own kind. Precision first: a head no table knows gives no label.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

from explore.corpus.vital_aspects import TABLES_DIR, WORD, WORD_DASH, longest_suffix
from explore.errors import AspectNavError

KINDS_FILE = "kinds.json"
MAX_PHRASE_WORDS = 5  # of an "X of Y" phrase tried whole
# Nouns in -ing: a participle after the head starts what qualifies it ("Establishment | serving …"), these do not.
ING_NOUNS = (r"(?:building|painting|drawing|string|king|ring|wing|thing|clothing|spring|engraving|printing|writing|"
             r"recording|meeting|being|offering|setting|ceiling|housing|wedding|pudding|dumpling|sibling|herring|"
             r"viking|uprising|bombing|landing|shooting|killing|uprising|beginning|teaching|learning|reasoning)\b")
# Where a description's head ends ("Film | directed by", "Genus | of birds"); "of" is read apart, below.
HEAD_END = re.compile(r"\s+(?:in|for|that|which|who|whose|used|from|by|with|between|on|at|to|during|where|made|"
                      r"found|based|characterized|characterised|consisting|involving|concerning|about|describing|"
                      r"produced|native|caused|associated|known|originating|spoken|composed|designed|involved|"
                      r"related|named|set|written|directed|developed|created|built|located|first|proved|against|"
                      r"around|near|under|over|since|until|after|before|as|into|within|like|than)\s+|(?<=\w)\s+(?!" + ING_NOUNS + r")(?=\w+ing\s+\w)|[,;:(]|\s[–—-]\s")
PARTS = re.compile(r"\s+and\s+|\s+or\s+|\s*&\s*|\s*/\s*")
LEADING_DATE = re.compile(r"^\s*(?:c\.\s*)?\d[\d–\-/s]*\s*(?:BCE|BC|CE|AD)?\s+|^\s*\d{1,2}(?:st|nd|rd|th)[- ]centur\S*\s+",
                          re.I)


@dataclass(frozen=True)
class KindTable:
    """The vocabulary: phrase (lower-case words) → kind, and the heads read through their complement."""

    phrases: dict[tuple[str, ...], str]
    relational: dict[tuple[str, ...], str | None]


def _words(text: str) -> list[str]:
    return [w.lower().rstrip(".") for w in WORD.findall(WORD_DASH.sub("-", text))]


def _singular(word: str) -> list[str]:
    """A plural head's singular forms, most likely first ("berries" → berry, "fishes" → fish, "birds" → bird)."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return []
    forms = []
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    forms.append(word[:-1])
    return forms


@cache
def kind_table() -> KindTable:
    """Read kinds.json once; a phrase listed under two kinds is an error in the table, named."""
    path = TABLES_DIR / KINDS_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    phrases: dict[tuple[str, ...], str] = {}
    for kind, heads in data["labels"].items():
        for head in heads:
            key = tuple(_words(head))
            if key in phrases and phrases[key] != kind:
                raise AspectNavError(f"{path}: {head!r} is listed under both {phrases[key]!r} and {kind!r}")
            phrases[key] = kind
    relational = {tuple(_words(head)): kind for head, kind in data["relational"].items()}
    return KindTable(phrases=phrases, relational=relational)


def _longest_suffix(words: list[str], table: dict) -> str | None:
    return longest_suffix(words, table, _singular)


def _head_and_complement(description: str) -> tuple[str, str]:
    """'Species of venomous snake' → ('Species', 'venomous snake'); no 'of' → (head, '')."""
    text = LEADING_DATE.sub("", description.strip())
    head = HEAD_END.split(text, maxsplit=1)[0]
    before, of, after = head.partition(" of ")
    if not of:
        return head, ""
    return before, after


def kind_of(description: str) -> list[str]:
    """The kind of a non-person, non-place article from its short description; [] where no table knows its head."""
    if not description or not description.strip():
        return []
    table = kind_table()
    head, complement = _head_and_complement(description)
    for part in PARTS.split(head):
        words = _words(part)
        if not words:
            continue
        if complement:
            phrase = words + ["of"] + _words(complement)[:2]
            for size in range(len(phrase), len(words), -1):  # "unit of area", "state of matter", "work of art"
                for start in range(max(0, len(words) - MAX_PHRASE_WORDS), len(words)):  # the head's word included
                    kind = table.phrases.get(tuple(phrase[start:size]))
                    if kind:
                        return [kind]
            if _relational_head(words, table) is not None:
                inner = _complement_kind(complement, table)
                own = table.relational[_relational_head(words, table)]
                return [inner or own] if (inner or own) else []
        kind = _longest_suffix(words, table.phrases)
        if kind:
            return [kind]
        if complement:
            break  # "Art and technique of …": only the first part is the head
    return []


def _relational_head(words: list[str], table: KindTable) -> tuple[str, ...] | None:
    """The key of `table.relational` the head ends in ("Large language family" → family), or None."""
    for form in [words[-1]] + _singular(words[-1]):
        if (form,) in table.relational:
            return (form,)
    return None


def _complement_kind(complement: str, table: KindTable) -> str | None:
    """The kind the words after a relational head's 'of' name ('venomous snake' → reptile), first part only."""
    first = PARTS.split(HEAD_END.split(complement, maxsplit=1)[0], maxsplit=1)[0]
    inner_head, _, _ = first.partition(" of ")
    return _longest_suffix(_words(inner_head), table.phrases)
