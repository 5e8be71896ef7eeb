"""Headings and captions as plain HTML, for a page section drawn as one st.html with its tables and charts.

Each Streamlit element costs the browser its own React tree and styles, and a heading or caption its Markdown parse;
Evaluation's judged section was seven elements (and a fifth of its open). Text goes in as plain strings and is
escaped here; `Emphasis` and `Code` mark the few words a caption sets apart, as its Markdown did.
"""
from __future__ import annotations

import html
from dataclasses import dataclass

# Streamlit's subheading and caption, on the light and dark themes alike (the page's own text colour, faded).
STYLE = """<style>
.an-heading { font-size: 1.5rem; font-weight: 600; line-height: 1.2; margin: 1.25rem 0 0.75rem 0; padding: 0; }
.an-caption { font-size: 0.875rem; line-height: 1.5; margin: 0 0 0.75rem 0;
              color: color-mix(in srgb, currentColor 60%, transparent); }
.an-caption code { font-size: 0.8rem; }
</style>"""


@dataclass(frozen=True)
class Emphasis:
    """Words set in italics (a term the caption defines)."""
    text: str


@dataclass(frozen=True)
class Code:
    """Words set as code (a file name, a command)."""
    text: str


def _inline(parts) -> str:
    out = []
    for part in parts:
        if isinstance(part, Emphasis):
            out.append(f"<em>{html.escape(part.text)}</em>")
        elif isinstance(part, Code):
            out.append(f"<code>{html.escape(part.text)}</code>")
        else:
            out.append(html.escape(part))
    return "".join(out)


def heading(text: str) -> str:
    """A section heading (Streamlit's subheader level), style included."""
    return f'{STYLE}<h3 class="an-heading">{html.escape(text)}</h3>'


def caption(*parts: str | Emphasis | Code) -> str:
    """A caption paragraph of `parts` (plain text, `Emphasis`, `Code`), style included."""
    return f'{STYLE}<p class="an-caption">{_inline(parts)}</p>'
