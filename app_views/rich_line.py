"""A line of page text with light emphasis, kept as runs: drawn as escaped Markdown by Streamlit pages and with
textContent by the explore panel's script. The words are written once; neither side parses the other's markup."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from app_views.markdown import code_span, escape_markdown


RICH_LINE_JS = Path(__file__).with_suffix(".js")  # the components' side: a line's runs drawn as text, <em>, <code>


class Style(str, Enum):
    PLAIN = "plain"
    EMPHASIS = "em"  # a title or a name the sentence is about
    STRONG = "strong"  # the figure a line is about
    CODE = "code"  # a command to copy


@dataclass(frozen=True)
class Run:
    text: str
    style: Style = Style.PLAIN


RichLine = tuple[Run, ...]


def plain(text: str) -> Run:
    return Run(text)


def emphasis(text: str) -> Run:
    return Run(text, Style.EMPHASIS)


def strong(text: str) -> Run:
    return Run(text, Style.STRONG)


def code(text: str) -> Run:
    return Run(text, Style.CODE)


def to_markdown(line: RichLine) -> str:
    """Streamlit Markdown: every run's text escaped, emphasis in italics, code as an inline code span."""
    def one(index: int, run: Run) -> str:
        if run.style is Style.CODE:
            return code_span(run.text)
        words = run.text.lstrip(" ") if index else run.text  # a run's leading space is no line's indent
        text = run.text[:len(run.text) - len(words)] + escape_markdown(words)
        mark = {Style.EMPHASIS: "*", Style.STRONG: "**"}.get(run.style, "")
        return f"{mark}{text}{mark}" if text else text
    return "".join(one(index, run) for index, run in enumerate(line))


def to_data(line: RichLine) -> list[dict[str, str]]:
    """JSON for a component's script (rich_line.js), which draws each run as a text node, <em>, <strong> or <code>."""
    return [{"text": run.text, "style": run.style.value} for run in line]


def to_text(line: RichLine) -> str:
    return "".join(run.text for run in line)
