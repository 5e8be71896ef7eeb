"""Write a researcher-style corpus to try the "your own corpus" path on: people of the embedded vital corpus
with a country and an occupation label, as JSONL (id, title, text, description, url, links, aspects), links
kept only between the exported articles. Text from Wikipedia (CC BY-SA 4.0).

    python scripts/export_people_corpus.py people.jsonl [--limit 600] [--labels century century.csv]

`--labels ASPECT FILE` also writes that aspect's labels of the same articles as an `id,label` CSV, to try
`aspectnav corpus attach-aspect` with.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explore.corpus.registry import open_corpus  # noqa: E402

ASPECTS = ("country", "occupation")


def export(path: Path, limit: int | None = None, labels: tuple[str, Path] | None = None) -> int:
    corpus = open_corpus("vital")
    people = [a for a in corpus if all(a.labels(aspect) for aspect in ASPECTS)][:limit]
    if labels:
        aspect, csv_path = labels
        with Path(csv_path).open("w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["id", "label"])
            writer.writerows((a.id, label) for a in people for label in a.labels(aspect))
    kept = {a.id for a in people}
    with Path(path).open("w", encoding="utf-8") as out:
        for article in people:
            record = {"id": article.id, "title": article.title, "text": article.text,
                      "description": article.description, "url": article.url,
                      "links": [link for link in article.links if link in kept],
                      "aspects": {aspect: list(article.labels(aspect)) for aspect in ASPECTS}}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return len(people)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="the JSONL file to write")
    parser.add_argument("--limit", type=int, default=None, help="at most this many articles (default: all)")
    parser.add_argument("--labels", nargs=2, metavar=("ASPECT", "CSV"), help="also write ASPECT's labels as id,label")
    args = parser.parse_args(argv)
    labels = (args.labels[0], Path(args.labels[1])) if args.labels else None
    print(f"Wrote {export(args.path, args.limit, labels)} articles to {args.path}"
          + (f" and their {labels[0]} labels to {labels[1]}" if labels else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
