"""The one place that decides what text of an article is encoded."""
from __future__ import annotations

from explore.corpus.model import Article

# Stored in every space manifest: changing the recipe makes every stored space stale.
TEXT_RECIPE = "title. text (v1)"


def article_text(article: Article) -> str:
    """Title + lead. Only fields in Corpus.content_hash (id, title, text), so the corpus hash keys
    the embeddings; the title first because a truncated long lead still keeps the subject."""
    return f"{article.title}. {article.text}".strip()
