"""`python -m explore study ...`: check a study file, report on a study database."""
from __future__ import annotations

import argparse
import math
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

    simulate = commands.add_parser(
        "simulate", help="power: how often the planned tests detect the planned effect, for several numbers of participants")
    simulate.add_argument("study", nargs="?", default=DEFAULT_STUDY, help="a study file or a shipped study name")
    simulate.add_argument("--participants", default="10,20,40,80", type=_counts,
                          help="numbers of participants to simulate, comma-separated (default 10,20,40,80)")
    simulate.add_argument("--runs", type=_runs, default=200, help="simulated studies per number of participants")
    effect = simulate.add_mutually_exclusive_group()
    effect.add_argument("--means", type=_means, help="planned mean rank per source, e.g. links=6.5,generic=6,aspect=5.5,"
                                                    "union=5 (default: the study file's power: section)")
    effect.add_argument("--pilot", help="a pilot's study database (URL or SQLite file): its mean ranks are the effect")
    simulate.add_argument("--spread", type=_spread, help="how much participants differ (participant_sd; default 0.5 "
                                                       "or the study file's)")
    simulate.add_argument("--alpha", type=_alpha, default=0.05, help="significance level (default 0.05)")
    simulate.add_argument("--pairs", type=_pairs, help="planned pairwise tests, e.g. union:generic,union:aspect "
                                                       "(default: every pair)")
    simulate.add_argument("--seed", type=_seed, default=0, help="random seed (same seed, same table)")
    simulate.set_defaults(func=run_simulate)

    prereg = commands.add_parser(
        "preregister", help="write one bundle to link from a preregistration: study file, fingerprint, rules, "
                            "planned tests, power table, codebook, with its sha256")
    prereg.add_argument("study", nargs="?", default=DEFAULT_STUDY, help="a study file or a shipped study name")
    prereg.add_argument("--out", type=Path, default=Path("."), help="folder to write the bundle into (default: here)")
    prereg.add_argument("--participants", default="10,20,40,80", type=_counts,
                        help="numbers of participants for the power table (default 10,20,40,80)")
    prereg.add_argument("--runs", type=_runs, default=200, help="simulated studies per number of participants")
    prereg.add_argument("--alpha", type=_alpha, default=0.05, help="significance level (default 0.05)")
    prereg.add_argument("--pairs", type=_pairs, help="planned pairwise tests, e.g. union:generic (default: every pair)")
    prereg.add_argument("--seed", type=_seed, default=0, help="random seed of the simulation")
    prereg.set_defaults(func=run_preregister)

    report = commands.add_parser("report", help="mean rank per source, tests and exports from a study database")
    report.add_argument("database", help="SQLAlchemy URL (postgresql://…, sqlite:///…) or an SQLite file path")
    report.add_argument("--study", help="study name, when the database holds several")
    report.add_argument("--unranked", default="last", type=_unranked, help="value of unranked candidates: last (12), mid (9) or a number")
    report.add_argument("--bootstrap", type=_bootstrap, default=2000, help="bootstrap samples for the 95%% intervals")
    report.add_argument("--json", type=Path, help="write the full report with raw answers as JSON here")
    report.add_argument("--csv", type=Path, help="write the mean-rank summary as CSV here")
    report.add_argument("--answers-csv", type=Path, help="write one row per shown candidate as CSV here")
    report.add_argument("--questionnaire-csv", type=Path, help="write one row per questionnaire answer as CSV here")
    report.add_argument("--codebook", type=Path, help="write the codebook of the CSV exports (every column: name, "
                                                      "type, meaning, levels) as JSON here")
    report.set_defaults(func=run_report)

    withdraw = commands.add_parser(
        "withdraw", help="delete every row of one participant on request, keeping an audit line that names nobody")
    _participant_arguments(withdraw)
    withdraw.set_defaults(func=run_withdraw)

    mark = commands.add_parser(
        "mark", help="record that the platform reports a participant's submission returned or timed out: they leave "
                     "the task-order balance and the analysis")
    _participant_arguments(mark)
    mark.add_argument("--outcome", required=True, type=_left_outcome, help="returned or timed-out (as Prolific says)")
    mark.set_defaults(func=run_mark)

    online = commands.add_parser(
        "online", help="serve a study on the open internet: N app processes behind nginx with HTTPS, checked "
                       "through the public address, a dead process started again")
    online.add_argument("study", nargs="?", default=DEFAULT_STUDY, help="a study file or a shipped study name")
    online.add_argument("--public-url", required=True, help="the address participants open, "
                                                            "e.g. https://study.example.org/mystudy/")
    online.add_argument("--processes", default="2", help="app processes (about one per CPU core; default 2)")
    online.add_argument("--first-port", type=int, default=8601, help="loopback port of the first app process "
                                                                     "(the others follow; default 8601)")
    online.add_argument("--db", help="the study database URL (default $ASPECTNAV_STUDY_DB); PostgreSQL when "
                                     "--processes is over 1")
    online.add_argument("--cert", type=Path, required=True, help="the certificate chain the proxy shows (PEM)")
    online.add_argument("--key", type=Path, required=True, help="its private key (PEM)")
    online.add_argument("--run-dir", type=Path, default=Path("study-online"),
                        help="where the proxy's configuration, logs and pid go (default ./study-online)")
    online.add_argument("--system-nginx", action="store_true",
                        help="only write the site configuration for the system's nginx; start the app processes")
    online.add_argument("--ca-file", type=Path, help="trust this certificate when checking the public address "
                                                     "(a self-signed one on a loopback trial)")
    online.add_argument("--check-only", action="store_true", help="start, check through the public address, "
                                                                  "print the checks and stop")
    online.set_defaults(func=run_online)

    online_check = commands.add_parser(
        "online-check", help="check a running study's public address as participants reach it: HTTPS, page, "
                             "websocket, X-Forwarded-Proto, sticky routing")
    online_check.add_argument("public_url", help="e.g. https://study.example.org/mystudy/")
    online_check.add_argument("--ca-file", type=Path, help="trust this certificate (a self-signed one)")
    online_check.add_argument("--processes", help="how many processes should share the load (checks the spread)")
    online_check.set_defaults(func=run_online_check)


