"""What both stored corpus layouts share: the sealed card's file name and the article columns, with the one
way to write an article as a row and read it back (the Parquet store and the memory-mapped columnar one)."""
from __future__ import annotations

import json

import pyarrow as pa

from explore.corpus.label_source import LabelOrigin
from explore.corpus.model import Article

CARD_FILE = "corpus.json"

SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("title", pa.string()),
        ("text", pa.string()),
        ("description", pa.string()),
        ("url", pa.string()),
        ("links", pa.list_(pa.string())),
        ("aspects", pa.string()),  # JSON object: aspect -> [labels]
        ("aliases", pa.list_(pa.string())),  # absent from stores written before it was added
        ("inferred", pa.string()),  # JSON object: aspect -> [inferred labels]; absent from older stores
        ("sources", pa.string()),  # JSON object: aspect -> where its labels came from; absent from older stores
    ]
)


def article_from_row(id_: str, title: str, text: str, description: str, url: str, links, aspects: str,
                     aliases, inferred: str | None, sources: str | None = None) -> Article:
    """One stored row as an Article: the one reading of the stored columns, in memory or memory-mapped."""
    return Article(
        id=id_,
        title=title,
        text=text,
        description=description,
        url=url,
        links=tuple(links or ()),
        aspects={k: tuple(v) for k, v in json.loads(aspects).items()},
        aliases=tuple(aliases or ()),
        inferred={k: tuple(v) for k, v in json.loads(inferred or "{}").items()},
        sources={k: LabelOrigin.from_json(v) for k, v in json.loads(sources or "{}").items()},
    )


def article_columns(articles: list[Article]) -> dict[str, list]:
    """Articles as the stored columns (`SCHEMA`), for a whole corpus or one batch of a large one."""
    return {
        "id": [a.id for a in articles],
        "title": [a.title for a in articles],
        "text": [a.text for a in articles],
        "description": [a.description for a in articles],
        "url": [a.url for a in articles],
        "links": [list(a.links) for a in articles],
        "aspects": [json.dumps({k: list(v) for k, v in a.aspects.items()}) for a in articles],
        "aliases": [list(a.aliases) for a in articles],
        "inferred": [json.dumps({k: list(v) for k, v in a.inferred.items()}) for a in articles],
        "sources": [json.dumps({k: v.as_json() for k, v in a.sources.items()}) for a in articles],
    }
