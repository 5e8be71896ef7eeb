"""The Maps page's density path at a million points, for benchmarks/million_map.py: the synthetic million corpus
(benchmarks/million_corpus.py: its recipe and generic vectors, computed here; the corpus itself, 35 min to build, is
not needed) laid out as the Maps page lays out a large corpus (explore/whole_map.py: vital's shipped t-SNE map as the
projected base, every recombined row placed by its nearest base articles; cached in the data home, so the benchmark
places them once and times it) and drawn by the page's own functions: every point aggregated by datashader into an
image (explore/map_density.py) under the seed ★ and its neighbours, a sample's points invisible for hover and clicks,
a box or lasso selecting from all points.

    ASPECTNAV_MAP_ROWS=1000000 streamlit run benchmarks/million_map_page.py --server.fileWatcherType none
"""
import os

import numpy as np
import streamlit as st

from app_views.figures import colour_map, map_figure
from app_views.map_chart import map_data
from app_views.map_chart.events import AreaChosen
from app_views.maps_panel import PanelMap, maps_panel, panel_data
from app_views.maps_panel.events import OnMap
from app_views.markdown import escape_markdown
from benchmarks.million_map import million_layout
from explore.map_density import density_image
from explore.maps import DEFAULT_SAMPLE, MapPoints, most_labelled_aspect, point_colours, select_sample
from explore.whole_map import label_codes

st.set_page_config(page_title="million map", layout="wide")
ROWS = int(os.environ.get("ASPECTNAV_MAP_ROWS", "1000000"))


@st.cache_resource(show_spinner=False)
def atlas(rows: int):
    """The layout, colour labels and density image of `rows` synthetic articles (once per server)."""
    vital, generic, first, second, layout = million_layout(rows)
    aspect = most_labelled_aspect(vital)
    labels, ranks = point_colours(vital, range(len(vital)), aspect)
    source = np.concatenate([np.arange(len(vital)), first])  # each row's article A: its labels
    vital_codes, order = label_codes(labels, sorted(ranks, key=ranks.__getitem__))
    colours = colour_map(ranks)
    image = density_image(layout, vital_codes[source], [colours.get(label, "#777777") for label in order])
    palette = [colours.get(label, "#777777") for label in order]
    return vital, generic, first, second, layout, labels, ranks, aspect, image, vital_codes[source], palette


@st.cache_resource(show_spinner=False, max_entries=16)
def view_image(x_range: tuple[float, float], y_range: tuple[float, float]):
    """The view around the seed drawn anew at full resolution (the Maps page's `detail`), once per view."""
    return density_image(layout, codes, palette, x_range, y_range, background="white")


vital, generic, first, second, layout, labels, ranks, aspect, image, codes, palette = atlas(ROWS)
seed_title = st.query_params.get("seed", "Marie Curie")
seed = vital.find(seed_title)
seed_row = vital.position[seed.id]
found, _ = generic.nearest(generic.vector(seed_row), 11)  # the seed itself and its 10 nearest
neighbours = [int(row) for row in found if int(row) != seed_row][:10]
sample = select_sample(ROWS, DEFAULT_SAMPLE, [seed_row] + neighbours)


def title(row: int) -> str:
    if row < len(vital):
        return vital.articles[row].title
    a, b = first[row - len(vital)], second[row - len(vital)]
    return f"{vital.articles[a].title} · {vital.articles[b].title}"


rows = sample.rows.tolist()
source = [row if row < len(vital) else int(first[row - len(vital)]) for row in rows]
points = MapPoints(ids=[str(row) for row in rows], titles=[title(row) for row in rows],
                   colour=[labels[a] for a in source],
                   role=["seed" if row == seed_row else "neighbour" if row in neighbours else "sample" for row in rows],
                   coords=layout[sample.rows], placed=np.zeros(len(rows), bool),
                   legend=sorted({labels[a] for a in source} & set(ranks), key=ranks.__getitem__), ranks=ranks,
                   aspect=aspect)
st.subheader(f"{image.points:,} articles on one map")


def _chosen(event) -> None:
    if isinstance(event, OnMap) and isinstance(event.event, AreaChosen):
        st.session_state["atlas_chosen"] = event.event.rows_in(layout)


figure = map_figure(points, f"generic · synthetic layout of {ROWS:,}", colour_map(ranks), centre=True, density=image,
                    detail=view_image)
maps_panel(panel_data([], [PanelMap(map_data(figure), ())], None, None, [], [1]), _chosen)  # the Maps page's one map
chosen = st.session_state.get("atlas_chosen", np.zeros(0, int))
st.markdown(f"**Seed: {escape_markdown(seed.title)}** · selected: {len(chosen):,} articles")
