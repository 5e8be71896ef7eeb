"""A title where it has one line (a trail's crumb, a suggestion, a list entry, a map's label): cut to ONE_LINE_CHARS at
a word's end, with the whole title left for hover (`cut_title_hover`) and in full in the article's own card. One place
for the cut, so a 10,000-character title cannot fill a screen anywhere a title sits in a row."""
from __future__ import annotations

ONE_LINE_CHARS = 64  # every vital title stays whole (the longest, 62: "International Covenant on Economic, …")
ELLIPSIS = "…"


def one_line_title(title: str, limit: int = ONE_LINE_CHARS) -> str:
    """`title` on one line (line breaks and runs of spaces made one space), at most `limit` characters: a longer one
    is cut at the last word's end that fits (mid-word when a single word is that long) and ends with "…"."""
    text = " ".join(str(title).split())
    if len(text) <= limit:
        return text
    cut = text[:limit - len(ELLIPSIS)]
    word_end = cut.rfind(" ")
    if word_end >= limit // 2:  # a word's end not too far back; else a very long word is cut where it is
        cut = cut[:word_end]
    return cut.rstrip(" ,;:-–—") + ELLIPSIS


def cut_title_hover(title: str, limit: int = ONE_LINE_CHARS) -> str | None:
    """The whole title, for the hover of its one-line form; None when nothing was cut (no tooltip to add)."""
    return str(title) if one_line_title(title, limit) != " ".join(str(title).split()) else None
