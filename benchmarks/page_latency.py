"""Every page at reading speed (#37): Maps, Corpus and Evaluation opened in a real browser, and a Maps seed change,
against a minimal Streamlit page in the same run.

    python -m benchmarks page_latency

Served and driven as benchmarks/browser_latency.py does (`streamlit run serve.py` as a reader's server runs it, the
minimal page benchmarks/minimal_page.py beside it, Debian's headless Chromium, interleaved rounds after a warm-up,
medians). "Interactive" is measured inside the page on every animation frame: Streamlit's script state is notRunning,
nothing is stale, no skeleton, spinner or progress bar is left, and what a reader needs is there —
- Maps (/maps?seed=Marie+Curie): both maps drawn (app_views/maps_panel) with every point of the corpus in each, the seed's ★
  label on both, the space, colour and projection choices enabled;
- Corpus (/corpus): the title search box enabled and one label chart per aspect drawn (HTML bars: each chart's
  bars in the DOM, a number written beside every bar);
- Evaluation (/evaluation): the report choice enabled, a tab per aspect, the open tab's chart drawn (as Corpus's);
- Maps seed change: "Map from" on the first listed neighbour → both maps redrawn with that article as ★.
Quality beside each speed figure: the points counted in the maps (against the corpus's size), the charts drawn, the
new seed on both maps. Beside each, the CPU seconds the server and the browser (every Chromium process of the run's
profile) spent on the view: on a machine shared with other work, wall times stretch with the load average.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from benchmarks.browser_latency import SETTLED_JS, _server_cpu, _spread, beside_the_minimal_page
from benchmarks.common import Row

SEED = "Marie Curie"

PAGE_JS = """
window.__anPlots = function () {  // the maps that are drawn: every point and image on the canvas, labels placed
  return [...document.querySelectorAll('.an-map')].filter(m => m.anMap && m.anMap.ready
    && m.querySelector('canvas.an-map-canvas').width > 0);
};
window.__anBarCharts = function (root) {  // HTML bar charts drawn: each with its bars and a number per bar in the DOM
  return [...root.querySelectorAll('figure.an-bars')].filter(f => f.querySelector('figcaption')
    && f.querySelectorAll('.an-line').length > 0
    && [...f.querySelectorAll('.an-num')].every(n => /\\d|n\\/a/.test(n.textContent))
    && f.querySelectorAll('.an-line').length === f.querySelectorAll('.an-num').length);
};
window.__anMapPoints = function (map) {
  return map.anMap.traces.filter(t => !['★ seed', '◇ neighbours', 'clicked', 'selected'].includes(t.name))
    .reduce((n, t) => n + (t.x ? t.x.length : 0), 0);
};
window.__anPageReady = function (kind, wanted) {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return null;
  if (document.querySelector('[data-stale="true"], [data-testid="stSkeleton"], [data-testid="stSpinner"], '
                             + '[data-testid="stProgress"]')) return null;
  const enabled = sel => { const e = document.querySelector(sel); return !!e && !e.disabled
    && e.getAttribute('aria-disabled') !== 'true'; };
  const plots = window.__anPlots();
  if (kind === 'maps') {
    if (plots.length !== 2) return null;
    const seeds = plots.map(m => [...m.querySelectorAll('.an-map-note')].some(n => !n.hidden
      && n.textContent.startsWith('★ ' + wanted)));
    if (!seeds.every(Boolean)) return null;
    for (const key of ['map_left', 'map_right', 'map_colour', 'map_projection'])  // app_views/map_controls
      if (!enabled(`.an-mc [data-key="${key}"]`)) return null;
    return {points: plots.map(window.__anMapPoints), plots: plots.length};
  }
  if (kind === 'corpus') {
    const charts = window.__anBarCharts(document);
    if (!enabled('[class*="st-key-browse_query"] input') || charts.length < wanted) return null;
    return {plots: charts.length, bars: charts.map(f => f.querySelectorAll('.an-line').length)};
  }
  if (kind === 'evaluation') {
    const tabs = document.querySelectorAll('[role="tab"]');
    const panel = [...document.querySelectorAll('[role="tabpanel"]')].find(p => p.offsetParent !== null);
    const shown = panel ? window.__anBarCharts(panel) : [];
    if (!enabled('[class*="st-key-eval_report"] input') || tabs.length < wanted || shown.length < 1) return null;
    return {plots: shown.length, tabs: tabs.length};
  }
  return window.__anSettled(kind, wanted) ? {} : null;
};
window.__anPageWait = function (kind, wanted, start, done) {
  function tick() {
    const ready = window.__anPageReady(kind, wanted);
    if (ready) done([performance.now() - start, ready]);
    else if (performance.now() - start > 100000) done([-1, null]);  // under selenium's 120 s
    else requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
};
"""


def _open(driver, url: str, kind: str, wanted) -> tuple[float, dict]:
    """Seconds from asking for `url` (navigation start) until the page is interactive, and what it showed."""
    driver.get(url)
    driver.execute_script(SETTLED_JS + PAGE_JS)
    elapsed, shown = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; window.__anPageWait(arguments[0], arguments[1], 0, done);",
        kind, wanted)
    if elapsed < 0:
        raise RuntimeError(f"{url} never became interactive")
    return elapsed / 1000, shown


def _map_from(driver) -> tuple[float, str, dict]:
    """Click "Map from" on the first neighbour listed beside the maps; seconds until both maps show it as ★."""
    driver.execute_script(SETTLED_JS + PAGE_JS)
    title = driver.execute_script("return document.querySelector('.an-nl-item .an-nl-title').textContent;")
    elapsed, shown = driver.execute_async_script("""
      const [title, done] = [arguments[0], arguments[arguments.length - 1]];
      const start = performance.now();
      document.querySelector('.an-nl-item .an-nl-map').click();
      window.__anPageWait('maps', title, start, done);""", title)
    if elapsed < 0:
        raise RuntimeError(f"Map from {title!r}: the maps never showed it")
    return elapsed / 1000, title, shown


def _browser_cpu(profile: Path) -> float:
    """CPU seconds (user + system) used so far by the Chromium processes of `profile` (browser, renderer, GPU):
    the browser's share of a page, which a loaded machine stretches in wall time but not in CPU."""
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if str(profile).encode() not in (proc / "cmdline").read_bytes():
                continue
            total += _server_cpu(int(proc.name))
        except OSError:  # gone meanwhile
            continue
    return total


def _corpus_facts() -> tuple[int, int, int]:
    """The vital corpus's articles and aspects, and the shipped report's aspects (its tabs)."""
    from explore.corpus import open_corpus
    from training.report import find_reports

    corpus = open_corpus("vital")
    reports = find_reports("vital")
    return len(corpus), len(corpus.aspect_names), len(reports[0].aspects) if reports else 1


def measure(rounds: int = 3) -> dict:
    articles, aspects, tabs = _corpus_facts()
    samples: dict[str, list] = {}
    with beside_the_minimal_page("benchmark-page-latency", 400) as (ours_url, ours_pid, minimal_url, minimal_pid,
                                                                    driver, profile):
        pages = {"minimal": (minimal_url, "minimal", "Chosen: none yet", minimal_pid),
                 "maps": (f"{ours_url}/maps?seed={SEED.replace(' ', '+')}", "maps", SEED, ours_pid),
                 "corpus": (f"{ours_url}/corpus", "corpus", aspects, ours_pid),
                 "evaluation": (f"{ours_url}/evaluation", "evaluation", tabs, ours_pid)}
        for name, (url, kind, wanted, _) in pages.items():  # warm-up: the engine opened, the browser's cache filled
            _open(driver, url, kind, wanted)
        for _ in range(rounds):
            for name, (url, kind, wanted, pid) in pages.items():
                before, browser_before = _server_cpu(pid), _browser_cpu(profile)
                seconds, shown = _open(driver, url, kind, wanted)
                samples.setdefault(f"{name}_open", []).append(seconds)
                samples.setdefault(f"{name}_shown", []).append(shown)
                time.sleep(1)
                samples.setdefault(f"{name}_cpu", []).append(_server_cpu(pid) - before)
                samples.setdefault(f"{name}_browser_cpu", []).append(_browser_cpu(profile) - browser_before)
                if name == "maps":
                    before, browser_before = _server_cpu(pid), _browser_cpu(profile)
                    seconds, title, shown = _map_from(driver)
                    samples.setdefault("seed_change", []).append(seconds)
                    samples.setdefault("seed_change_shown", []).append((title, shown))
                    time.sleep(1)
                    samples.setdefault("seed_change_cpu", []).append(_server_cpu(pid) - before)
                    samples.setdefault("seed_change_browser_cpu", []).append(_browser_cpu(profile) - browser_before)
    samples["articles"], samples["aspects"], samples["tabs"] = articles, aspects, tabs
    return samples


def _cpu(s: dict, name: str) -> str:
    """CPU seconds of one view (to 1 s after it was ready), server and browser, beside the minimal page's open: on a
    loaded machine wall times stretch with the load, CPU seconds much less."""
    server, browser = statistics.median(s[f"{name}_cpu"]), statistics.median(s[f"{name}_browser_cpu"])
    floor = statistics.median(s["minimal_browser_cpu"])
    return (f"CPU per view: server {server:.2f} s, browser {browser:.2f} s ({browser / floor:.1f}x the minimal page's "
            f"{floor:.2f} s)")


def run(quick: bool = False) -> list[Row]:
    rounds = 1 if quick else 3
    s = measure(rounds)
    minimal = statistics.median(s["minimal_open"])
    notes = (f"headless Chromium, {rounds} interleaved rounds after a warm-up, medians; both servers as served "
             f"(file watcher off); interactive = script notRunning, nothing stale, no skeleton, spinner or progress "
             f"bar, plots drawn, controls enabled")
    full = sum(all(p == s["articles"] for p in shown["points"]) for shown in s["maps_shown"])
    moved = sum(all(p == s["articles"] for p in shown["points"]) for _, shown in s["seed_change_shown"])
    charts = [shown["plots"] for shown in s["corpus_shown"]]
    rows = []
    for name, what, quality in (
            ("maps", f"open /maps?seed={SEED} → both maps drawn, controls enabled (target ≤ 1.5× minimal)",
             f"quality: both maps drawn with all {s['articles']:,} points and ★ {SEED} in {full}/{len(s['maps_shown'])} opens"),
            ("corpus", "open /corpus → search box and every aspect's label chart drawn (target ≤ 1.5× minimal)",
             f"quality: {min(charts)}..{max(charts)} label charts drawn of {s['aspects']} aspects"),
            ("evaluation", "open /evaluation → report choice, tabs and the open tab's chart drawn (target ≤ 1.5× minimal)",
             f"quality: {s['tabs']} tabs, the open tab's chart drawn in every open")):
        rows.append(Row("pages", what, statistics.median(s[f"{name}_open"]), minimal, "s",
                        "minimal page: open → 20 buttons interactive",
                        spread=f"ours {_spread(s[f'{name}_open'])}; minimal {_spread(s['minimal_open'])}",
                        notes=f"{notes}; {_cpu(s, name)}; {quality}"))
    titles = sorted({title for title, _ in s["seed_change_shown"]})
    rows.append(Row("pages", "Maps: “Map from” a listed neighbour → both maps redrawn around it (target < 1 s)",
                    statistics.median(s["seed_change"]), minimal, "s", "minimal page: open → 20 buttons interactive",
                    spread=f"ours {_spread(s['seed_change'])}",
                    notes=f"{notes}; {_cpu(s, 'seed_change')}; quality: the new seed ★ on both maps with all {s['articles']:,} points in "
                          f"{moved}/{len(s['seed_change'])} changes ({', '.join(titles)})"))
    return rows
