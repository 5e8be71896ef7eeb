"""The snippet a reader judges an article by: the lead's first ~150 characters, cut at a word.

The research's user study showed each candidate as its title plus the first 150 characters of the
lead; app cards and study candidates both use this rule so that what people judge matches.
"""
from __future__ import annotations

SNIPPET_CHARS = 150  # the research showed title + the first 150 characters (app cards and study alike)


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The first `limit` characters of `text`, cut at a word boundary, with an ellipsis if cut."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    # A single enormous word would leave nothing; then cut mid-word instead.
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + "…"
