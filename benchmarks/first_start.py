"""First start on a fresh data home, as a server sees it and as a reader sees it.

    python -m benchmarks first_start

Server: a new process with an empty $ASPECTNAV_HOME runs the Explore page for one seed through Streamlit's
AppTest (imports, the vital corpus from its shipped build, the shipped spaces opened, the page drawn). The
peer is the same run again on the now-warm data home: what is left of a start once nothing is built.
Browser: `streamlit run serve.py` on loopback and headless Chromium; the time from asking for the page to the
generic column's neighbour cards being on screen, fresh data home against warm. Quality: the neighbours a
cold start shows are the ones a warm start shows.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Row

REPO = Path(__file__).resolve().parent.parent
SEED = "Marie Curie"
FIRST_RENDER = """
import time; began = time.perf_counter()
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({app!r}, default_timeout=300)
at.query_params["seed"] = {seed!r}
at.run()
assert not at.exception, at.exception
print(time.perf_counter() - began)
"""


def server_start(home: Path) -> float:
    """Seconds of a new process rendering the Explore page for SEED over the data home `home`."""
    code = FIRST_RENDER.format(app=str(REPO / "app.py"), seed=SEED)
    env = os.environ | {"ASPECTNAV_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def browser_start(home: Path, profile: Path, log: Path) -> tuple[float, list[str]]:
    """Seconds from asking a freshly started server for the page to the generic cards on screen, and their titles."""
    from tests.browser import buttons, chromium, streamlit_server, wait

    with streamlit_server(home, log, log_name="benchmark-first-start.log") as url, chromium(profile) as driver:
        began = time.perf_counter()
        driver.get(f"{url}/?seed={SEED.replace(' ', '+')}")
        wait(driver, lambda d: len(buttons(d, "card-generic")) >= 3, message="generic cards")
        seconds = time.perf_counter() - began
        titles = [button.text for button in buttons(driver, "card-generic")]
    return seconds, titles


def run(quick: bool = False) -> list[Row]:
    repeats = 1 if quick else 3
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as home:
            cold.append(server_start(Path(home)))
            warm.append(server_start(Path(home)))
    rows = [Row("app", "first start, server: Explore page on a fresh data home (target < 2 s)", statistics.median(cold),
                statistics.median(warm), "s", "second start, data home warm",
                spread=f"cold {min(cold):.2f}..{max(cold):.2f}; warm {min(warm):.2f}..{max(warm):.2f}",
                notes=f"{repeats} fresh homes; a new process runs app.py through AppTest for {SEED}: imports, vital "
                      "from its shipped build, shipped spaces opened (exact search, no index built), page drawn")]
    browser_cold, browser_warm, same = [], [], True
    with tempfile.TemporaryDirectory() as scratch:
        for round_ in range(repeats):
            home = Path(scratch) / f"home-{round_}"
            seconds, cold_titles = browser_start(home, Path(scratch) / f"profile-{round_}-a", Path(scratch) / "log")
            browser_cold.append(seconds)
            seconds, warm_titles = browser_start(home, Path(scratch) / f"profile-{round_}-b", Path(scratch) / "log")
            browser_warm.append(seconds)
            same &= cold_titles == warm_titles
    rows.append(Row("app", "first start, browser: neighbours on screen (target < 4 s)", statistics.median(browser_cold),
                    statistics.median(browser_warm), "s", "server restarted on the warm data home",
                    spread=f"cold {min(browser_cold):.2f}..{max(browser_cold):.2f}; "
                           f"warm {min(browser_warm):.2f}..{max(browser_warm):.2f}",
                    notes=f"headless Chromium, from asking for /?seed={SEED} on a just-started `streamlit run` to the "
                          f"generic column's cards; quality: cold and warm show the same neighbours: "
                          f"{'yes' if same else 'NO'}"))
    return rows
