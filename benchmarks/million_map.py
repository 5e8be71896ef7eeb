"""A million articles on the Maps page: the density path (explore/whole_map.py, explore/map_density.py) against
its peers, in the same run.

    python -m benchmarks million_map

The corpus is the synthetic million of benchmarks/million_corpus.py, its recipe and generic vectors computed here
(the corpus's own 35-minute build is not needed for a map): vital's shipped t-SNE map is the projected base and
every recombined row is placed by its nearest base articles, as the Maps page places a large corpus. Rows:
- placing every article (the page's first open of a large corpus; cached after): seconds for 1,000,000 rows, beside
  one exact top-k search over the base per row (numpy argsort, the plain way);
- aggregating every point into the image: datashader beside a numpy bincount of the same pixels;
- open the page (benchmarks/million_map_page.py: the page's own figure functions) on a warm server until it is
  interactive (the image drawn, the seed's ★ placed, the select tools there), beside the minimal page
  (benchmarks/minimal_page.py), with the server's peak RSS. Quality: points represented, the seed found.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.common import Row, cpu_description, environment, load_average

SEED = "Marie Curie"
ATLAS_JS = """
const minimalOrOurs = window.__anSettled;
window.__anSettled = function (kind, wanted) {
  if (kind !== 'atlas') return minimalOrOurs(kind, wanted);
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale="true"], [data-testid="stSkeleton"], [data-testid="stSpinner"]')) return false;
  const map = document.querySelector('.an-map');
  if (!map || !map.anMap || !map.anMap.ready) return false;  // drawn: points and density images on the canvas
  const images = (map.anMap.layout.images || []).length;
  const seed = map.anMap.traces.find(t => t.name === '★ seed');
  const select = map.querySelector('.an-map-tool[data-title="Lasso Select"]');
  return images > 0 && !!seed && seed.x.length === 1 && !!select && document.body.textContent.includes(wanted);
};
"""


def million_layout(rows: int) -> tuple:
    """(vital, its generic space, the recipe's A and B rows, every row's place on the map): placed by
    explore.whole_map.whole_layout from vital's shipped t-SNE map, read from the data home's cache after."""
    from benchmarks.million_corpus import recipe, synthetic_vectors
    from explore.corpus.registry import open_corpus
    from explore.maps import DEFAULT_SAMPLE, ProjectionParams, Sample, projection_key, select_sample
    from explore.shipped_maps import shipped_projection
    from explore.spaces.registry import spaces_for
    from explore.whole_map import stored_whole_layout, whole_layout

    vital = open_corpus("vital")
    generic = spaces_for(vital, progress=False).open("generic")
    first, second = recipe(vital, rows)
    base = Sample(np.arange(len(vital)), np.zeros(0, np.int64), len(vital), False, rows)
    key, params = f"synthetic/{rows}", ProjectionParams()
    layout = stored_whole_layout(key, base, params, rows)
    if layout is None:
        coords, _ = shipped_projection(projection_key(generic), select_sample(len(vital), DEFAULT_SAMPLE), params)
        vectors = synthetic_vectors(np.asarray(generic.embeddings_, dtype=np.float32), first, second)
        layout = whole_layout(key, vectors, base, coords, params)
    return vital, generic, first, second, layout


def _placement(rows: int) -> dict:
    """Seconds to place every row (in this process, into the data home's cache), and the plain peer's seconds
    for a slice of the rows (a full argsort of the similarities to the base per row), scaled to all rows."""
    from benchmarks.million_corpus import recipe, synthetic_vectors
    from explore.corpus.registry import open_corpus
    from explore.spaces.registry import spaces_for

    started = time.perf_counter()
    million_layout(rows)
    ours = time.perf_counter() - started
    vital = open_corpus("vital")
    vectors = np.asarray(spaces_for(vital, progress=False).open("generic").embeddings_, dtype=np.float32)
    first, second = recipe(vital, len(vital) + 8192)
    extra = synthetic_vectors(vectors, first, second)[len(vital):]
    base = vectors[np.linspace(0, len(vital) - 1, 5000).round().astype(int)]
    begin = time.perf_counter()
    for chunk in range(0, len(extra), 4096):
        sims = extra[chunk:chunk + 4096] @ base.T
        np.argsort(-sims, axis=1)[:, :5]
    peer = (time.perf_counter() - begin) * (rows - len(vital)) / len(extra)
    return {"ours": ours, "peer": peer}


def _aggregation(layout: np.ndarray, repeats: int = 3) -> dict:
    """Warm seconds to aggregate every point into the 900 × 700 image's counts: datashader, numpy bincount."""
    import datashader as ds
    import pandas as pd

    from explore.map_density import IMAGE_PX, padded_range

    (x0, x1), (y0, y1) = padded_range(layout[:, 0]), padded_range(layout[:, 1])
    codes = (np.arange(len(layout)) % 12).astype(np.int32)
    frame = pd.DataFrame({"x": layout[:, 0], "y": layout[:, 1],
                          "c": pd.Categorical.from_codes(codes, [str(i) for i in range(12)])})
    width, height = IMAGE_PX

    def shader():
        ds.Canvas(plot_width=width, plot_height=height, x_range=(x0, x1), y_range=(y0, y1)).points(
            frame, "x", "y", ds.count_cat("c"))

    def plain():
        ix = np.clip(((layout[:, 0] - x0) / (x1 - x0) * width).astype(np.int64), 0, width - 1)
        iy = np.clip(((layout[:, 1] - y0) / (y1 - y0) * height).astype(np.int64), 0, height - 1)
        np.bincount((codes * height + iy) * width + ix, minlength=12 * width * height)

    times = {}
    for name, fn in (("ours", shader), ("peer", plain)):
        fn()  # warm-up: numba compiles datashader's aggregation on first use
        samples = []
        for _ in range(repeats):
            begin = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - begin)
        times[name] = statistics.median(samples)
    return times


