"""What a reader waits for in a real browser, against a minimal Streamlit page in the same run.

    python -m benchmarks browser_latency

Both pages are served by `streamlit run` on loopback exactly as a reader's server would be (serve.py, app.py behind its page address hint, with the
shipped .streamlit/config.toml; the minimal page, benchmarks/minimal_page.py, with the file watcher off too) and
driven by Debian's headless Chromium, in interleaved rounds after a warm-up. "Settled"/"interactive" is
measured inside the page, on every animation frame: Streamlit's script state is notRunning, no element is
stale (greyed) and no skeleton is left, and the controls a reader needs next are present and enabled — the
search box, the cards-per-column choice, the trail's buttons, the mix's pills and every card's title link on Explore; all 20
buttons on the minimal page. Rows:
- click a card title → the new seed's page settled (minimal page: a button click → its rerun settled);
- open /?seed=… on a warm server → every widget interactive (minimal: open the page);
- server CPU seconds for one page view (the server process's own CPU time from asking to settled + 1 s).
Quality beside speed: the clicked card became the seed (its title is the page's seed heading) every time.
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from benchmarks.common import Row

REPO = Path(__file__).resolve().parent.parent
SEED = "Marie Curie"

# In-page checks, evaluated on every animation frame. `ready(kind)` says whether the page is interactive.
SETTLED_JS = """
window.__anSettled = function (kind, wanted) {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale="true"], [data-testid="stSkeleton"], [data-testid="stSpinner"]')) return false;
  if (kind === 'minimal') {
    const buttons = [...document.querySelectorAll('[class*="st-key-card-"] button')];
    const heading = document.querySelector('[data-testid="stHeading"]');
    return buttons.length === 20 && buttons.every(b => !b.disabled) && !!heading && heading.textContent.includes(wanted);
  }
  const search = document.querySelector('[class*="st-key-seed_picker"] input');
  const cards = document.querySelector('.an-k select');  // cards per column (k), the panel's own
  const titles = document.querySelectorAll('a.an-title');
  const seed = document.querySelector('.an-seed h3');
  const grid = document.querySelector('.an-grid');  // the cards drawn are the new seed's, not the last one's
  const back = document.querySelector('.an-trail .an-step');  // the panel's own controls: the trail and the mix
  const pills = document.querySelectorAll('.an-pill');
  return !!search && !search.disabled && !!cards && titles.length >= 5 && !!seed && seed.textContent.trim() === wanted
    && !!grid && grid.dataset.seed === wanted && !!back && pills.length > 0;
};
window.__anWait = function (kind, wanted, start, done) {
  function tick() {
    if (window.__anSettled(kind, wanted)) done(performance.now() - start);
    else if (performance.now() - start > 60000) done(-1);
    else requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
};
"""


def _server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _open(driver, url: str, kind: str, wanted: str, checks: str = "") -> float:
    """Seconds from asking for `url` (navigation start) until the page is interactive; `checks` (JavaScript run
    after SETTLED_JS) may wrap window.__anSettled with checks of another page kind."""
    driver.get(url)
    driver.execute_script(SETTLED_JS + checks)
    elapsed = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; window.__anWait(arguments[0], arguments[1], 0, done);",
        kind, wanted)
    if elapsed < 0:
        raise RuntimeError(f"{url} never became interactive")
    return elapsed / 1000


def _click(driver, kind: str) -> tuple[float, bool]:
    """Click the sixth card (ours: the second card of the second column) and time until settled; returns the
    seconds and whether the clicked article became the seed."""
    selector = "a.an-title" if kind == "ours" else '[class*="st-key-card-"] button'
    script = """
      const [selector, kind, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
      const target = document.querySelectorAll(selector)[6];
      const wanted = kind === 'ours' ? target.textContent.trim() : 'Chosen: ' + target.textContent.trim();
      const start = performance.now();
      target.click();
      window.__anWait(kind, wanted, start, elapsed => done([elapsed, wanted]));
    """
    driver.execute_script(SETTLED_JS)
    elapsed, wanted = driver.execute_async_script(script, selector, kind)
    if elapsed < 0:
        raise RuntimeError(f"{kind}: the page did not settle after clicking {wanted!r}")
    return elapsed / 1000, True


@contextmanager
def beside_the_minimal_page(log_stem: str, script_timeout: int):
    """app.py and the minimal page served over one fresh data home, and a headless Chromium; yields (our URL, our
    server's pid, the minimal page's URL, its pid, the driver, the browser's profile folder)."""
    from tests.browser import chromium, served_page

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        home = scratch / "home"
        with served_page(home, scratch / "ours.log", f"{log_stem}.log") as (ours_url, ours_pid), \
                served_page(home, scratch / "minimal.log", f"{log_stem}-minimal.log",
                            script="benchmarks/minimal_page.py") as (minimal_url, minimal_pid), \
                chromium(scratch / "profile") as driver:
            driver.set_script_timeout(script_timeout)
            yield ours_url, ours_pid, minimal_url, minimal_pid, driver, scratch / "profile"


def measure(rounds: int = 3) -> dict:
    """Interleaved rounds on one warm server each; returns the samples per (page, what)."""
    samples: dict[str, list[float]] = {key: [] for key in
                                       ("ours_click", "minimal_click", "ours_open", "minimal_open", "ours_cpu",
                                        "minimal_cpu")}
    with beside_the_minimal_page("benchmark-browser-latency", 120) as (ours_url, ours_pid, minimal_url, minimal_pid,
                                                                       driver, _):
        pages = {"ours": (f"{ours_url}/?seed={SEED.replace(' ', '+')}", SEED, ours_pid),
                 "minimal": (minimal_url, "Chosen: none yet", minimal_pid)}
        for kind, (url, wanted, _) in pages.items():  # warm-up: the engine opened, the browser's cache filled
            _open(driver, url, kind, wanted)
            _click(driver, kind)
        for _ in range(rounds):
            for kind, (url, wanted, pid) in pages.items():
                before = _server_cpu(pid)
                samples[f"{kind}_open"].append(_open(driver, url, kind, wanted))
                time.sleep(1)
                samples[f"{kind}_cpu"].append(_server_cpu(pid) - before)
                seconds, became_seed = _click(driver, kind)
                samples[f"{kind}_click"].append(seconds)
                samples.setdefault(f"{kind}_became_seed", []).append(float(became_seed))
    return samples


def _spread(values: list[float]) -> str:
    return f"{min(values):.3f}..{max(values):.3f}"


def run(quick: bool = False) -> list[Row]:
    rounds = 1 if quick else 5  # medians of 5: a click is ~60 ms, and one round on a 2-core machine can move it by 20
    s = measure(rounds)
    seeds_ok = f"{int(sum(s['ours_became_seed']))}/{len(s['ours_became_seed'])}"
    notes = (f"headless Chromium, {rounds} interleaved rounds after a warm-up, medians; both servers as served "
             f"(file watcher off); settled = script notRunning, nothing stale, no skeleton, controls present")
    return [
        Row("browser", "click a card title → new seed's page settled (target < 1 s, ≤ 1.5× minimal)",
            statistics.median(s["ours_click"]), statistics.median(s["minimal_click"]), "s",
            "minimal page: button click → rerun settled",
            spread=f"ours {_spread(s['ours_click'])}; minimal {_spread(s['minimal_click'])}",
            notes=f"{notes}; quality: the clicked card became the seed {seeds_ok}"),
        Row("browser", f"open /?seed={SEED} on a warm server → interactive (target ≤ 1.3× minimal)",
            statistics.median(s["ours_open"]), statistics.median(s["minimal_open"]), "s",
            "minimal page: open → 20 buttons interactive",
            spread=f"ours {_spread(s['ours_open'])}; minimal {_spread(s['minimal_open'])}",
            notes=f"{notes}; interactive = search box, cards-per-column choice, trail, mix pills and every card's title link present"),
        Row("browser", "server CPU for one page view (target < 0.15 s)",
            statistics.median(s["ours_cpu"]), statistics.median(s["minimal_cpu"]), "s",
            "minimal page: server CPU for one view",
            spread=f"ours {_spread(s['ours_cpu'])}; minimal {_spread(s['minimal_cpu'])}",
            notes="user+system CPU of the `streamlit run` process from asking for the page to 1 s after it "
                  "settled (/proc/PID/stat)"),
    ]