def _participant_arguments(parser: argparse.ArgumentParser) -> None:
    """The database and the one participant a researcher's command is about."""
    parser.add_argument("database", help="SQLAlchemy URL (postgresql://…, sqlite:///…) or an SQLite file path")
    parser.add_argument("--study", help="study name, when the database holds several")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--participant", metavar="CODE", help="the participant's code, e.g. 7KQ2-M9XD-4RTA")
    who.add_argument("--platform-id", metavar="ID", help="the id their platform sent, e.g. a Prolific PID")


MAX_PARTICIPANTS = MAX_RUNS = 100_000  # far above any study; a bigger number is a typo that would run for days
MAX_SEED = 2**32 - 1
MAX_BOOTSTRAP = 1_000_000


def _whole(text: str, low: int, high: int, rule: str) -> int:
    """`text` as an int in [low, high] (a 20-digit number is refused before numpy sees it), else `rule`."""
    try:
        value = int(text.strip()) if len(text.strip()) <= 20 else None
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{rule}, not {text!r}")
    return value


def _counts(text: str) -> list[int]:
    rule = f"each number of participants must be from 2 to {MAX_PARTICIPANTS:,} (e.g. 10,20,40)"
    counts = [_whole(part, 2, MAX_PARTICIPANTS, rule) for part in text.split(",") if part.strip()]
    if not counts:
        raise argparse.ArgumentTypeError(f"{rule}, not {text!r}")
    return counts


def _runs(text: str) -> int:
    return _whole(text, 10, MAX_RUNS, f"a whole number of simulated studies from 10 to {MAX_RUNS:,} "
                                      "(200 gives ±0.03)")


def _bootstrap(text: str) -> int:
    return _whole(text, 10, MAX_BOOTSTRAP, f"a whole number of bootstrap samples from 10 to {MAX_BOOTSTRAP:,}")


def _seed(text: str) -> int:
    return _whole(text, 0, MAX_SEED, f"a whole number from 0 to {MAX_SEED}")


def _float_or_nan(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def _alpha(text: str) -> float:
    value = _float_or_nan(text)
    if not 0 < value < 1:  # NaN fails this too
        raise argparse.ArgumentTypeError(f"a significance level between 0 and 1 (e.g. 0.05), not {text!r}")
    return value


def _spread(text: str) -> float:
    value = _float_or_nan(text)
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"a spread of 0 or more (participant_sd, e.g. 0.5), not {text!r}")
    return value


