"""Choose how Explore's columns are served, on judged seeds, cross-validated over seeds; print the grid and the
choice (docs/training.md, "Relevant first"). Run from the repository root:

    python scripts/choose_columns.py --judgements assets/judgements/vital-pool1.json \
        --output assets/reports/vital-columns-choice.json

For each kind of labelled column (aspect, union, intersection: every column of a kind pooled) and for the default
mix, every setting of the grid (pool size N, generic share g, label weight λ; for the mix generic's and the links'
shares) is served on every judged seed; a setting qualifies where its worth-reading P@5 is
at least 0.9 × generic's and it shares its aspect at least as often as the column did at the judged release (the
pool file's columns); among those the best column score wins. Five folds over seeds (stratum by stratum) say what
the choice is worth on seeds it was not chosen on.
"""
from __future__ import annotations

import argparse
import itertools
import json
from functools import partial
from pathlib import Path

from explore.corpus.registry import open_corpus
from explore.mix import default_mix
from explore.neighbours import Neighbourhood
from explore.query import Kind, Query
from explore.relevant_first import RelevantFirst, Serving
from training.column_choice import _merged as _merge, cross_validate, folds_of, kind_verdict
from training.judged_columns import YOUR_MIX, figures_of, frozen_lists, served_lists
from training.judgements import Judgements
from training.worth_reading import ColumnFigures

POOL_SIZES = (30, 60, 100, 200)
GENERIC_SHARES = (0.0, 0.2, 0.4, 0.6, 0.8)
MIX_GENERIC_SHARES = (0.0, 0.2, 0.4, 0.6)
LINKS_SHARES = (0.0, 0.05, 0.1, 0.2)
LABEL_WEIGHTS = (1.0, 2.0)  # λ: how far a shared label ranks a card up (relevant_first.Serving.label_weight)


def kind_of(column: str) -> Kind | None:
    if column == YOUR_MIX:
        return Kind.BLEND
    kind = Query.parse(column).kind
    return kind if kind in (Kind.ASPECT, Kind.UNION, Kind.INTERSECTION) else None


def pooled(figures: dict[str, ColumnFigures], columns: list[str], source: str | None = None) -> ColumnFigures:
    """The columns of one kind as one column, keyed `seed|column` (`source`: take every key's figures from that
    one column instead, e.g. generic's on the same seeds)."""
    out = ColumnFigures("+".join(columns))
    for column in columns:
        for seed, f in figures[column].per_seed.items():
            other = figures[source].per_seed.get(seed) if source else f
            if other is not None:
                out.per_seed[f"{seed}|{column}"] = other
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--judgements", type=Path, required=True, help="the first pool: judged before any tuning")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    corpus = open_corpus(args.corpus)
    engine = Neighbourhood.open(corpus)
    judgements = Judgements.load(args.judgements)
    before = figures_of(engine, judgements, frozen_lists(args.judgements))
    folds = folds_of(judgements.strata)
    report = {"judgements": str(args.judgements), "folds": folds, "kinds": {}}

    grid = {}  # (kind, setting) → figures of every column
    for n, g, label in itertools.product(POOL_SIZES, GENERIC_SHARES, LABEL_WEIGHTS):
        serving = {kind: Serving(n, g, label) for kind in (Kind.ASPECT, Kind.UNION, Kind.INTERSECTION)}
        engine.relevant_first = RelevantFirst({**serving, Kind.BLEND: Serving(n)})
        engine._seed_rows.cache_clear()
        grid[("labelled", (n, g, label))] = figures_of(engine, judgements,
                                                       served_lists(engine, judgements.seeds, baselines=False))
    for n, g, links, label in itertools.product(POOL_SIZES, MIX_GENERIC_SHARES, LINKS_SHARES, LABEL_WEIGHTS):
        engine.relevant_first = RelevantFirst({Kind.BLEND: Serving(n, 0.0, label)})
        engine._seed_rows.cache_clear()
        mix_for = partial(default_mix, links_share=links, generic_share=g)
        grid[("mix", (n, g, links, label))] = figures_of(
            engine, judgements, served_lists(engine, judgements.seeds, mix_for=mix_for, baselines=False))

    for kind in (Kind.ASPECT, Kind.UNION, Kind.INTERSECTION, Kind.BLEND):
        family = "mix" if kind is Kind.BLEND else "labelled"
        settings = {}
        for (fam, setting), figures in grid.items():
            if fam != family:
                continue
            columns = [c for c in figures if kind_of(c) is kind]
            if not columns:
                continue
            settings[setting] = [(pooled(figures, [c]), pooled(figures, [c], "generic"), pooled(before, [c]))
                                 for c in columns]
        if not settings:
            continue
        keys = [k for triple in next(iter(settings.values())) for k in triple[0].per_seed]
        key_folds = [[k for k in keys if k.split("|")[0] in fold] for fold in folds]
        result = cross_validate(settings, key_folds)
        rows = []
        for setting, columns in settings.items():
            own, base, old = (_merge([t[i] for t in columns]) for i in range(3))
            s = own.summary()
            rows.append({"setting": list(setting), "score": s["score"], "ndcg": s["ndcg"], "precision": s["precision"],
                         "precision_vs_generic": (s["precision"] or 0) / base.summary()["precision"],
                         "shares": s["shares"], "shares_before": old.summary()["shares"], "unjudged": s["unjudged"],
                         "shown": s["shown"], "every_column_meets_bar": kind_verdict(columns, keys).meets_bar})
        report["kinds"][kind.value] = {"chosen": list(result.chosen), "per_fold": [list(c) for c in result.per_fold],
                                       "held_out": vars(result.held_out) | {"meets_bar": result.held_out.meets_bar},
                                       "held_out_folds_meeting_bar": result.held_out_met, "grid": rows}
        print(f"== {kind.value}: chosen {result.chosen}; per fold {result.per_fold}; held out: score "
              f"{result.held_out.score:.3f}, P@5 {result.held_out.precision_vs_generic:.2f}x generic, shares "
              f"{result.held_out.shares:.3f} (before {result.held_out.shares_before:.3f}); bar met in "
              f"{result.held_out_met}/{len(folds)} folds")
        for row in sorted(rows, key=lambda r: -r["score"])[:6]:
            print(f"   {row['setting']}: score {row['score']:.3f} nDCG {row['ndcg']:.3f} P/gen "
                  f"{row['precision_vs_generic']:.2f} shares {row['shares']:.3f} ({row['shares_before']:.3f}) "
                  f"unjudged {row['unjudged']}/{row['shown']} every column meets bar: {row['every_column_meets_bar']}")
    if args.output:
        args.output.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
