"""Pool the cards Explore now shows for the judged seeds that no judged pool holds, and write the judges' blind
sheets: the PROTOCOL's "new pool for such candidates", judged the same way and kept apart.

    python scripts/make_unjudged_pool.py --out assets/judgements/vital-pool5.json --sheets /tmp/pool5 \
        --about "why these cards are new"

Grades come back as {"seed": id, "grades": {candidate id: 0|1|2}} per seed (one JSON list per sheet); merge them
with --grades SHEET_GRADES.json ... into the pool file once every pair is judged.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from explore.corpus.registry import open_corpus
from explore.neighbours import Neighbourhood
from training.judgement_pool import blind_order, column_tops, excerpt
from training.judgements import Judgements

POOLS_DIR = Path("assets/judgements")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sheets", type=Path, help="folder for the judges' blind sheets")
    parser.add_argument("--about", default="")
    parser.add_argument("--baselines", action="store_true",
                        help="pool the columns a reader may add too (Wikipedia's Read more)")
    parser.add_argument("--only", nargs="*", default=None,
                        help="pool only these columns (query spellings, e.g. morelike)")
    parser.add_argument("--grades", type=Path, nargs="*", help="the judges' grades to merge into --out")
    args = parser.parse_args()
    if args.grades:
        pool = json.loads(args.out.read_text(encoding="utf-8"))
        graded = {entry["seed"]: entry["grades"] for path in args.grades
                  for entry in json.loads(path.read_text(encoding="utf-8"))}
        for record in pool["seeds"]:
            grades = graded.get(record["seed"], {})
            missing = [c for c in record["candidates"] if grades.get(c) not in (0, 1, 2)]
            if missing:
                raise SystemExit(f"seed {record['seed']}: no grade for {missing}")
            record["grades"] = {c: grades[c] for c in record["candidates"]}
        args.out.write_text(json.dumps(pool, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"merged grades of {len(pool['seeds'])} seeds into {args.out}")
        return

    pools = sorted(p for p in POOLS_DIR.glob(f"{args.corpus}-pool*.json") if p.stem[-1].isdigit() and p != args.out)
    judgements = Judgements.load(*pools)
    pooled = {(r["seed"], c) for path in pools  # pooled before, graded or still with its judges
              for r in json.loads(path.read_text(encoding="utf-8"))["seeds"] for c in r.get("candidates", [])}
    corpus = open_corpus(args.corpus)
    engine = Neighbourhood.open(corpus)
    records, sheet = [], []
    for seed_id in judgements.seeds:
        seed = corpus[seed_id]
        tops = column_tops(engine, seed, baselines=args.baselines)
        new = [c for column, ids in tops.items() if args.only is None or column in args.only for c in ids
               if judgements.grade(seed_id, c) is None and (seed_id, c) not in pooled]
        if not new:
            continue
        candidates = blind_order(seed_id, new)
        records.append({"seed": seed_id, "title": seed.title, "columns": tops, "candidates": candidates})
        sheet.append({"seed": {"id": seed_id, "title": seed.title, "description": seed.description,
                               "lead": excerpt(seed.text, 500)},
                      "candidates": [{"id": c, "title": corpus[c].title, "description": corpus[c].description,
                                      "lead": excerpt(corpus[c].text, 240)} for c in candidates]})
    pairs = sum(len(r["candidates"]) for r in records)
    args.out.write_text(json.dumps({"corpus": corpus.name, "corpus_content_hash": corpus.content_hash, "depth": 5,
                                    "about": args.about, "seeds": records,
                                    "judged": {"pairs": pairs}}, indent=1, ensure_ascii=False) + "\n")
    if args.sheets:
        args.sheets.mkdir(parents=True, exist_ok=True)
        (args.sheets / "sheet-1.json").write_text(json.dumps(sheet, indent=1, ensure_ascii=False))
    print(f"{len(records)} seeds, {pairs} new pairs -> {args.out}")


if __name__ == "__main__":
    main()
