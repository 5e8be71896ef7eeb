"""Bar charts as plain HTML and CSS, with every number written beside its bar: the Corpus and Evaluation pages' bars.

A Plotly chart costs the browser about a quarter of a second of CPU each (its code, its layout) before it shows
anything; these are in the page's first paint, read by a screen reader as a table of labels and numbers, and carry
no corpus text except as escaped text.
"""
from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Callable


SERIES_COLOURS = ("#4c78a8", "#f58518")  # one per series of a chart (Evaluation's judged chart has two)

# Colours that read on Streamlit's light and dark themes alike: text and whiskers take the page's colour.
STYLE = """<style>
.an-bars { margin: 0 0 1rem 0; font-size: 0.9rem; }
.an-bars figcaption { font-weight: 600; margin-bottom: 0.4rem; }
.an-bars table { width: 100%; border-collapse: collapse; border: none; }
.an-bars tr, .an-bars th, .an-bars td { border: none; background: none; }
.an-bars th { font-weight: 400; text-align: right; padding: 0.1rem 0.6rem 0.1rem 0; width: 1%;
              white-space: nowrap; max-width: 16rem; overflow: hidden; text-overflow: ellipsis; }
.an-bars td { padding: 0.1rem 0; }
.an-bars a { color: inherit; text-decoration: underline; text-decoration-color: rgba(128, 128, 128, 0.55);
             text-underline-offset: 2px; }
.an-bars a:hover, .an-bars a:focus { text-decoration-color: currentColor; }
.an-line { display: flex; align-items: center; gap: 0.5rem; min-height: 1.15rem; }
.an-track { position: relative; flex: 1; height: 0.85rem; background: rgba(128, 128, 128, 0.14); }
.an-bar { position: absolute; left: 0; top: 0; bottom: 0; }
.an-sd { position: absolute; top: 45%; height: 0; border-top: 1.5px solid currentColor; }
.an-sd::before, .an-sd::after { content: ""; position: absolute; top: -5px; height: 8px;
                                border-left: 1.5px solid currentColor; }
.an-sd::before { left: -1px; } .an-sd::after { right: -1px; }
.an-num { min-width: 7.5rem; font-variant-numeric: tabular-nums; }
.an-legend { display: flex; gap: 1rem; margin-bottom: 0.3rem; }
.an-swatch { display: inline-block; width: 0.8rem; height: 0.8rem; margin-right: 0.3rem; vertical-align: -0.1rem; }
.an-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.an-chart-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 28rem), 1fr));
                 column-gap: 2rem; }
</style>"""


@dataclass(frozen=True)
class Bar:
    """One row of a chart: its label (plain text), a value per series (None: no value, written "n/a"), the sd of
    each over seeds where there is one, and an address a click on the label opens."""
    label: str
    values: tuple[float | None, ...]
    sds: tuple[float | None, ...] = ()
    href: str | None = None


