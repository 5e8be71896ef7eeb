"""First Maps: server time of the Maps page's first render of the vital corpus (generic | country, the whole
corpus of 10,033 articles since issue #26, the page's defaults) on a fresh data home; ours against the page
before issue #14.

Rows:
- the page's map part (what app_pages/maps.py calls: map_projections + map_side for both sides): ours reads
  the shipped maps (verified: source "shipped", coordinates those of assets/maps); the peer computes both maps
  one after the other with the settings before #14 (openTSNE 250 + 500, Annoy kNN);
- the same pair with the shipped maps hidden, as any pair not shipped: ours computes both side by side with
  the Maps settings; the peer as above; trustworthiness@10 of the maps shown, ours against the peer's;
- side by side against one after the other, both with the Maps settings: what the threads bring on this box;
- the whole first page run (streamlit AppTest of app.py switched to Maps, corpus and engine loading included):
  with the shipped maps against with them hidden.
--quick keeps only the first row, against the maps computed side by side (the settings before #14 and the
AppTest runs take minutes).

Run alone: python -m benchmarks first_maps [--quick]
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from benchmarks.common import Row, fresh_data_home
from explore.settings import REPO_ROOT

NAMES = ("generic", "country")  # the page's default pair for vital: generic, then the first other space
BEFORE = "before #14: 250+500 openTSNE, Annoy, one side after the other"


@contextmanager
def _shipped_hidden():
    from explore import shipped_maps

    kept = shipped_maps.SHIPPED_MAPS_DIR
    with tempfile.TemporaryDirectory() as empty:
        shipped_maps.SHIPPED_MAPS_DIR = Path(empty)
        try:
            yield
        finally:
            shipped_maps.SHIPPED_MAPS_DIR = kept


def _map_part(engine, params, side_by_side: bool = True) -> tuple[float, list]:
    """Seconds of the page's map part for NAMES on an empty map cache, and the points it would draw."""
    from app_views.columns import map_plan, map_projections, map_side
    from explore.maps import DEFAULT_SAMPLE, maps_dir

    shutil.rmtree(maps_dir(), ignore_errors=True)
    plan = map_plan(engine, None, NAMES, 10, DEFAULT_SAMPLE)
    start = time.perf_counter()
    if side_by_side:
        projected = map_projections(engine, plan, NAMES, params)
        points = [map_side(engine, plan, name, None, "country", params, found) for name, found in zip(NAMES, projected)]
    else:  # the page before #14: each side's map_side projects (and caches) in turn
        points = [map_side(engine, plan, name, None, "country", params) for name in NAMES]
    return time.perf_counter() - start, points


def _median_of(repeats: int, measure) -> tuple[float, list]:
    """The median seconds of `repeats` runs of `measure` (every run draws the same maps) and the last points."""
    runs = [measure() for _ in range(repeats)]
    return float(np.median([seconds for seconds, _ in runs])), runs[-1][1]


def _trustworthiness(engine, points) -> float:
    from benchmarks.projection import trustworthiness_at_10

    corpus = engine.corpus
    values = []
    for name, side in zip(NAMES, points):
        base = ~side.placed
        rows = [corpus.position[i] for i, keep in zip(side.ids, base) if keep]
        values.append(trustworthiness_at_10(engine.spaces[name].embeddings_[rows], side.coords[base]))
    return float(np.mean(values))


def _app_first_render() -> float:
    """Seconds of one AppTest run of app.py on the Maps page, from nothing cached in the process."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from app_views.maps_panel import COMPONENT_NAME

    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(str(REPO_ROOT / "app.py"), default_timeout=900)
    at.query_params["corpus"] = "vital"
    at.switch_page("app_pages/maps.py")
    start = time.perf_counter()
    at.run()
    seconds = time.perf_counter() - start
    panels = [json.loads(e.proto.json) for e in at.get("bidi_component") if e.proto.component_name == COMPONENT_NAME]
    if at.exception or len(panels) != 1 or len(panels[0]["maps"]) != 2:
        raise RuntimeError(f"the Maps page did not draw two maps: {at.exception}")
    return seconds


def run(quick: bool = False) -> list[Row]:
    from explore.corpus import open_corpus
    from explore.maps import LEGACY_PARAMS, ProjectionParams, usable_cores
    from explore.neighbours import Neighbourhood
    from explore.shipped_maps import SHIPPED_MAPS_DIR

    params = ProjectionParams()
    rows = []
    with fresh_data_home("aspectnav-first-maps-"):
        engine = Neighbourhood.open(open_corpus("vital"), progress=False)
        from explore.maps import tsne

        tsne(engine.spaces["generic"].embeddings_[:200], ProjectionParams(early_iter=20, n_iter=20))  # warm-up
        load = f"{usable_cores()} cores, load average {os.getloadavg()[0]:.1f}"
        shipped_s, shipped = _map_part(engine, params)
        verified = all(side.source == "shipped" for side in shipped) and all(
            np.array_equal(side.coords[~side.placed], np.load(SHIPPED_MAPS_DIR / "vital" / f"{name}.npy"))
            for name, side in zip(NAMES, shipped))
        shipped_note = f"ours: shipped maps, {'verified (checksums, same coordinates)' if verified else 'NOT verified'}"
        with _shipped_hidden():
            computed_s, computed = _median_of(1 if quick else 3, lambda: _map_part(engine, params))
            if quick:  # the settings before #14 take tens of seconds: the quick run compares with today's computing
                rows.append(Row("first_maps", "first Maps, map part (generic | country, 10,033 pts): server seconds",
                                shipped_s, computed_s, "s", "computed side by side, Maps settings",
                                notes=f"{shipped_note}; {load}"))
                return rows
            one_by_one_s, _ = _median_of(3, lambda: _map_part(engine, params, side_by_side=False))
            before_s, before = _map_part(engine, LEGACY_PARAMS, side_by_side=False)
        rows += [
            Row("first_maps", "first Maps, map part (generic | country, 10,033 pts): server seconds", shipped_s,
                before_s, "s", BEFORE, notes=f"{shipped_note}; {load}"),
            Row("first_maps", "Maps, pair not shipped (shipped hidden), map part: server seconds", computed_s,
                before_s, "s", BEFORE,
                notes=f"ours: 125+250, exact kNN, both sides at once, median of 3; peer 1 run; {load}"),
            Row("first_maps", "Maps, pair not shipped: trustworthiness@10 (mean of both maps)",
                _trustworthiness(engine, computed), _trustworthiness(engine, before), "", BEFORE,
                lower_is_better=False, notes="sklearn trustworthiness, cosine, 10 neighbours, the base sample"),
            Row("first_maps", "two maps computed, Maps settings: side by side vs one after the other: seconds",
                computed_s, one_by_one_s, "s", "one after the other, all cores each",
                notes=f"ours: one thread per map, {max(1, usable_cores() // 2)} core(s) each; medians of 3; {load}"),
        ]
    with fresh_data_home("aspectnav-first-maps-"):
        app_shipped = _app_first_render()
    with fresh_data_home("aspectnav-first-maps-"), _shipped_hidden():
        app_computed = _app_first_render()
    rows.append(Row("first_maps", "first Maps page, whole AppTest run (fresh data home): seconds", app_shipped,
                    app_computed, "s", "same, shipped maps hidden (computed side by side)",
                    notes="includes opening the corpus and every space (deriving the heads): not the maps' doing"))
    return rows
