"""Draw the online study's load curve for the README: submit p95 against participants, one line per number of app
processes, the 500 ms goal dashed, from benchmarks/results-study-online.json (`python -m benchmarks study_online
--out benchmarks/results-study-online.json`) and, where it exists, results-study-online-saturation.json. A plain
SVG written here: one small chart does not need a plotting stack in the install, and an SVG reads sharp on GitHub.

    python scripts/plot_study_online.py   # writes docs/screenshots/study-online-load.svg
"""
from __future__ import annotations

import json
from html import escape
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results-study-online.json"
# The rungs past 200 participants, where more processes saturate (`run(processes=(2, 4), ladder=(300, 400),
# extras=False)` in benchmarks/study_online.py), when that run was made.
MORE = REPO / "benchmarks" / "results-study-online-saturation.json"
OUT = REPO / "docs" / "screenshots" / "study-online-load.svg"
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 380, 70, 150, 40, 70
COLOURS = {1: "#1f77b4", 2: "#ff7f0e", 4: "#2ca02c"}
GOAL_MS = 500.0


def curves(rows: list[dict]) -> dict[int, list[tuple[int, float]]]:
    found: dict[int, list[tuple[int, float]]] = {}
    for row in rows:
        extra = row.get("extra") or {}
        if row["metric"].startswith("submit p95") and "processes" in extra:
            found.setdefault(extra["processes"], []).append((extra["participants"], row["ours"]))
    return {count: sorted(points) for count, points in sorted(found.items())}


def svg(lines: dict[int, list[tuple[int, float]]], machine: str) -> str:
    xs = [x for points in lines.values() for x, _ in points]
    top_ms = max([GOAL_MS * 1.2] + [y for points in lines.values() for _, y in points]) * 1.1
    x_max = max(xs) * 1.05
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def at(x: float, y: float) -> tuple[float, float]:
        return LEFT + x / x_max * plot_w, TOP + plot_h - y / top_ms * plot_h

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" '
             'font-size="12">', f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<text x="{LEFT}" y="22" font-size="14" font-weight="bold">Submit p95 behind nginx (HTTPS), one save '
             'per participant every 20 s</text>']
    for tick in range(0, int(top_ms) + 1, 250 if top_ms < 2500 else 1000):
        _, y = at(0, tick)
        parts += [f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>',
                  f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>']
    for x in sorted(set(xs)):
        px, _ = at(x, 0)
        parts.append(f'<text x="{px:.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">{x}</text>')
    parts += [f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + plot_h}" stroke="#333"/>',
              f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#333"/>',
              f'<text x="{LEFT + plot_w / 2}" y="{TOP + plot_h + 36}" text-anchor="middle">participants</text>',
              f'<text transform="translate(18,{TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">submit p95 '
              '(ms)</text>']
    _, goal_y = at(0, GOAL_MS)
    parts += [f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{goal_y:.1f}" y2="{goal_y:.1f}" stroke="#c00" '
              'stroke-dasharray="6,4"/>', f'<text x="{LEFT + plot_w + 6}" y="{goal_y + 4:.1f}" fill="#c00">goal '
              '500 ms</text>']
    for n, (count, points) in enumerate(lines.items()):
        colour = COLOURS.get(count, "#555")
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(*p) for p in points))
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>' for x, y in (at(*p) for p in points)]
        legend_y = TOP + 20 + 20 * n
        parts += [f'<line x1="{LEFT + plot_w + 10}" x2="{LEFT + plot_w + 30}" y1="{legend_y}" y2="{legend_y}" '
                  f'stroke="{colour}" stroke-width="2.5"/>',
                  f'<text x="{LEFT + plot_w + 36}" y="{legend_y + 4}">{count} '
                  f'process{"es" if count > 1 else ""}</text>']
    parts.append(f'<text x="{LEFT}" y="{HEIGHT - 8}" font-size="10" fill="#666">{escape(machine)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    result = json.loads(RESULTS.read_text())
    rows = result["rows"] + (json.loads(MORE.read_text())["rows"] if MORE.exists() else [])
    machine = result.get("machine", "")
    machine = machine if isinstance(machine, str) else json.dumps(machine)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(svg(curves(rows), machine[:110]))
    print(f"Wrote {OUT}")


if __name__ == "__main__":
    main()