def _means(text: str) -> dict[str, float]:
    means = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        label, sep, value = part.partition("=")
        try:
            means[label.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not label.strip():
            raise argparse.ArgumentTypeError(f"{part!r}: write source=mean rank, e.g. union=5.2")
    return means


def _pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        a, sep, b = part.partition(":")
        if not sep or not a or not b:
            raise argparse.ArgumentTypeError(f"{part!r}: write source:source, e.g. union:generic")
        pairs.append((a, b))
    return pairs


def _unranked(text: str) -> str | float:
    from study.analysis import parse_unranked

    try:
        return parse_unranked(text)
    except AspectNavError:
        raise argparse.ArgumentTypeError("use last, mid or a number") from None


def _left_outcome(text: str):
    from study.outcome import Outcome, left_the_study

    try:
        outcome = Outcome.parse(text)
    except ValueError:
        outcome = None
    if outcome is None or not left_the_study(outcome):
        raise argparse.ArgumentTypeError(f"returned or timed-out, not {text!r}")
    return outcome


def _participant_store(args: argparse.Namespace):
    """The existing database (never a new empty one) and the participant the arguments name."""
    from study.participant_selector import ParticipantSelector
    from study.store import StoreConfig, open_store

    store = open_store(args.study or DEFAULT_STUDY, StoreConfig(url=args.database, create=False))
    return store, ParticipantSelector(code=args.participant, platform_id=args.platform_id)


def run_withdraw(args: argparse.Namespace) -> int:
    from study.withdrawal import WITHDRAWAL_REQUEST, withdraw

    store, who = _participant_store(args)
    done = withdraw(store, args.study, who)
    print(f"Withdrew the participant with {who}: deleted {done.participants} participant, {done.presentations} "
          f"shown task lists, {done.answers} answers and {done.questionnaire_pages} questionnaire pages.")
    print(f"Audit line kept: {done.deleted_at:%Y-%m-%d %H:%M:%S} UTC, {WITHDRAWAL_REQUEST}, the counts above "
          "(no id, no code, no answers).")
    return 0


def run_mark(args: argparse.Namespace) -> int:
    from study.platform_outcome import mark_outcome

    store, who = _participant_store(args)
    previous = mark_outcome(store, args.study, who, args.outcome)
    print(f"Marked the participant with {who} {args.outcome} (was {previous or 'in progress'}): they hold no task "
          "order any more and are left out of the analysis.")
    return 0


def _print_checks(checks) -> bool:
    for check in checks:
        print(check.line(), flush=True)
    return all(check.ok for check in checks)


def run_online(args: argparse.Namespace) -> int:
    import os

    import signal

    from study.online_checks import check_public_address
    from study.online_launch import STOP_SIGNALS, OnlineStudy, interrupted
    from study.online_settings import online_settings
    from study.store import DATABASE_ENV

    database = args.db or os.environ.get(DATABASE_ENV, "").strip()
    if not database:
        raise AspectNavError("No study database: give --db postgresql+psycopg://USER@HOST/DB (or set "
                             f"{DATABASE_ENV}); README, 'Run a study online'.")
    settings = online_settings(args.public_url, args.processes, args.first_port, database, args.study, args.cert,
                               args.key, args.run_dir, args.system_nginx)
    reachable_database(args.study, database)
    for sig in STOP_SIGNALS:  # while starting, SIGTERM and SIGHUP unwind as Ctrl-C does: what started is stopped
        signal.signal(sig, interrupted)
    study = OnlineStudy(settings)
    study.start()
    serving = False
    try:
        print(f"{settings.processes} app process(es) on 127.0.0.1:{settings.ports[0]}-{settings.ports[-1]}, "
              f"logs in {args.run_dir}", flush=True)
        if settings.system_nginx:  # the system's nginx serves the site once the researcher reloads it
            print(f"Then check it: aspectnav study online-check {settings.address.url} --processes "
                  f"{settings.processes}", flush=True)
            serving = True
            return study.serve_forever() or 0
        ok = _print_checks(check_public_address(settings.address, args.ca_file, settings.processes))
        if not ok or args.check_only:
            return 0 if ok else 1
        print(f"Serving {settings.address.url} (Ctrl-C stops).", flush=True)
        serving = True
    finally:
        if not serving:
            study.stop()
    study.serve_forever()
    return 0


def reachable_database(study_ref: str, database: str) -> None:
    """Open the study's database once before starting anything: a wrong password or a missing database is said
    now, to the researcher, not to the first participant."""
    from sqlalchemy.exc import SQLAlchemyError

    from study.definition import load_study
    from study.store import StoreConfig, open_store

    try:
        store = open_store(load_study(study_ref).name, StoreConfig(url=database))
        store.schema_version()
        store.engine.dispose()
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise AspectNavError(f"The study database cannot be used: {reason}. Check --db (or ASPECTNAV_STUDY_DB): "
                             "user, password, host and database name.") from None


def run_online_check(args: argparse.Namespace) -> int:
    from study.online_checks import check_public_address
    from study.online_settings import PublicAddress, processes_count

    processes = processes_count(args.processes) if args.processes else None
    return 0 if _print_checks(check_public_address(PublicAddress.parse(args.public_url), args.ca_file,
                                                   processes)) else 1


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


def run_simulate(args: argparse.Namespace) -> int:
    from study.definition import load_study
    from study.planned_effect import PlannedEffect
    from study.power import format_power, power_table

    study = load_study(args.study)
    if args.means:
        effect = PlannedEffect(mean_rank=args.means, source="--means")
    elif args.pilot:
        effect = _pilot_effect(args.pilot, study)
    elif study.planned_effect:
        effect = study.planned_effect
    else:
        raise AspectNavError(f"Study {study.name!r} declares no planned effect: give --means source=rank,... or "
                             "--pilot DATABASE, or add a power: section to the study file.")
    if args.spread is not None:
        effect = effect.model_copy(update={"participant_sd": args.spread})
    print(f"Study {study.name!r}: {len(study.comparison_tasks)} comparison tasks, sources "
          f"{', '.join(study.source_labels)}.")
    print(format_power(power_table(study, effect, args.participants, args.runs, args.alpha, args.pairs, args.seed)))
    return 0


def _pilot_effect(database: str, study):
    """The mean rank per source over all comparison tasks of a pilot (its declared exclusions applied)."""
    from study.planned_effect import PlannedEffect
    from study.report import study_report
    from study.store import StoreConfig, open_store

    report, _, _ = study_report(open_store(study.name, StoreConfig(url=database, create=False)), study.name)
    types = {row.task_type for row in report.summaries}
    task_type = "all" if "all" in types else next(iter(types), None)
    means = {row.source: row.mean_rank for row in report.summaries if row.task_type == task_type}
    if report.answers and report.participants_excluded == report.participants_answering:
        rules = ", ".join(f"{r.rule} {r.participants}" for r in report.exclusions if r.participants)
        raise AspectNavError(f"Every one of the {report.participants_answering} pilot participants in {database} is "
                             f"excluded by the study's declared rules ({rules}); there is nothing to estimate from.")
    if len(means) < len(study.source_labels):
        raise AspectNavError(f"The pilot in {database} has no answers for every source of study {study.name!r} yet.")
    kept = report.participants_answering - report.participants_excluded
    return PlannedEffect(mean_rank=means, source=f"a pilot of {kept} participants")


def run_report(args: argparse.Namespace) -> int:
    from study.codebook import codebook_json
    from study.report import answers_csv, format_report, load_questionnaire, questionnaire_csv, report_json, study_report, summary_csv
    from study.store import StoreConfig, open_store

    store = open_store(args.study or DEFAULT_STUDY, StoreConfig(url=args.database, create=False))
    from study.analysis_config import AnalysisConfig

    config = AnalysisConfig(unranked=args.unranked, bootstrap_samples=args.bootstrap)
    report, study, answers = study_report(store, args.study, config)
    print(format_report(report))
    for path, text in ((args.json, lambda: report_json(report, study, answers)),
                       (args.csv, lambda: summary_csv(report)),
                       (args.answers_csv, lambda: answers_csv(study, answers)),
                       (args.questionnaire_csv, lambda: questionnaire_csv(study, load_questionnaire(store, study.name))),
                       (args.codebook, lambda: codebook_json(study))):
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text(), encoding="utf-8")
            print(f"Wrote {path}")
    return 0


def run_preregister(args: argparse.Namespace) -> int:
    from study.definition import load_study, study_path
    from study.power import format_power, power_table
    from study.preregistration import write_bundle

    study = load_study(args.study)
    if study.planned_effect is None:
        raise AspectNavError(f"Study {study.name!r} declares no planned effect: add a power: section to the study "
                             "file (a preregistration states the effect it is powered for).")
    table = power_table(study, study.planned_effect, args.participants, args.runs, args.alpha, args.pairs, args.seed)
    print(format_power(table))
    written = write_bundle(study, study_path(args.study), table, args.out, args.alpha, args.pairs)
    print(f"Wrote {written.path}\nsha256 {written.sha256}  (also in {written.path.name}.sha256)")
    return 0
