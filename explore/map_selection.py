"""A group of articles chosen on a map (box or lasso): the rows a reader exports, as CSV a spreadsheet opens
safely (explore/spreadsheet_csv.py: a title such as "=HYPERLINK(...)" is written as text, never run)."""
from __future__ import annotations

from collections.abc import Sequence

from explore.corpus.model import Corpus
from explore.spreadsheet_csv import csv_text


def selection_rows(corpus: Corpus, article_ids: Sequence[str], aspect: str | None = None) -> list[dict[str, str]]:
    """One row per selected article of `corpus` (unknown ids left out), in the given order: id, title and, with
    `aspect`, its labels of that aspect (an inferred one where the source has none) and whether they are
    inferred ("yes" in the column "<aspect> inferred")."""
    rows = []
    for article_id in dict.fromkeys(article_ids):
        if article_id not in corpus:
            continue
        article = corpus[article_id]
        row = {"id": article.id, "title": article.title}
        if aspect:
            row[aspect] = ", ".join(article.labels(aspect, inferred=True))
            row[f"{aspect} inferred"] = "yes" if article.is_inferred(aspect) else ""
        rows.append(row)
    return rows


def ids_of_rows(corpus: Corpus, rows: Sequence[int]) -> list[str]:
    """The ids of corpus rows, read without making each Article where the corpus can (a columnar one)."""
    value = getattr(corpus.articles, "value", None)
    if value is not None:
        return [value(int(row), "id") for row in rows]
    return [corpus.articles[int(row)].id for row in rows]


def selection_csv(rows: Sequence[dict[str, str]]) -> str:
    """`selection_rows` as CSV (a header, then one line per article)."""
    return csv_text(list(rows[0]), rows) if rows else ""
