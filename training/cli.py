"""`python -m training train|evaluate ...`: train aspect spaces and print their evaluation table."""
from __future__ import annotations

import argparse
import dataclasses
import logging
import time
from pathlib import Path

from explore.names import name_argument
from explore.query import GENERIC, Kind, Query, split_queries
from explore.settings import data_home
from training.config import TrainingConfig
from training.validation import CHOICES


def _aspect_list(text: str) -> tuple[str, ...]:
    """`country, occupation`: spaces around the commas are not part of a name (a newline is, and is refused)."""
    return tuple(part.strip(" ") for part in text.split(",") if part.strip(" "))


def _aspect_names(text: str) -> tuple[str, ...]:
    aspect = name_argument("aspect")
    return tuple(map(aspect, _aspect_list(text)))


NAME_FIELDS = {"corpus": "corpus", "space_name": "space", "run_name": "run"}  # config field -> what it names


def _add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per TrainingConfig field, help from the field's metadata (config stays the single source)."""
    for f in dataclasses.fields(TrainingConfig):
        flag = "--" + f.name.replace("_", "-")
        default = f.default
        if f.name == "aspects":
            parser.add_argument(flag, type=_aspect_names, required=True, help=f.metadata["help"] + " Comma-separated.")
            continue
        if f.name in NAME_FIELDS:  # "" in the config means derived; given on the command line, it must be a name
            parser.add_argument(flag, type=name_argument(NAME_FIELDS[f.name]), default=default or None,
                                help=f.metadata["help"])
            continue
        kind = {"epochs": int, "batch_size": int, "learning_rate": float}.get(f.name, type(default))
        parser.add_argument(flag, type=kind, default=default, choices=CHOICES.get(f.name), help=f.metadata["help"])


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training", description="Train and evaluate aspect spaces.")
    register(parser.add_subparsers(dest="command", required=True))
    return parser


def register(sub: argparse._SubParsersAction) -> None:
    """Add `train` and `evaluate` to `sub`: this CLI's subcommands or `aspectnav`'s."""
    train = sub.add_parser("train", help="Train aspect spaces (combine=single with several aspects: one run each).")
    _add_config_arguments(train)
    train.add_argument("--force", action="store_true", help="Retrain a finished run.")
    train.add_argument("--quiet", action="store_true", help="No progress bars.")
    train.set_defaults(func=cmd_train)

    evaluate = sub.add_parser("evaluate", help="Evaluate spaces as aspect retrieval and Explore's columns on read-next "
                                               "judgements; print the tables.")
    evaluate.add_argument("--corpus", default="vital")
    evaluate.add_argument("--judgements", nargs="+", type=Path, default=[],
                          help="Read-next judgement files (assets/judgements/PROTOCOL.md; later pools after the first): "
                               "prints worth reading and shares the aspect for each column Explore draws on the "
                               "judged seeds, now and (from the first file) at the judged release.")
    evaluate.add_argument("--spaces", type=split_queries, default=None,
                          help="Comma-separated rows: space names (`generic`, `country`, `union`, ...) or queries as "
                               "everywhere (`links`: the links column; `aspect:country`, "
                               "`blend:country:0.5,occupation:0.5`, ...); `label=row` names a table row. Each row is "
                               "ranked exactly as the app serves it.")
    evaluate.add_argument("--aspects", type=_aspect_list, default=None,
                          help="Columns of the aspect-retrieval table (needed with --spaces).")
    evaluate.add_argument("--combined", type=lambda s: [tuple(g.split("+")) for g in s.split(",") if g], default=[],
                          help="Aspect groups such as country+occupation: adds `any:country+occupation` (shares either, "
                               "what a union space is for) and `all:country+occupation` (shares both) columns.")
    evaluate.add_argument("--own-aspects", type=lambda s: tuple(a for a in s.replace("+", ",").split(",") if a),
                          default=(), help="Aspects such as country,occupation,topic: adds the column `own:...`, the "
                                           "seed's own aspects (seeds labelled in any; nDCG gain: how many of them a "
                                           "neighbour shares), what each seed's default mix (`default-mix`) is for.")
    evaluate.add_argument("--seed", type=int, default=42, help="Split seed; must be the runs' seed.")
    evaluate.add_argument("--test-fraction", type=float, default=0.2)
    evaluate.add_argument("--k", type=int, default=10)
    evaluate.add_argument("--output", type=Path, default=None,
                          help="Report path stem (.json and .md are written); default under the data home.")
    evaluate.set_defaults(func=cmd_evaluate)

    summarize = sub.add_parser("summarize", help="Average evaluation reports of other seeds: mean ± sd per figure.")
    summarize.add_argument("reports", nargs="+", type=Path, help="Report .json files (same rows and columns).")
    summarize.add_argument("--output", type=Path, required=True, help="Report path stem (.json and .md are written).")
    summarize.set_defaults(func=cmd_summarize)