def _rss_mib(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of a process, MiB."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def _browser(rows: int, home: Path, rounds: int) -> dict:
    from benchmarks.browser_latency import _open
    from tests.browser import chromium, served_page

    samples: dict[str, list] = {"ours": [], "minimal": []}
    with tempfile.TemporaryDirectory() as scratch, environment(ASPECTNAV_MAP_ROWS=str(rows)):
        scratch = Path(scratch)
        with served_page(home, scratch / "ours.log", "benchmark-million-map.log",
                         script="benchmarks/million_map_page.py") as (ours_url, ours_pid), \
                served_page(home, scratch / "minimal.log", "benchmark-million-map-minimal.log",
                            script="benchmarks/minimal_page.py") as (minimal_url, minimal_pid), \
                chromium(scratch / "profile") as driver:
            driver.set_script_timeout(900)
            pages = {"atlas": (f"{ours_url}/?seed={SEED.replace(' ', '+')}", f"Seed: {SEED}"),
                     "minimal": (minimal_url, "Chosen: none yet")}
            begin = time.perf_counter()
            _open(driver, pages["atlas"][0], "atlas", pages["atlas"][1], ATLAS_JS)  # the server's first view
            samples["first"] = time.perf_counter() - begin
            samples["represented"] = driver.execute_script(
                "return document.body.textContent.match(/([0-9,]+) articles on one map/)[1];")
            _open(driver, minimal_url, "minimal", "Chosen: none yet")
            for _ in range(rounds):
                for kind, (url, wanted) in pages.items():
                    samples["ours" if kind == "atlas" else "minimal"].append(_open(driver, url, kind, wanted, ATLAS_JS))
            samples["rss"], samples["peak"] = _rss_mib(ours_pid)
            samples["minimal_rss"], _ = _rss_mib(minimal_pid)  # the framework's own floor, served the same way
    return samples


def run(quick: bool = False) -> list[Row]:
    from benchmarks.common import fresh_data_home

    rows, rounds = (50_000, 1) if quick else (1_000_000, 5)
    print(f"CPU: {cpu_description()}; load average {load_average()}")
    with fresh_data_home("aspectnav-million-map-") as home:
        placed = _placement(rows)
        layout = million_layout(rows)[-1]
        aggregated = _aggregation(layout)
        browser = _browser(rows, home, rounds)
    represented = int(browser["represented"].replace(",", ""))
    load = f"load average {load_average()}"
    return [
        Row("million map", f"place every article on the map, {rows:,} (once per space; cached after)",
            placed["ours"], placed["peer"], "s", "full argsort per row, scaled from 8,192 rows",
            notes=f"explore/whole_map.py: vital's 10,033-article shipped t-SNE map as the base, each other row at the "
                  f"similarity-weighted mean of its 5 nearest of 5,000 base rows; all {len(layout):,} rows placed, "
                  f"finite: {bool(np.isfinite(layout).all())}; {load}"),
        Row("million map", f"aggregate {rows:,} points into the map's image (warm)", aggregated["ours"],
            aggregated["peer"], "s", "numpy bincount of the same pixels",
            notes="datashader count_cat, 12 labels, 900 × 700 px, median of 3 after a warm-up (numba compiles "
                  "on first use: about 2 s once per process)"),
        Row("million map", f"open the Maps density page at {rows:,} points on a warm server → interactive",
            statistics.median(browser["ours"]), statistics.median(browser["minimal"]), "s",
            "minimal page: open → 20 buttons interactive",
            spread=f"ours {min(browser['ours']):.3f}..{max(browser['ours']):.3f}; minimal "
                   f"{min(browser['minimal']):.3f}..{max(browser['minimal']):.3f}",
            notes=f"headless Chromium, {rounds} interleaved rounds, medians; interactive = script done, the density "
                  f"image drawn, the seed's ★ placed, the lasso tool there; first view of a fresh server (image "
                  f"made) {browser['first']:.1f} s; quality: points represented {represented:,} of {rows:,}, seed "
                  f"{SEED} found and marked: yes; {load}"),
        Row("million map", f"server RSS serving the density page of {rows:,} points", browser["rss"],
            browser["minimal_rss"], "MiB", "the minimal page's server after the same opens",
            notes=f"peak {browser['peak']:.0f} MiB (the placement ran in the benchmark's process, not the "
                  f"server's: the server read the cached layout)"),
    ]
