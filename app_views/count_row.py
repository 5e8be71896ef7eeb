"""A row of headline counts (label above, figure below, as st.metric draws them) as one HTML fragment: the Corpus
page's articles, links, aspects and labels. Four st.metric elements in four columns cost the browser their own code
(a number formatter, a chart loader) and layout on every open, for four numbers."""
from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

STYLE = """<style>
.an-counts { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: 1rem;
             margin: 0 0 0.5rem 0; }
.an-count-label { font-size: 0.875rem; }
.an-count-value { font-size: 2.25rem; line-height: 1.3; font-variant-numeric: tabular-nums; }
.an-count abbr { text-decoration: underline dotted rgba(128, 128, 128, 0.7); cursor: help; }
</style>"""


@dataclass(frozen=True)
class Count:
    """One headline figure: what it counts, the figure as written, and what a pointer over its label explains."""
    label: str
    value: str
    help: str = ""


def count_row(counts: Sequence[Count]) -> str:
    """`counts` side by side (wrapping on a narrow page), every text escaped; a label with help shows it on hover."""
    if not counts:
        raise ValueError("a row of counts needs at least one count")
    cells = []
    for count in counts:
        label = html.escape(count.label)
        if count.help:
            label = f'<abbr title="{html.escape(count.help)}">{label}</abbr>'
        cells.append(f'<div class="an-count"><div class="an-count-label">{label}</div>'
                     f'<div class="an-count-value">{html.escape(count.value)}</div></div>')
    return f'{STYLE}<div class="an-counts">{"".join(cells)}</div>'
