"""Streamlit: one article as Explore and Corpus show it — title, description, labels, lead, link."""
from __future__ import annotations

from typing import Callable

import streamlit as st

from app_views.cards import INFERRED_LEGEND
from app_views.markdown import aspect_chips, escape_markdown, markdown_link
from explore.corpus.model import Article, site_name


def show_article(article: Article, heading: Callable[[str], object] = st.subheader) -> None:
    heading(escape_markdown(article.title))
    if article.description:
        st.caption(escape_markdown(article.description))
    st.markdown(aspect_chips(article))
    if any(article.is_inferred(name) for name in article.inferred):
        st.caption(INFERRED_LEGEND)  # what the grey "· inferred" badge means, where it shows
    st.markdown(escape_markdown(article.text))
    if article.url:
        st.markdown(markdown_link(f"Read “{article.title}” on {site_name(article.url)}", article.url))
