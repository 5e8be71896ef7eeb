"""A questionnaire page's widgets: one per item (Likert and single choice as radios with nothing preselected,
free text as a text area), started from the saved draft, and the answers read back in the flow's shape."""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_views.markdown import escape_markdown
from study.questionnaire import ChoiceItem, Item, LikertItem, QuestionnairePage


def widget_key(page: QuestionnairePage, letter: str, item: Item) -> str:
    return f"study_q_{page.key or 'once'}_{letter}_{item.id}"


def item_widget(item: Item, key: str, saved, on_change: Callable[..., None], args: tuple = ()) -> None:
    label = escape_markdown(item.text) + ("" if item.required else " :gray[(optional)]")
    if isinstance(item, (LikertItem, ChoiceItem)):
        options = list(range(1, item.points + 1)) if isinstance(item, LikertItem) else list(item.options)
        st.radio(label, options, index=options.index(saved) if saved in options else None, key=key,
                 horizontal=True, on_change=on_change, args=args,
                 format_func=item.label if isinstance(item, LikertItem) else escape_markdown)
    else:
        st.text_area(label, value=saved if isinstance(saved, str) else "", max_chars=item.max_length, key=key,
                     on_change=on_change, args=args, height=100)


def page_answers(page: QuestionnairePage) -> dict:
    """What the widgets hold now: {letter: {item: value}} on a per-source page, {item: value} once."""
    def values(letter: str) -> dict:
        return {item.id: value for item in page.items
                if (value := st.session_state.get(widget_key(page, letter, item))) not in (None, "")}

    if page.per_source:
        return {shown.letter: values(shown.letter) for shown in page.lists}
    return values("")


def saved_value(page: QuestionnairePage, letter: str, item: Item):
    draft = page.draft or {}
    return (draft.get(letter) or {}).get(item.id) if page.per_source else draft.get(item.id)