def configs_from(args: argparse.Namespace) -> list[TrainingConfig]:
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(TrainingConfig)}
    values |= {key: values[key] or "" for key in ("run_name", "space_name")}  # not given: derived
    if values["combine"] == "single" and len(values["aspects"]) > 1:
        named = {key: values.pop(key) for key in ("run_name", "space_name")}
        aspects = values.pop("aspects")
        return [TrainingConfig(**values, aspects=(aspect,),
                               **{key: f"{name}-{aspect}" if name else "" for key, name in named.items()})
                for aspect in aspects]
    return [TrainingConfig(**values)]


def cmd_train(args: argparse.Namespace) -> int:
    from explore.corpus.registry import open_corpus
    from training.pipeline import prepare, train

    configs = configs_from(args)
    corpus = open_corpus(configs[0].corpus)
    prepared = [prepare(config, corpus) for config in configs]  # every run's input is checked before any trains
    for config, inputs in zip(configs, prepared):
        began = time.perf_counter()
        run = train(config, corpus=corpus, progress=not args.quiet, force=args.force, prepared=inputs)
        info = run.info
        primary = ", ".join(f"{k} {v:.3f}" for k, v in info.get("primary_metric", {}).items())
        print(f"space {config.space_name}: {primary} (trained in {info.get('train_seconds')} s, "
              f"wall {time.perf_counter() - began:.1f} s); run {run.path}")
    return 0


def evaluation_rows(items: list[str], space_names: list[str]) -> list[tuple[str, "Query | DefaultMix", bool]]:
    """(row label, query, whether the item named its row) per `--spaces` item: `[label=]query`, where a
    bare word that names one of `space_names` is that space (`union` is the space called union, even
    beside other union spaces) and `default-mix[:share]` is each seed's default mix (training.rankings.DefaultMix)."""
    from training.rankings import DefaultMix

    rows = []
    for item in items:
        label, sep, text = item.partition("=")
        labelled = bool(sep) and ":" not in label  # an '=' after a ':' is an old blend spelling, not a label
        if not labelled:
            label, text = item, item
        text = text.strip()
        if DefaultMix.spelt(text):
            query = DefaultMix.parse(text)
        else:
            query = Query(Kind.SPACE, text) if text in space_names else Query.parse(text)
        rows.append((label.strip(), query, labelled))
    return rows


