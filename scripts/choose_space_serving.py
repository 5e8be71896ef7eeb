"""Choose how one aspect space's column is served (its own pool size N, generic share g and label weight λ), on
judged seeds, cross-validated over seeds; print the grid and the choice. For a space whose column is under the judged
bar as every aspect column is served (explore/relevant_first.py NOT_DRAWN). Run from the repository root:

    python scripts/choose_space_serving.py --space kind --space century \
        --output assets/reports/vital-space-serving-choice.json

Every setting of the grid is served on every judged seed the column would be drawn for (the seed has the aspect, and
enough of the top 5 share it); a setting qualifies where its worth-reading P@5 is at least 0.9 × generic's on the
same seeds and its cards share the seed's label of that aspect at least as often as generic's top 5 do; among those
the best column score wins (training/column_choice.py). Five folds over seeds (stratum by stratum) say what the
choice is worth on seeds it was not chosen on. Cards no pool holds are counted as unjudged, never guessed: judge the
chosen setting's new cards blind (scripts/make_unjudged_pool.py) before its figures are claimed.
"""
from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

from explore.corpus.registry import open_corpus
from explore.neighbours import Neighbourhood, seed_has_aspect
from explore.query import GENERIC, Kind, Query
from explore.relevant_first import RelevantFirst, Serving
from training.column_choice import _merged, cross_validate, folds_of, kind_verdict
from training.judged_columns import rule_for
from training.judgements import Judgements
from training.worth_reading import K, column_figures

POOL_SIZES = (30, 60, 100, 200)
GENERIC_SHARES = (0.4, 0.6, 0.8, 0.9)
LABEL_WEIGHTS = (0.5, 1.0, 2.0)
POOLS = "assets/judgements/{corpus}-pool*.json"


def served(engine: Neighbourhood, space: str, seeds: list[str]) -> dict[str, list[str]]:
    """The space's column for each seed it would be drawn for (seed → its top K ids)."""
    query, lists = Query(Kind.ASPECT, space), {}
    for seed_id in seeds:
        seed = engine.corpus[seed_id]
        if not all(seed_has_aspect(seed, a) for a in engine.spaces[space].aspects):
            continue
        if space in engine.spaces_not_worth_drawing(seed):
            continue
        lists[seed_id] = [n.id for n in engine.neighbours(seed, query, K)]
    return lists


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--space", action="append", required=True)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    corpus = open_corpus(args.corpus)
    engine = Neighbourhood.open(corpus)
    pools = sorted(p for p in Path(".").glob(POOLS.format(corpus=corpus.name)) if p.stem.split("pool")[-1].isdigit())
    judgements = Judgements.load(*pools)
    seeds = list(judgements.seeds)
    folds = folds_of(judgements.strata)
    generic_lists = {s: [n.id for n in engine.neighbours(corpus[s], GENERIC, K)] for s in seeds}
    report = {"judgements": [str(p) for p in pools], "folds": folds, "spaces": {}}
    for space in args.space:
        column = f"aspect:{space}"
        generic_shares = column_figures(judgements, corpus, "generic", generic_lists, rule_for(engine, column))
        settings = {}
        for n, g, weight in itertools.product(POOL_SIZES, GENERIC_SHARES, LABEL_WEIGHTS):
            engine.relevant_first = RelevantFirst(by_space={corpus.name: {space: Serving(n, g, weight)}})
            engine._seed_rows.cache_clear()
            own = column_figures(judgements, corpus, column, served(engine, space, seeds), rule_for(engine, column))
            settings[(n, g, weight)] = [(own, generic_shares, generic_shares)]
        result = cross_validate(settings, folds)
        rows = []
        for setting, triples in settings.items():
            own = _merged([t[0] for t in triples])
            verdict = kind_verdict(triples, seeds)
            s = own.summary()
            rows.append({"setting": list(setting), "seeds": s["seeds"], "score": verdict.score, "ndcg": s["ndcg"],
                         "precision_vs_generic": verdict.precision_vs_generic, "shares": verdict.shares,
                         "generic_shares": verdict.shares_before, "meets_bar": verdict.meets_bar,
                         "unjudged": s["unjudged"], "shown": s["shown"]})
        report["spaces"][space] = {"chosen": list(result.chosen), "per_fold": [list(c) for c in result.per_fold],
                                   "held_out": vars(result.held_out) | {"meets_bar": result.held_out.meets_bar},
                                   "held_out_folds_meeting_bar": result.held_out_met, "grid": rows}
        print(f"== {space}: chosen {result.chosen}; per fold {result.per_fold}; held out: score "
              f"{result.held_out.score:.3f}, P@5 {result.held_out.precision_vs_generic:.2f}x generic, shares "
              f"{result.held_out.shares:.3f} (generic {result.held_out.shares_before:.3f}); bar met in "
              f"{result.held_out_met}/{len(folds)} folds")
        for row in sorted(rows, key=lambda r: -r["score"])[:8]:
            print(f"   {row['setting']}: seeds {row['seeds']} score {row['score']:.3f} P/gen "
                  f"{row['precision_vs_generic']:.2f} shares {row['shares']:.3f} (generic {row['generic_shares']:.3f}) "
                  f"meets bar {row['meets_bar']} unjudged {row['unjudged']}/{row['shown']}")
    if args.output:
        args.output.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
