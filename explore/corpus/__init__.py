"""Corpora: the article model, storage, the embedded vital corpus and imports."""
from explore.corpus.model import WIKIPEDIA_LICENSE, Article, Corpus, Provenance
from explore.corpus.registry import list_corpora, open_corpus, store_corpus

__all__ = ["WIKIPEDIA_LICENSE", "Article", "Corpus", "Provenance", "list_corpora", "open_corpus", "store_corpus"]
