"""Derive the vital corpus's labels from the public tables in ../shared/data/labels/ and write them to
assets/aspects/vital_table_labels.json (explore/corpus/table_labels.py says what each table gives).

Run from the repository root after the tables or the corpus's own labels change:
    python scripts/derive_vital_table_labels.py [--tables ../shared/data/labels]
then rebuild the shipped corpus (bash scripts/build_vital_corpus.sh).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from explore.corpus.table_labels import TABLE_LABELS_FILE, derive_table_labels
from explore.corpus.vital import article_id, vital_records
from explore.corpus.vital_aspects import TABLES_DIR
from explore.errors import AspectNavError

DEFAULT_TABLES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "labels"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES, help="folder of the shared label tables")
    args = parser.parse_args(argv)
    try:
        articles = [(article_id(record["title"]), record["title"]) for record in vital_records()]
        derived = derive_table_labels(articles, args.tables)
    except AspectNavError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    out = TABLES_DIR / TABLE_LABELS_FILE
    out.write_text(json.dumps(derived.as_json(), indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    counts = {}
    for aspects in derived.labels.values():
        for aspect in aspects:
            counts[aspect] = counts.get(aspect, 0) + 1
    print(f"wrote {out}: {len(derived.labels)} articles; per aspect {counts}")
    print(f"unmatched rows per table: {dict(derived.unmatched)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
