"""Corpus page: counts, per-aspect label distributions, and a title search with an article reader."""
from __future__ import annotations

import streamlit as st

from app_views.article_reader import show_article
from app_views.corpus_choice import chosen_corpus, corpus_param
from app_views.figures import label_distribution_figure
from app_views.markdown import escape_markdown, link_caption
from app_views.view_session import explore_view

corpus = chosen_corpus()
st.title(f"Corpus: {escape_markdown(corpus.name)}")
stats = corpus.stats()

counts = st.columns(4)
counts[0].metric("Articles", f"{stats['articles']:,}")
counts[1].metric("Links", f"{stats['links']:,}", help=link_caption(corpus))
counts[2].metric("Aspects", len(stats["aspects"]))
counts[3].metric("Labels", f"{sum(a['labels'] for a in stats['aspects'].values()):,}")
st.caption(f"Source: {escape_markdown(corpus.provenance.source)} ({escape_markdown(corpus.provenance.date)}). "
           f"Links: {link_caption(corpus)}.")

st.subheader("Aspect labels")
if not stats["aspects"]:
    st.info("This corpus has no aspect labels: Explore shows its links and generic neighbours only.")
else:
    st.dataframe(
        [{"aspect": name, "articles labelled": a["articles"], "coverage": f"{a['coverage']:.1%}",
          "distinct labels": a["labels"]} for name, a in stats["aspects"].items()],
        hide_index=True,
    )
    top = st.slider("Labels per chart", 5, 40, 15, key="corpus_top")
    names = list(stats["aspects"])
    for start in range(0, len(names), 2):
        for column, name in zip(st.columns(2), names[start:start + 2]):
            column.plotly_chart(label_distribution_figure(corpus, name, top), key=f"labels-{name}")

st.subheader("Search")
query = st.text_input("Search titles", placeholder="e.g. Marie Curie", key="browse_query")
matches = corpus.search_titles(query, limit=50) if query.strip() else []
if query.strip() and not matches:
    st.warning(f"No title contains {escape_markdown(repr(query.strip()))}.")
    suggestions = corpus.closest_titles(query.strip())
    if suggestions:
        st.markdown("Closest titles: " + escape_markdown(", ".join(suggestions)))

if matches:
    labels = {a.id: f"{a.title} — {a.description}" if a.description else a.title for a in matches}
    chosen = st.radio("Matches", list(labels), format_func=lambda i: escape_markdown(labels[i]), key="browse_choice")
    article = corpus[chosen]
    show_article(article, heading=st.header)
    # The link keeps the user's k and blend: only the seed changes.
    st.page_link("app_pages/explore.py", label=f"Explore from {escape_markdown(article.title)}", icon="🧭",
                 query_params=explore_view().url_query(corpus, seed_id=article.id) | corpus_param(corpus.name))
    if article.links:
        st.subheader(link_caption(corpus))
        st.markdown(escape_markdown(", ".join(corpus[i].title for i in article.links)))
