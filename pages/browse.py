"""Corpus browser: search a title, read the article, its description, labels and links."""
from __future__ import annotations

import streamlit as st

from pages.common import aspect_chips, current_corpus, link_caption, wikipedia_credit

corpus = current_corpus()
wikipedia_credit(corpus)
st.title("Browse the corpus")

query = st.text_input("Search titles", placeholder="e.g. Marie Curie", key="browse_query")
matches = corpus.search_titles(query, limit=50) if query.strip() else []
if query.strip() and not matches:
    st.warning(f"No title contains {query.strip()!r}.")
    suggestions = corpus.closest_titles(query.strip())
    if suggestions:
        st.write("Closest titles: " + ", ".join(suggestions))

if matches:
    labels = {a.id: f"{a.title} — {a.description}" if a.description else a.title for a in matches}
    chosen = st.radio("Matches", list(labels), format_func=labels.get, key="browse_choice")
    article = corpus[chosen]
    st.header(article.title)
    if article.description:
        st.caption(article.description)
    st.markdown(aspect_chips(article))
    st.write(article.text)
    if article.url:
        st.markdown(f"[Read on Wikipedia]({article.url})")
    if article.links:
        st.subheader(link_caption(corpus))
        st.write(", ".join(corpus[i].title for i in article.links))
