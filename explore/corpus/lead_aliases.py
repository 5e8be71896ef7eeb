"""Aliases from a lead's first sentence: the other names it gives its subject before saying what it is.

"World War II, or the Second World War, was…" → Second World War; "The United States of America
(USA), also known as the United States (U.S.) or America, is…" → United States of America, USA, U.S.,
America; "Mohandas Karamchand Gandhi was…" (the lead of *Mahatma Gandhi*) → Mohandas Karamchand Gandhi.
Rules, general to any lead:
- only the subject, the text before the first "is/was/are/were" outside brackets, is read; a leading
  context ("In mathematics, an algebraic number field is…") is skipped up to the title;
- the subject is split at commas, "or" and brackets; a name's connective ("also known as", "officially
  the", "better known by his nickname") is dropped;
- a name in lower case ("eyeglasses") counts only after a connective, so a bare list or "denoted" does not;
  a capitalised name's lower-case words are particles ("Edson Arantes do Nascimento"), not a phrase;
- a name has at most MAX_ALIAS_WORDS words and no digits (dates, opus numbers), and is not the title.
"""
from __future__ import annotations

import re

from explore.corpus.title_search import fold

MAX_SUBJECT_CHARS = 300
MAX_ALIAS_WORDS = 8
MAX_COMMON_ALIAS_WORDS = 3
_COPULA = re.compile(r"\s(?:is|was|are|were)\s")
# Words that open a context phrase before the subject ("In mathematics, ...", "During the war, ...").
_CONTEXT_START = re.compile(r"^(?:in|at|on|from|during|for|within|according|among|throughout|under|since)\b",
                            re.IGNORECASE)
# How a lead introduces another name: "or", "also known as", "officially the", "known professionally as",
# "better known by his nickname", "often simply referred to as", "baptised as", "born".
_CONNECTIVE = re.compile(
    r"^(?:(?:or|also|simply|often|commonly|usually|officially|formally|formerly|colloquially|sometimes|"
    r"originally|better|known|professionally|referred|to|by|his|her|its|their|nickname|name|stage|pen|called|"
    r"baptised|baptized|christened|born|née|as|in\s+the\s+[\w-]+\s+world)\s+)+")
# A lower-case name with one of these is a phrase ("fine wood in the United Kingdom"), not a name.
_GRAMMAR_WORD = re.compile(r"\b(?:in|of|and|the|for|to|from|by|as|with|at|on)\b")
# A full stop after a word, then a capital: the copula found is in a later sentence.
_SENTENCE_END = re.compile(r"\w{3,}\s?[.!?]\s+[A-Z]")
_DETERMINER = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_SPLIT = re.compile(r"(,\s*|\s+or\s+|;\s*)")
_QUOTES = re.compile(r"[\"“”]")


def _subject(lead: str) -> str:
    """The lead's first sentence up to its first copula outside brackets ("" if there is none there)."""
    head = lead[:MAX_SUBJECT_CHARS]
    for match in _COPULA.finditer(head):
        before = head[: match.start()]
        if before.count("(") <= before.count(")"):
            return "" if _SENTENCE_END.search(before) else before.strip()
    return ""


def _is_name(name: str, introduced: bool) -> bool:
    """A capitalised name, or after a connective a short common noun ("eyeglasses", "per cent")."""
    words = name.split()
    if not words or len(words) > MAX_ALIAS_WORDS or any(char.isdigit() for char in name) or ":" in name:
        return False
    if name[:1].isupper():  # a name's lower-case words are particles ("do", "de la", "of"), not "based on"
        return all(word[:1].isupper() or len(word) <= 3 or _GRAMMAR_WORD.fullmatch(word) for word in words)
    return introduced and len(words) <= MAX_COMMON_ALIAS_WORDS and not _GRAMMAR_WORD.search(name)


def lead_aliases(title: str, lead: str) -> tuple[str, ...]:
    """The other names the lead's first sentence gives its subject, in order, the title left out."""
    subject = _QUOTES.sub("", _subject(lead))
    if _CONTEXT_START.match(subject):
        at = fold(subject).find(fold(title))
        if at < 0:
            return ()
        subject = subject[_position_of_folded(subject, at):]
    brackets: list[str] = []

    def mark(match: re.Match) -> str:  # a bracket becomes a marker, so the split never cuts inside it
        brackets.append(match.group(1))
        return f" \x00{len(brackets) - 1}\x00 "

    marked = re.sub(r"\(([^()]*)\)", mark, subject)
    parts = _SPLIT.split(marked)
    names: dict[str, None] = {}
    own = {fold(title), fold(_DETERMINER.sub("", title))}  # "Nutcracker" is The Nutcracker's title, not an alias
    for number, (piece, separator) in enumerate(zip(parts[::2], [""] + parts[1::2])):
        inside = [brackets[int(index)] for index in re.findall(r"\x00(\d+)\x00", piece)]
        piece = re.sub(r"\s*\x00\d+\x00\s*", " ", piece).strip()
        connective = _CONNECTIVE.match(piece)
        name = _DETERMINER.sub("", (piece[connective.end():] if connective else piece).strip(" .,;:")).strip()
        introduced = bool(connective) or separator.strip() == "or"
        if (number == 0 or introduced) and _is_name(name, introduced):
            names.update(dict.fromkeys([name] + [text.strip() for text in inside if _is_name(text.strip(), True)]))
    kept: dict[str, None] = {}
    for name in names:
        if fold(name) not in {*own, *map(fold, kept)} and len(fold(name)) >= 2:
            kept[name] = None
    return tuple(kept)
def _position_of_folded(text: str, folded_at: int) -> int:
    """Where in `text` its folded form's character `folded_at` comes from (folding keeps word boundaries)."""
    words_before = len(fold(text)[:folded_at].split())
    spans = [match.start() for match in re.finditer(r"\w+", text)]
    return spans[words_before] if words_before < len(spans) else 0
