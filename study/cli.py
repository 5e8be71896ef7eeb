"""`python -m explore study ...`: check a study file, report on a study database."""
from __future__ import annotations

import argparse
from pathlib import Path

from explore.errors import AspectNavError
from study.definition import DEFAULT_STUDY


def register(subparsers) -> None:
    study = subparsers.add_parser("study", help="user studies: check a study file, report on answers")
    commands = study.add_subparsers(dest="study_command", required=True)

    check = commands.add_parser("check", help="validate a study file against its corpus and preview its candidates")
    check.add_argument("study", nargs="?", default=DEFAULT_STUDY, help="a study file or a shipped study name")
    check.add_argument("--no-preview", action="store_true", help="only validate; do not run the engine")
    check.set_defaults(func=run_check)

    report = commands.add_parser("report", help="mean rank per source, tests and exports from a study database")
    report.add_argument("database", help="SQLAlchemy URL (postgresql://…, sqlite:///…) or an SQLite file path")
    report.add_argument("--study", help="study name, when the database holds several")
    report.add_argument("--unranked", default="last", type=_unranked, help="value of unranked candidates: last (12), mid (9) or a number")
    report.add_argument("--bootstrap", type=int, default=2000, help="bootstrap samples for the 95%% intervals")
    report.add_argument("--json", type=Path, help="write the full report with raw answers as JSON here")
    report.add_argument("--csv", type=Path, help="write the mean-rank summary as CSV here")
    report.add_argument("--answers-csv", type=Path, help="write one row per shown candidate as CSV here")
    report.set_defaults(func=run_report)


def _unranked(text: str) -> str | float:
    from study.analysis import parse_unranked

    try:
        return parse_unranked(text)
    except AspectNavError:
        raise argparse.ArgumentTypeError("use last, mid or a number") from None


def run_check(args: argparse.Namespace) -> int:
    from explore.corpus import open_corpus
    from study.definition import check_study, load_study

    study = load_study(args.study)
    corpus = open_corpus(study.corpus)
    provider = None
    if not args.no_preview:
        from study.engine_provider import engine_provider

        provider = engine_provider(corpus)
    study = check_study(study, corpus, *((provider.known_spaces(), provider.resolve, provider.remoteness)
                                         if provider else ()))
    print(f"Study {study.name!r} on corpus {corpus.name!r}: {len(study.tasks)} tasks — OK.")
    print(format_design(study, corpus))
    print("Tasks:")
    for task in study.tasks:
        sources = ", ".join(source.label for source in task.sources)
        check = f" [{task.check.kind} check]" if task.check else ""
        print(f"  {task.id}{check}: seed {corpus[task.seed].title!r}, {task.aspect} = {task.label!r}; "
              f"{task.candidates_per_source} per source from {sources}; rank top {task.rank_depth}")
        if provider:
            from study.candidates import candidates_for

            for candidate in candidates_for(task, provider, corpus, shuffle_seed=0):
                print(f"      {candidate.title}  [{'+'.join(candidate.sources)}]")
    return 0


def format_design(study, corpus) -> str:
    """What `study check` says of the design: task orders, check tasks and exclusion rules."""
    lines = []
    rows = study.task_order_rows
    if rows:
        lines.append(f"Task order: balanced Latin square ({len(rows)} orders, assigned in turn as participants arrive; "
                     f"every task in every position and before every other task equally often):")
        width = len(str(len(rows)))
        lines += [f"  order {i + 1:>{width}}: {' → '.join(row)}" for i, row in enumerate(rows)]
    else:
        lines.append("Task order: random per participant (declare design: {order: balanced_latin_square} to counterbalance).")
    if study.check_tasks:
        lines.append("Checks (left out of the source comparison):")
        lines += [f"  {task.id}: {task.check.describe(corpus[task.check.article].title)}" for task in study.check_tasks]
    else:
        lines.append("Checks: none (no attention item or gold task).")
    if study.exclusions:
        lines.append("Exclusion rules (applied by `study report`, which shows results with and without them):")
        lines += [f"  {rule.rule}: excludes a participant who {rule.describe()}" for rule in study.exclusions]
    else:
        lines.append("Exclusion rules: none declared.")
    return "\n".join(lines)


def run_report(args: argparse.Namespace) -> int:
    from study.report import answers_csv, format_report, report_json, study_report, summary_csv
    from study.store import StoreConfig, open_store

    store = open_store(args.study or DEFAULT_STUDY, StoreConfig(url=args.database, create=False))
    from study.analysis import AnalysisConfig

    config = AnalysisConfig(unranked=args.unranked, bootstrap_samples=args.bootstrap)
    report, study, answers = study_report(store, args.study, config)
    print(format_report(report))
    for path, text in ((args.json, lambda: report_json(report, study, answers)),
                       (args.csv, lambda: summary_csv(report)),
                       (args.answers_csv, lambda: answers_csv(study, answers))):
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text(), encoding="utf-8")
            print(f"Wrote {path}")
    return 0
