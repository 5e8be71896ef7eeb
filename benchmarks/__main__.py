"""`python -m benchmarks all [--quick]`: every benchmark, one table, JSON and RESULTS.md.

`python -m benchmarks NAME [NAME ...]` runs some of them. --quick keeps them working in CI
(small sizes, one run); its figures are not the ones to report. `python -m benchmarks render`
rewrites RESULTS.md from results.json (after editing NOTES.md) without measuring again.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from dataclasses import fields
from datetime import datetime, timezone
from pathlib import Path

from benchmarks.common import Row, load_average, machine

BENCHMARKS = ["corpus_load", "first_start", "neighbours_bench", "encode", "projection", "first_maps", "app_seed_change", "seed_columns", "read_more",
              "browser_latency", "page_latency", "training_throughput", "study_writes", "study_load", "study_online", "scale", "dump_import",
              "import_memory", "serving", "ray_cluster_encode", "million_map",
              "compressed_index"]
ON_DEVICE = ["gpu"]  # needs a GPU: run by name on the device (`python -m benchmarks gpu --out results-gpu.json`), not in `all`
HERE = Path(__file__).resolve().parent


def _format(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "ms" or unit == "s":
        return f"{value:.3g} {unit}"
    return f"{value:.4g}{(' ' + unit) if unit else ''}"


def table(rows: list[Row]) -> str:
    lines = ["| group | metric | ours | peer | ratio (ours/peer) | spread | notes |", "|---|---|---|---|---|---|---|"]
    for row in rows:
        ratio = "—" if row.ratio is None else f"{row.ratio:.2f}" if row.ratio >= 0.1 else f"{row.ratio:.2g}"
        lines.append(f"| {row.group} | {row.metric} | {_format(row.ours, row.unit)} | "
                     f"{_format(row.peer, row.unit)} ({row.peer_name}) | {ratio} | {row.spread} | {row.notes} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("names", nargs="+", help=f"'all', 'render' or some of: {', '.join(BENCHMARKS)}")
    parser.add_argument("--quick", action="store_true", help="small sizes, one run: keeps them working in CI")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON file (default: benchmarks/results.json for `all`, results-some.json for a few, "
                             "results-quick.json with --quick)")
    args = parser.parse_args(argv)
    if args.names == ["render"]:
        return _render(args.out or HERE / "results.json")
    whole = args.names == ["all"]
    names = BENCHMARKS if whole else args.names
    unknown = sorted(set(names) - set(BENCHMARKS) - set(ON_DEVICE))
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(BENCHMARKS + ON_DEVICE)}")
    rows: list[Row] = []
    timings, loads = {}, {}
    when, machine_at_start = datetime.now(timezone.utc).isoformat(timespec="seconds"), machine()
    print(f"Machine: {machine_at_start}", file=sys.stderr, flush=True)  # CPU flags and load beside every figure
    for name in names:
        loads[name] = load_average()
        started = time.perf_counter()
        print(f"== {name}", file=sys.stderr, flush=True)
        rows.extend(importlib.import_module(f"benchmarks.{name}").run(quick=args.quick))
        timings[name] = round(time.perf_counter() - started, 1)
    command = "python -m benchmarks " + " ".join(argv if argv is not None else sys.argv[1:])
    result = {
        "when": when,  # the start, as the machine line's load average
        "machine": machine_at_start,
        "command": command,
        "quick": args.quick,
        "rows": [row.as_dict() for row in rows],
        "seconds_per_benchmark": timings,
        "load_average_before": loads,
    }
    rendered = table(rows)
    print(rendered)
    out = args.out or HERE / _default_out(args.quick, whole)
    out.write_text(json.dumps(result, indent=2, default=str))
    if not args.quick and whole:
        _write_results_md(result, rendered)
    return 0


def _default_out(quick: bool, whole: bool) -> str:
    """Only a full run replaces results.json: a run of a few benchmarks must not overwrite the reported table."""
    if quick:
        return "results-quick.json"
    return "results.json" if whole else "results-some.json"


def _render(results_file: Path) -> int:
    if not results_file.exists():
        print(f"no {results_file}: run `python -m benchmarks all` first", file=sys.stderr)
        return 2
    result = json.loads(results_file.read_text())
    if result.get("quick"):
        print(f"{results_file} holds quick-mode figures, which are not reported", file=sys.stderr)
        return 2
    _write_results_md(result, table(_rows(result)))
    return 0


def _loads(result: dict) -> str:
    loads = result.get("load_average_before") or {}
    return "; ".join(f"{name} {load}" for name, load in loads.items()) or "not recorded"


def _rows(result: dict) -> list[Row]:
    names = {f.name for f in fields(Row)}
    return [Row(**{key: value for key, value in row.items() if key in names}) for row in result["rows"]]


def _device_section() -> str:
    """The figures measured on a GPU machine (`python -m benchmarks gpu --out benchmarks/results-gpu.json` there),
    a table of their own: another machine than the main table's."""
    device_file = HERE / "results-gpu.json"
    if not device_file.exists():
        return ""
    result = json.loads(device_file.read_text())
    if not result.get("rows") or result.get("quick"):
        return ""
    return (f"## On a GPU\n\nCommand: `{result['command']}`  \nWhen: {result['when']}  \n"
            f"Machine: {result['machine']}\n\n{table(_rows(result))}\n\n")


def _write_results_md(result: dict, rendered: str) -> None:
    notes_file = HERE / "NOTES.md"
    notes = notes_file.read_text() if notes_file.exists() else ""
    (HERE / "RESULTS.md").write_text(
        f"# Benchmark results\n\nCommand: `{result['command']}`  \nWhen: {result['when']}  \n"
        f"Machine: {result['machine']}  \n"
        f"Load average (1/5/15 min) before each benchmark: {_loads(result)}\n\nMedians over several runs, warm-up excluded; the spread column gives "
        f"min..max. Ratio = ours / peer (times: below 1 is faster; throughputs and recall: above 1 is better).\n\n"
        f"{rendered}\n\n{_device_section()}{notes}"
    )


if __name__ == "__main__":
    sys.exit(main())