def cmd_evaluate(args: argparse.Namespace) -> int:
    from explore.corpus.registry import open_corpus
    from explore.neighbours import Neighbourhood
    from training.evaluation import AspectRetrievalEvaluator
    from training.export import trained_split
    from explore.query import LINKS
    from explore.ranking import LINKS_COMPONENT
    from training.rankings import QueryRanking, ranking_for
    from training.report import EvaluationReport
    from training.splits import split_by_article
    from training.validation import TrainingInputError

    if not args.judgements and not args.spaces:
        raise TrainingInputError("Give --spaces and --aspects (aspect retrieval), --judgements (worth reading), or both.")
    if bool(args.spaces) != bool(args.aspects):
        raise TrainingInputError("--spaces and --aspects go together: the rows and the columns of the aspect-retrieval "
                                 "table.")
    corpus = open_corpus(args.corpus)
    stem = args.output or data_home() / "training" / "reports" / f"{corpus.name}-s{args.seed}"
    if args.judgements:
        evaluate_judged(corpus, args.judgements, Path(f"{stem}-judged"))
    if not args.spaces:
        return 0
    unknown = [a for a in [*args.aspects, *(a for g in args.combined for a in g), *args.own_aspects]
               if a not in corpus.aspect_names]
    if unknown:
        raise TrainingInputError(f"Corpus {corpus.name!r} has no aspect {', '.join(unknown)}; "
                                 f"its aspects: {', '.join(corpus.aspect_names)}.")
    split = split_by_article(corpus, args.seed, args.test_fraction)
    engine = Neighbourhood.open(corpus)
    rows = [(label, ranking_for(engine, query), labelled)
            for label, query, labelled in evaluation_rows(args.spaces, list(engine.spaces))]
    for _, ranking, _ in rows:  # a space trained on another split has seen this split's test articles
        for name in set(ranking.mix) - {LINKS_COMPONENT}:
            fingerprint = trained_split(engine.spaces[name])
            if fingerprint not in (None, split.fingerprint):
                raise TrainingInputError(f"Space {name!r} was trained on another split than seed {split.seed} / "
                                         f"test fraction {split.test_fraction}.")
    links = QueryRanking(engine, LINKS) if LINKS in engine.available_queries() else None
    evaluator = AspectRetrievalEvaluator(corpus, split, args.aspects, k=args.k, combined=args.combined,
                                         own=args.own_aspects, reference=QueryRanking(engine, GENERIC), links=links)
    report = EvaluationReport(corpus.name, evaluator.columns, args.k, split.describe())
    for label, ranking, labelled in rows:  # a named row notes what it ranks by
        report.add(label, evaluator.evaluate(ranking), note=str(ranking.query) if labelled else "")
    json_path, md_path = report.save(Path(stem))
    print(report.to_markdown())
    from training.full_spaces import free_text_lines

    used = {name for _, ranking, _ in rows for name in ranking.mix if name in engine.spaces}
    for line in free_text_lines({name: engine.spaces[name] for name in sorted(used)}):
        print(line)
    print(f"Written: {json_path} and {md_path}")
    return 0


def evaluate_judged(corpus, paths: list[Path], stem: Path) -> None:
    """Print and save the judged table: Explore's columns as served now, and as the first pool froze them."""
    from explore.neighbours import Neighbourhood
    from training.baseline_comparison import versus_baseline
    from training.judged_columns import figures_of, frozen_lists, served_lists
    from training.judged_report import JudgedReport
    from training.judgements import Judgements

    judgements = Judgements.load(*paths)
    judgements.check_against(corpus)  # its name, content hash, seeds and candidates: nothing counted that is not there
    engine = Neighbourhood.open(corpus)
    report = JudgedReport(corpus.name, [str(p) for p in paths], judgements.pairs())
    served = served_lists(engine, judgements.seeds)
    figures = figures_of(engine, judgements, served)
    report.add("Explore's columns, served now", figures, versus_baseline(engine, judgements, served, figures))
    try:
        frozen = frozen_lists(paths[0])
    except (KeyError, ValueError):
        frozen = None  # judgements without the columns they were pooled from
    if frozen:
        report.add("The columns as judged (the release the first pool froze)", figures_of(engine, judgements, frozen))
    json_path, md_path = report.save(stem)
    print(report.to_markdown())
    print(f"Written: {json_path} and {md_path}")


def cmd_summarize(args: argparse.Namespace) -> int:
    from training.report import EvaluationReport
    from training.validation import TrainingInputError

    reports = []
    for path in args.reports:
        try:
            reports.append(EvaluationReport.load(path))
        except (OSError, ValueError) as error:
            raise TrainingInputError(f"Cannot read report {path}: {error}") from None
    try:
        summary = EvaluationReport.mean_of(reports)
    except ValueError as error:
        raise TrainingInputError(str(error)) from None
    json_path, md_path = summary.save(args.output)
    print(summary.to_markdown())
    print(f"Written: {json_path} and {md_path}")
    return 0


def configure_logging() -> None:
    """Progress of a training run at INFO; the libraries it drives only from WARNING."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    for noisy in ("sentence_transformers", "httpx", "datasets"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def main(argv: list[str] | None = None) -> int:
    configure_logging()
    from explore.cli import run_command

    return run_command(build_parser().parse_args(argv))
