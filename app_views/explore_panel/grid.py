"""The explore panel's columns and cards as plain data (Streamlit-free, tested): each column's heading,
description and note, and per card what it shares with the seed, its score and its addresses.

A card's title is a real link to the article's Explore address (a middle click opens a new tab); a plain
click makes the article the seed (the panel's `pick` event).
"""
from __future__ import annotations

from typing import Callable, Sequence

from app_views.cards import INFERRED_HELP
from app_views.columns import Column
from app_views.url_state import MAX_K
from app_views.view_state import PER_ROW_RANGE
from explore.corpus.model import is_web_address, site_name
from explore.query import Kind


def read_label(url: str) -> str:
    """The per-card link text, named after the site the article is on."""
    return f"Read on {site_name(url)}"


def chooser_order(columns: Sequence[Column]) -> list[str]:
    """The narrow screen's column chooser: the reader's mix first, then the page's order."""
    keys = [str(column.query) for column in columns]
    mixes = [str(column.query) for column in columns if column.query.kind is Kind.BLEND]
    return mixes + [key for key in keys if key not in mixes]


def grid_data(columns: Sequence[Column], per_row: int, href: Callable[[str], str], seed: str = "", k: int = 5,
              read_more: bool = False) -> dict:
    """What explore_panel.js draws as the columns: each column's heading, description, note and cards.
    `href(article_id)` is the Explore address of an article as the seed (a query string); `seed` names the seed
    (its title, or the free text), kept on the grid so a test or benchmark knows which seed the cards belong to;
    `k` the cards per column asked for (a column may have fewer); `read_more` whether the reader asked for Wikipedia's
    Read more column (its switch)."""
    order = chooser_order(columns)
    return {
        "seed": seed,
        "per_row": int(per_row),
        "per_row_range": list(PER_ROW_RANGE),
        "k": int(k),
        "k_range": [1, MAX_K],
        "read_more": bool(read_more),
        "first": order[0] if order else None,
        "chooser_order": order,
        "columns": [{
            "key": str(column.query),
            "heading": column.heading,
            "description": column.description,
            "note": column.note,
            "score_name": "mix score" if column.query.kind is Kind.BLEND else "similarity",
            "cards": [{
                "id": card.id,
                "title": card.title,
                "href": href(card.id),
                "snippet": card.snippet,
                "score": None if card.score is None else round(float(card.score), 4),
                "rank_text": "" if card.bm25_rank is None else f"text match #{card.bm25_rank}",
                "bar": card.bar,
                "shared": [{"text": f"{aspect}: {label}" + (" (inferred)" if aspect in card.inferred else ""),
                            "inferred": aspect in card.inferred,
                            "help": f"{card.title}'s {aspect} is {INFERRED_HELP}" if aspect in card.inferred else ""}
                           for aspect, labels in card.shared.items() for label in labels],
                "missing": list(card.missing),
                "also_in": list(card.also_in),
                "url": card.url if is_web_address(card.url) else "",
                "read_label": read_label(card.url) if is_web_address(card.url) else "",
            } for card in column.cards],
        } for column in columns],
    }
