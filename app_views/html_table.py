"""Small tables as plain HTML, every cell escaped text: the Corpus and Evaluation pages' tables.

An st.table renders each cell as Markdown in the browser; the Evaluation page's tables (a hundred cells and more) cost
it most of its CPU per open. A cell here is typed (bold for the best value, italic for a reason in place of one), so
no Markdown is written or parsed.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# Streamlit's own table look (thin rules, the page's text colour), on the light and dark themes alike; a table wider
# than the page scrolls inside its box rather than clipping a column.
STYLE = """<style>
.an-table-box { overflow-x: auto; margin: 0 0 1rem 0; }
.an-table { border-collapse: collapse; font-size: 0.875rem; width: max-content; max-width: 100%; }
.an-table th, .an-table td { border: 1px solid rgba(128, 128, 128, 0.25); padding: 0.25rem 0.5rem;
                             text-align: left; vertical-align: top; background: none; }
.an-table thead th { font-weight: 600; color: inherit; opacity: 0.8; }
.an-table td.an-number { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.an-table code { font-size: 0.8rem; white-space: pre-wrap; }
</style>"""


@dataclass(frozen=True)
class Cell:
    """One cell's text (plain, never markup), in bold (the best value of its column), in italics (a reason where a
    value would be), as code (a command or query), or right-aligned on one line (a figure)."""
    text: str
    strong: bool = False
    note: bool = False
    code: bool = False
    number: bool = False

    def html(self) -> str:
        text = html.escape(self.text)
        if self.code:
            text = f"<code>{text}</code>"
        if self.note:
            text = f"<em>{text}</em>"
        if self.strong:
            text = f"<strong>{text}</strong>"
        return f'<td class="an-number">{text}</td>' if self.number else f"<td>{text}</td>"


def html_table(rows: Sequence[Mapping[str, Cell | str]], label: str) -> str:
    """`rows` (header -> cell; a str is a plain cell) as one HTML fragment, style included; headers in the order of
    the first row, a header a later row lacks left empty there. `label` names the table for a screen reader."""
    if not rows:
        raise ValueError(f"table {label!r}: no rows to show")
    headers = list(dict.fromkeys(header for row in rows for header in row))
    head = "".join(f'<th scope="col">{html.escape(header)}</th>' for header in headers)
    body = "".join("<tr>" + "".join((cell if isinstance(cell, Cell) else Cell(cell)).html()
                                    for cell in (row.get(header, "") for header in headers)) + "</tr>" for row in rows)
    return (f'{STYLE}<div class="an-table-box"><table class="an-table" aria-label="{html.escape(label)}">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")
