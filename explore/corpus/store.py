"""Save and load corpora as one Parquet file plus a JSON card, written atomically."""
from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from explore.atomic_files import swap_directory_into_place
from explore.corpus.model import Article, Corpus, Provenance
from explore.errors import AspectNavError

FORMAT_VERSION = 1
ARTICLES_FILE = "articles.parquet"
CARD_FILE = "corpus.json"

_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("title", pa.string()),
        ("text", pa.string()),
        ("description", pa.string()),
        ("url", pa.string()),
        ("links", pa.list_(pa.string())),
        ("aspects", pa.string()),  # JSON object: aspect -> [labels]
    ]
)


def save_corpus(corpus: Corpus, directory: Path) -> Path:
    """Write `corpus` into `directory`, replacing what was there only once all is written."""
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        table = pa.table(
            {
                "id": [a.id for a in corpus],
                "title": [a.title for a in corpus],
                "text": [a.text for a in corpus],
                "description": [a.description for a in corpus],
                "url": [a.url for a in corpus],
                "links": [list(a.links) for a in corpus],
                "aspects": [json.dumps({k: list(v) for k, v in a.aspects.items()}) for a in corpus],
            },
            schema=_SCHEMA,
        )
        pq.write_table(table, staging / ARTICLES_FILE)
        card = {
            "format_version": FORMAT_VERSION,
            "name": corpus.name,
            "provenance": asdict(corpus.provenance),
            "content_hash": corpus.content_hash,
            "stats": corpus.stats(),
        }
        (staging / CARD_FILE).write_text(json.dumps(card, indent=2, ensure_ascii=False))
        swap_directory_into_place(staging, directory)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return directory


def load_corpus(directory: Path) -> Corpus:
    """Read a corpus written by `save_corpus`; a damaged one raises a clear error."""
    directory = Path(directory)
    try:
        card = json.loads((directory / CARD_FILE).read_text())
        table = pq.read_table(directory / ARTICLES_FILE).to_pydict()
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise AspectNavError(f"Corpus at {directory} cannot be read ({exc}); rebuild or re-import it.") from exc
    if card.get("format_version") != FORMAT_VERSION:
        raise AspectNavError(f"Corpus at {directory} has format {card.get('format_version')}, expected {FORMAT_VERSION}.")
    articles = [
        Article(
            id=id_,
            title=title,
            text=text,
            description=description,
            url=url,
            links=tuple(links),
            aspects={k: tuple(v) for k, v in json.loads(aspects).items()},
        )
        for id_, title, text, description, url, links, aspects in zip(
            table["id"], table["title"], table["text"], table["description"],
            table["url"], table["links"], table["aspects"],
        )
    ]
    provenance = Provenance(**card["provenance"])
    return Corpus(name=card["name"], articles=articles, provenance=provenance)