@dataclass(frozen=True)
class BarChart:
    """Horizontal bars from 0 to `scale` (by default the largest value plus its sd), one line per series in each
    row; values written with `digits` decimals, or as whole numbers with thousands separators when `digits` is None.
    `series` names the lines (a legend is drawn when there are several)."""
    title: str
    bars: Sequence[Bar]
    series: tuple[str, ...] = ("",)
    scale: float | None = None
    digits: int | None = 3
    unit: str = ""
    _colours: tuple[str, ...] = field(default=SERIES_COLOURS, repr=False)

    def __post_init__(self):
        if len(self.series) > len(self._colours):
            raise ValueError(f"a bar chart draws at most {len(self._colours)} series, not {len(self.series)}")
        for bar in self.bars:
            if len(bar.values) != len(self.series) or (bar.sds and len(bar.sds) != len(self.series)):
                raise ValueError(f"bar {bar.label!r}: {len(bar.values)} values and {len(bar.sds)} sds for "
                                 f"{len(self.series)} series")

    def _top(self) -> float:
        if self.scale is not None:
            return self.scale
        ends = [(value or 0.0) + ((bar.sds[i] or 0.0) if bar.sds else 0.0)
                for bar in self.bars for i, value in enumerate(bar.values)]
        return max(ends, default=0.0) or 1.0

    def _number(self, value: float | None, sd: float | None) -> str:
        if value is None:
            return "n/a"
        text = f"{value:,.0f}" if self.digits is None else f"{value:.{self.digits}f}"
        if sd is not None:
            text += f" ± {sd:,.0f}" if self.digits is None else f" ± {sd:.{self.digits}f}"
        return text + (f" {self.unit}" if self.unit else "")

    def _line(self, value: float | None, sd: float | None, series: int, top: float) -> str:
        share = lambda v: f"{100 * min(max(v, 0.0), top) / top:.2f}%"  # noqa: E731
        bar = (f'<span class="an-bar" style="width:{share(value)};background:{self._colours[series]}"></span>'
               if value else "")
        whisker = ""
        if value is not None and sd:
            low, high = value - sd, value + sd
            whisker = (f'<span class="an-sd" style="left:{share(low)};width:calc({share(high)} - {share(low)})">'
                       f'</span>')
        name = f'<span class="an-hidden">{html.escape(self.series[series])}: </span>' if len(self.series) > 1 else ""
        return (f'<div class="an-line"><span class="an-track" aria-hidden="true">{bar}{whisker}</span>'
                f'<span class="an-num">{name}{self._number(value, sd)}</span></div>')

    def html(self) -> str:
        """The chart as one HTML fragment (its style included), every text escaped."""
        return STYLE + self.figure()

    def figure(self) -> str:
        """The chart's <figure>, without the style it needs (see html and chart_grid)."""
        top = self._top()
        legend = ""
        if len(self.series) > 1:
            legend = '<div class="an-legend" aria-hidden="true">' + "".join(
                f'<span><span class="an-swatch" style="background:{colour}"></span>{html.escape(name)}</span>'
                for name, colour in zip(self.series, self._colours)) + "</div>"
        rows = []
        for bar in self.bars:
            label = html.escape(bar.label)
            if bar.href:
                label = f'<a href="{html.escape(bar.href)}">{label}</a>'
            sds = bar.sds or (None,) * len(bar.values)
            lines = "".join(self._line(value, sd, i, top) for i, (value, sd) in enumerate(zip(bar.values, sds)))
            rows.append(f'<tr><th scope="row" title="{html.escape(bar.label)}">{label}</th><td>{lines}</td></tr>')
        return (f'<figure class="an-bars"><figcaption>{html.escape(self.title)}</figcaption>{legend}'
                f'<table>{"".join(rows)}</table></figure>')


def chart_grid(charts: Sequence[BarChart]) -> str:
    """Several charts as one HTML fragment, side by side where the page is wide enough (two on a laptop): one
    element for the browser to add and lay out, where a Streamlit column and an st.html per chart cost it a third of
    the Corpus page's time to interactive."""
    return f'{STYLE}<div class="an-chart-grid">{"".join(chart.figure() for chart in charts)}</div>'


def label_distribution_chart(label_counts: Mapping[str, int], aspect: str, coverage: float, top: int,
                             href: Callable[[str], str] | None = None) -> BarChart:
    """An aspect's `top` most common labels, most common first; `href(label)` the address a click on one opens."""
    counts = Counter(label_counts).most_common(top)
    return BarChart(f"{aspect}: top {len(counts)} of {len(label_counts)} labels ({coverage:.0%} of articles labelled)",
                    [Bar(label, (float(count),), href=href(label) if href else None) for label, count in counts],
                    digits=None, unit="articles")


def metric_bar_chart(rows: Sequence[Mapping], column: str, title: str,
                     spread: Sequence[float | None] | None = None) -> BarChart:
    """One bar per space (`row["space"]`) for a 0..1 retrieval metric, with its sd over seeds where there is one."""
    spread = list(spread) if spread and any(sd is not None for sd in spread) else [None] * len(rows)
    return BarChart(title, [Bar(row["space"], (row[column],), (sd,)) for row, sd in zip(rows, spread)], scale=1.0)


def judged_bar_chart(rows: Sequence[Mapping], title: str) -> BarChart:
    """Two bars per Explore column, worth reading (P@5) and shares the aspect (@5), each with its sd over seeds:
    a column is worth showing only where both are high."""
    names = ("worth reading", "shares the aspect")
    return BarChart(title, [Bar(row["column"], tuple(row[name] for name in names),
                                tuple(row[f"{name} sd"] for name in names)) for row in rows],
                    series=("worth reading (P@5)", "shares the aspect (@5)"), scale=1.0, digits=2)
