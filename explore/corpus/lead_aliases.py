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
- a name has at most MAX_ALIAS_WORDS words and no digits (dates, opus numbers), and is not the title;
- a bracket after a name is another name only when it reads as one: capitalised, not a respelling ("KY-tin") or a
  variety of English ("BrE and Indian English"), and an abbreviation (two capitals or more, or a short word) only
  of the name before it: "United States of America (USA)" gives USA, "Industrialisation (UK)" and "monkey nut (UK)"
  give nothing (UK there says where the word is used, and it would offer Peanut to a reader typing "uk").
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
# A pronunciation respelling: hyphenated syllables, the stressed one in capitals ("KY-tin", "mə-ZAR-t").
_RESPELLING = re.compile(r"^(?=.*\b[A-Z]{2,}\b)(?=.*\b[a-zəɪʊ]+\b)[\w'ə]+(?:-[\w'ə]+)+$")
# A variety of a language said in brackets ("(British English)", "(BrE and Indian English)", "(American spelling)").
_VARIETY = re.compile(r"\b(?:English|spelling|usage)\b")
# "Vergil in English", "Peysekh in Yiddish": the name is what comes before the language it is said in.
_IN_LANGUAGE = re.compile(r"\s+in\s+(?:English|Latin|Greek|French|German|Spanish|Italian|Portuguese|Arabic|Hebrew|"
                          r"Yiddish|Persian|Chinese|Japanese|Korean|Russian|Navajo|Sanskrit|Hindi)$")
SHORT_WORD = 3  # a bracketed word this short with one capital ("(For)") is neither an abbreviation nor a name


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


def _names_it(bracket: str, name: str) -> bool:
    """Whether a bracket after `name` gives it another name, not a note on where or how it is said."""
    letters = re.sub(r"\W", "", bracket)
    if letters.isalpha() and not any(char.isupper() or char.islower() for char in letters):
        return True  # a script without case ("空手" for Karate)
    if not _is_name(bracket, introduced=False) or _RESPELLING.match(bracket) or _VARIETY.search(bracket):
        return False
    capitals = sum(char.isupper() for char in letters)
    if " " in bracket.strip():
        return True  # a name of its own ("Communist Bloc")
    if capitals >= 2:
        return _abbreviates(letters, name)
    return len(letters) > SHORT_WORD  # "Euphausiids", "Yakutia"; a short word ("For") is no name


def _abbreviates(abbreviation: str, name: str) -> bool:
    """Whether `abbreviation` ("USA", "MoMA", "UTC", "TV") can stand for `name`: its first letter starts one of the
    name's words (or a capitalised part of one: JavaScript → JS) and each of its letters is in the name."""
    initials = {word[:1].casefold() for word in re.findall(r"[A-Z][a-z]*|\w+", name)}
    folded = fold(name).replace(" ", "")
    return (abbreviation[:1].casefold() in initials
            and all(char in folded for char in fold(abbreviation).replace(" ", "")))


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
        name = _IN_LANGUAGE.sub("", name)
        introduced = bool(connective) or separator.strip() == "or"
        if (number == 0 or introduced) and _is_name(name, introduced):
            names.update(dict.fromkeys([name] + [text.strip() for text in inside if _names_it(text.strip(), name)]))
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
