"""Draw the judged seeds, pool the top 5 of every column Explore draws for each, and write the pool (with the
columns that proposed each pair, for the record) and the judges' blind sheets.

    python scripts/make_judgement_pool.py --corpus vital --out assets/judgements/vital-pool1.json \
        --sheets /tmp/judging --batches 4 --exclude "DNA,Water,..."

A pool, once judged, is frozen: a later pool (new candidates of changed columns) is written to a new file.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from explore.corpus.registry import open_corpus
from explore.neighbours import Neighbourhood
from training.judgement_pool import DEEPER, SeedDraw, blind_order, column_tops, draw_seeds, excerpt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sheets", type=Path, required=True, help="folder for the judges' blind sheets")
    parser.add_argument("--batches", type=int, default=4)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--exclude", default="", help="titles never drawn, comma-separated")
    args = parser.parse_args()

    corpus = open_corpus(args.corpus)
    engine = Neighbourhood.open(corpus)
    draw = SeedDraw(seed=args.seed, excluded=tuple(t.strip() for t in args.exclude.split(",") if t.strip()))
    seeds = draw_seeds(corpus, draw)
    records, sheets = [], [[] for _ in range(args.batches)]
    for i, (stratum, seed_id) in enumerate(seeds):
        seed = corpus[seed_id]
        tops = column_tops(engine, seed)
        # deeper in generic and links: the relevant pool a column may re-rank from, judged before any tuning
        deeper = {f"{kind}@{depth}": [n.id for n in engine.neighbours(seed, kind, depth)]
                  for kind, depth in DEEPER.items() if kind in tops}
        candidates = blind_order(seed_id, [c for ids in [*tops.values(), *deeper.values()] for c in ids])
        records.append({"seed": seed_id, "title": seed.title, "stratum": stratum, "columns": tops,
                        "deeper": deeper, "candidates": candidates})
        sheets[i % args.batches].append({
            "seed": {"id": seed_id, "title": seed.title, "description": seed.description,
                     "lead": excerpt(seed.text, 500)},
            "candidates": [{"id": c, "title": corpus[c].title, "description": corpus[c].description,
                            "lead": excerpt(corpus[c].text, 240)} for c in candidates]})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"corpus": corpus.name, "corpus_content_hash": corpus.content_hash,
                                    "draw": {"seed": draw.seed, "per_stratum": draw.per_stratum,
                                             "top_level": draw.top_level, "strata": dict(draw.strata),
                                             "excluded": list(draw.excluded)},
                                    "depth": 5, "deeper": DEEPER, "seeds": records}, indent=1, ensure_ascii=False) + "\n")
    args.sheets.mkdir(parents=True, exist_ok=True)
    for b, sheet in enumerate(sheets):
        (args.sheets / f"sheet-{b + 1}.json").write_text(json.dumps(sheet, indent=1, ensure_ascii=False))
    pairs = sum(len(r["candidates"]) for r in records)
    print(f"{len(records)} seeds, {pairs} pairs; sheets: {[len(s) for s in sheets]} seeds each")


if __name__ == "__main__":
    main()
