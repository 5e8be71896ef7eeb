"""The blind judgement of this round's labels (explore/corpus/label_judgements.py): write the reviewers' sheets, then
merge their verdicts into assets/aspects/vital_label_judgements.json.

    python scripts/label_judgement_sheets.py sheets --out /tmp/judge --batches 4   # sheets + the key, kept apart
    python scripts/label_judgement_sheets.py merge --out /tmp/judge --out /tmp/judge2  # verdicts -> the asset

A sheet shows each item's title, description, lead, aspect and label, shuffled over every aspect and source:
nothing tells the reviewer which rule, table or classifier gave the label. The key (ids and sources) goes to
OUT/../judge-key.json, outside the folder reviewers read. Merging drops, and counts, an item whose label the
current build no longer gives (a rule changed after the draw): such an item was judged on a label nobody sees.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from explore.corpus.label_judgements import ASPECT_MEANING, JUDGEMENTS_PATH, MIN_PRECISION, SEED, draw_sample
from explore.corpus.vital import build_vital_corpus

SHUFFLE_SEED = 7


def key_path(out: Path) -> Path:
    return out.parent / f"{out.name}-key.json"


def write_sheets(out: Path, batches: int) -> None:
    items = draw_sample(build_vital_corpus())
    order = list(range(len(items)))
    random.Random(SHUFFLE_SEED).shuffle(order)
    rows = [{"n": n, "title": items[i].title, "description": items[i].description, "lead": items[i].lead,
             "aspect": items[i].aspect, "label": " · ".join(items[i].labels)} for n, i in enumerate(order)]
    key = [{"n": n, "id": items[i].id, "title": items[i].title, "aspect": items[i].aspect,
            "source": items[i].source, "labels": list(items[i].labels)} for n, i in enumerate(order)]
    out.mkdir(parents=True, exist_ok=True)
    key_path(out).write_text(json.dumps(key, ensure_ascii=False), encoding="utf-8")
    size = -(-len(rows) // batches)
    for b in range(batches):
        with (out / f"batch_{b}.jsonl").open("w", encoding="utf-8") as sheet:
            sheet.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows[b * size:(b + 1) * size])
    print(f"{len(rows)} items in {batches} sheets under {out}; key -> {key_path(out)}")


def merge(outs: list[Path]) -> int:
    """Every round's verdicts (one folder each: its sheets, verdicts_*.jsonl and key) into the asset."""
    key: dict[int, dict] = {}
    verdicts: dict[int, dict] = {}
    for out in outs:
        key.update({k["n"]: k for k in json.loads(key_path(out).read_text(encoding="utf-8"))})
        for path in sorted(out.glob("verdicts_*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    entry = json.loads(line)
                    verdicts[int(entry["n"])] = entry
    missing = sorted(set(key) - set(verdicts))
    if missing:
        print(f"{len(missing)} items have no verdict yet (first: {missing[:5]})", file=sys.stderr)
        return 1
    corpus = build_vital_corpus()
    items, stale = [], Counter()
    for n in sorted(key):
        k, v = key[n], verdicts[n]
        article = corpus[k["id"]]
        if article.label_source(k["aspect"]) != k["source"] or list(article.labels(k["aspect"], True)) != k["labels"]:
            stale[(k.get("round", 1), k["aspect"], k["source"])] += 1
            continue
        items.append({"id": k["id"], "title": article.title, "aspect": k["aspect"], "source": k["source"],
                      "labels": k["labels"], "round": k.get("round", 1), "verdict": v["verdict"],
                      "note": v.get("note", "")})
    JUDGEMENTS_PATH.write_text(json.dumps({
        "about": "Blind judgements of the labels this round adds (explore/corpus/label_judgements.py): per (aspect, "
                 f"source) up to 200 labelled articles drawn with random.Random({SEED}), shown shuffled to reviewer "
                 "sessions (automated assistants that did not write the rules), told only what each aspect means. "
                 f"A source under {MIN_PRECISION:.0%} precision is not shipped. Round 2: the kind vocabulary lost its "
                 "over-broad heads after round 1 found 89% of its labels right, and 200 kind labels were drawn again "
                 "(random.Random(49)) and judged the same way; a source's precision is that of its latest round.",
        "meanings": ASPECT_MEANING,
        "dropped_as_stale": {f"round {r}: {a}/{s}": n for (r, a, s), n in sorted(stale.items())},
        "items": items}, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(items)} judged items -> {JUDGEMENTS_PATH}; dropped as stale: {dict(stale)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("sheets", "merge"))
    parser.add_argument("--out", type=Path, action="append", required=True,
                        help="the folder of the sheets and verdicts (merge: once per round)")
    parser.add_argument("--batches", type=int, default=4)
    args = parser.parse_args()
    if args.step == "sheets":
        write_sheets(args.out[0], args.batches)
        return 0
    return merge(args.out)


if __name__ == "__main__":
    sys.exit(main())
