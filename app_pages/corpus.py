"""Corpus page: a title search with an article reader first, then counts and per-aspect label distributions."""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from app_views.article_reader import show_article
from app_views.corpus_choice import chosen_corpus, corpus_param
from app_views.bar_chart import chart_grid, label_distribution_chart
from app_views.corpus_summary import corpus_summary
from app_views.count_row import Count, count_row
from app_views.html_table import Cell, html_table
from app_views.markdown import escape_markdown, link_caption
from app_views.one_line_title import cut_title_hover, one_line_title
from app_views.view_session import explore_view
from explore.corpus.model import LABEL_CREDITS_DETAIL

SHOWN_MATCHES = 20  # matches listed at once; the page says when there are more
LABELS_PER_CHART = (5, 10, 15, 20, 30, 40)

corpus = chosen_corpus()
st.title(f"Corpus: {escape_markdown(corpus.name)}")
summary = corpus_summary(corpus)

st.html(count_row([Count("Articles", f"{summary.articles:,}"),
                   Count("Links", f"{summary.links:,}", help=link_caption(corpus)),
                   Count("Aspects", f"{len(summary.aspects):,}"), Count("Labels", f"{summary.labels:,}")]))
label_credits = corpus.provenance.details.get(LABEL_CREDITS_DETAIL, "")
st.caption(f"Source: {escape_markdown(corpus.provenance.source)} ({escape_markdown(corpus.provenance.date)}). "
           f"Links: {link_caption(corpus)}."
           + (f" Some labels are derived from public tables: {escape_markdown(label_credits)}." if label_credits else ""))

st.subheader("Find an article")
query = st.text_input("Search titles", placeholder="e.g. Marie Curie", key="browse_query")
matches = corpus.search_titles(query, limit=len(corpus)) if query.strip() else []
if query.strip() and not matches:
    st.warning(f"No title contains {escape_markdown(repr(query.strip()))}.")
    suggestions = corpus.closest_titles(query.strip())
    if suggestions:
        st.markdown("Closest titles: " + escape_markdown(", ".join(suggestions)))

if matches:
    shown = matches[:SHOWN_MATCHES]
    needle = escape_markdown(repr(query.strip()))
    st.caption(f"Showing {len(shown)} of {len(matches):,} matches for {needle} (titles that start with it first, "
               f"shortest first): type more to narrow them." if len(shown) < len(matches) else
               f"{len(matches):,} match{'es' if len(matches) > 1 else ''} for {needle}.")
    labels = {a.id: f"{one_line_title(a.title)} — {a.description}" if a.description else one_line_title(a.title)
              for a in shown}  # a radio option is a line: the header below shows the chosen title whole
    chosen = st.radio("Matches", list(labels), format_func=lambda i: escape_markdown(labels[i]), key="browse_choice")
    article = corpus[chosen]
    with st.container(border=True):
        show_article(article, heading=st.header)
        # Both links keep the user's k and blend: only the seed changes.
        explore_query = explore_view().url_query(corpus, seed_id=article.id) | corpus_param(corpus.name)
        title, whole = escape_markdown(one_line_title(article.title)), cut_title_hover(article.title)
        with st.container(horizontal=True, vertical_alignment="center"):
            st.page_link("app_pages/explore.py", label=f"Explore from {title}", icon=":material/explore:",
                         query_params=explore_query, help=escape_markdown(whole) if whole else None)
            # A relative address: Explore is the app's default page, beside this one.
            st.link_button(f"Explore from {title} in a new tab", "./?" + urlencode(explore_query),
                           icon=":material/open_in_new:",
                           help="Opens Explore in a new browser tab; this page stays as it is.")
        if article.links:
            st.markdown(f"**{link_caption(corpus)}**: " + escape_markdown(", ".join(corpus[i].title
                                                                                   for i in article.links)))

st.subheader("Aspect labels")
if not summary.aspects:
    st.info("This corpus has no aspect labels: Explore shows its links and generic neighbours only.")
else:
    # Plain HTML: a handful of rows need no sorting or scrolling grid (st.dataframe's cost the browser more than every
    # label chart together; st.table's Markdown cells more than plain text).
    st.html(html_table([{"aspect": aspect.name, "articles labelled": Cell(f"{aspect.articles:,}", number=True),
                         "coverage": Cell(f"{aspect.coverage:.1%}", number=True),
                         "distinct labels": Cell(f"{len(aspect.label_counts):,}", number=True)}
                        for aspect in summary.aspects], "Aspect labels"))
    # A choice among a few counts, not a slider: the page's only slider cost the browser its code (a date library
    # among it) and a forced layout on every open; the selectbox's code is loaded for the sidebar already.
    top = st.selectbox("Labels per chart", LABELS_PER_CHART, index=LABELS_PER_CHART.index(15), key="corpus_top",
                       width=160)
    st.caption("Click a label to see its articles on the Maps page.")
    # A relative address (Maps is beside this page), coloured by the aspect and filtered to the label; the reader's
    # seed, k and mix go with it, as a page change in the app keeps them.
    kept = explore_view().url_query(corpus) | corpus_param(corpus.name)
    maps_href = lambda aspect: lambda label: "maps?" + urlencode(kept | {"colour": aspect, "only": label})  # noqa: E731
    st.html(chart_grid([label_distribution_chart(aspect.label_counts, aspect.name, aspect.coverage, top,
                                                 maps_href(aspect.name)) for aspect in summary.aspects]))
