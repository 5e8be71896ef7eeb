"""Chrome every page shares: the corpus picker, cached loading and the Wikipedia credit."""
from __future__ import annotations

import streamlit as st

from explore.corpus import WIKIPEDIA_LICENSE, Corpus, list_corpora, open_corpus
from explore.corpus.model import Article

DEFAULT_CORPUS = "vital"


@st.cache_resource(show_spinner="Loading corpus…")
def load_corpus(name: str) -> Corpus:
    return open_corpus(name)


def current_corpus() -> Corpus:
    """The corpus chosen in the sidebar (kept in the URL as ?corpus=)."""
    names = list_corpora()
    wanted = st.query_params.get("corpus", DEFAULT_CORPUS)
    index = names.index(wanted) if wanted in names else names.index(DEFAULT_CORPUS)
    name = st.sidebar.selectbox("Corpus", names, index=index, key="corpus_name")
    if name != DEFAULT_CORPUS:
        st.query_params["corpus"] = name
    elif "corpus" in st.query_params:
        del st.query_params["corpus"]
    return load_corpus(name)


def wikipedia_credit(corpus: Corpus) -> None:
    st.sidebar.caption(
        f"{WIKIPEDIA_LICENSE}. Source: {corpus.provenance.source} ({corpus.provenance.date})."
    )


def aspect_chips(article: Article) -> str:
    """Markdown badges, one per aspect label."""
    chips = [f":blue-badge[{name}: {label}]" for name, labels in article.aspects.items() for label in labels]
    return " ".join(chips) if chips else "_no aspect labels_"


def link_caption(corpus: Corpus) -> str:
    return {
        "mentions": "Mentioned articles (approximation of the lead's hyperlinks: titles found in the text)",
        "hyperlinks": "Linked articles",
    }.get(corpus.provenance.links, "Links")
