"""Maps: t-SNE (or UMAP) of two spaces side by side (the whole corpus up to 20,000 articles; above that every
article drawn by density, explore/whole_map.py and explore/map_density.py), coloured by an aspect's labels, regions
named; a found seed is marked and centred in both maps, its nearest articles listed beside them; a click marks an
article in both maps, a box or lasso selects a group in both (listed, exported as CSV).
Spaces, colouring, the label filter, the marked article, the regions and the projection live in the URL. The page is
few elements, as a page opens as fast as the browser renders its elements: the settings are one (app_views/map_controls),
and the maps with their captions, the neighbour list, the marked article and the notes another (app_views/maps_panel).

The frame (app.py) has drawn the corpus picker, the credit and k, and adopted or written the seed's URL.
"""
from __future__ import annotations

import hashlib
import logging
import time
from urllib.parse import parse_qsl

import streamlit as st

from app_views.columns import (TRAIN_WHERE, MapPlan, map_overlap, map_plan, map_projections, map_side, map_spaces,
                                missing_spaces_hint, space_key, space_label)
from app_views.corpus_choice import chosen_corpus, explore_hrefs
from app_views.engine_cache import load_engine
from app_views.figures import SELECTED_DRAWN, colour_map, density_traces, label_traces, map_figure, zooms_in
from app_views.map_chart import map_data
from app_views.map_chart.payload import MapLayer
from app_views.map_chart.prefetch import prefetch_layers
from app_views.map_chart.events import AreaChosen, MapEvent, PointClicked, PointsUnserved, ViewChanged
from app_views.maintainer_login import is_maintainer
from app_views.one_line_title import one_line_title
from app_views.map_controls import Choice, ControlChange, Count, Switch, map_controls
from app_views.maps_panel import MarkedArticle, PanelMap, maps_panel, panel_data
from app_views.maps_panel.events import OnMap, PanelEvent
from app_views.markdown import code_span, escape_markdown
from app_views.neighbour_list import list_data
from app_views.neighbour_list.events import MapFrom
from app_views.rich_line import RichLine, emphasis, plain, strong
from app_views.region_names import plot_width
from app_views.url_state import MAP_PARAMS, MAX_K, MapState, map_query, parse_map_query, seed_param
from app_views.view_session import explore_view
from app_views.view_widgets import seed_picker
from explore.commands import build_space_command
from explore.errors import AspectNavError
from explore.map_neighbours import map_neighbours
from explore.map_regions import Region, article_terms, map_regions
from explore.map_density import density_image, padded_range
from explore.map_selection import ids_of_rows, selection_csv, selection_rows
from explore.maps import (DEFAULT_SAMPLE, FULL_MAP_UP_TO, TOP_LABELS, MapPoints, Projector, most_labelled_aspect,
                          point_colours)
from explore.whole_map import label_codes, whole_layout

log = logging.getLogger("aspectnav.maps")
HIGHLIGHT = "map_highlight"  # (seed id, clicked article id): the article marked in both maps
SELECTED = "map_selected"  # the article ids a box or lasso chose in either map (whatever the seed)
# the settings' keys in the session (app_views/map_controls sets them when the reader changes one)
LEFT, RIGHT, COLOUR, REGIONS, SAMPLE = "map_left", "map_right", "map_colour", "map_regions", "map_sample"
PROJECTION = "map_projection"  # the Projector's value ("tsne" | "umap")
MIN_SAMPLE, MAX_SAMPLE = 50, 100_000  # points at most on a map
K = "k"  # the neighbours marked: the view's k, as in the URL
ONLY = "map_only"  # (aspect, label): the label filter (from the URL, e.g. a Corpus page bar), while colouring by aspect
URL_READ = "map_url_read"  # the Maps part of the URL last adopted or written: any other one was typed or loaded
LOOKED_AT = "map_looked_at"  # map key -> (its uirevision, the x and y range a reader zoomed a density map to)
INLINE = "map_points_inline"  # True once a browser could not load a map's points from their address: sent in the page
EXPLORE_FROM = "map_explore_from"  # the article a reader chose "Explore from" for: the next run switches to Explore
# Projection.source in words: in the map's title, then in the caption below it
SOURCES = {"shipped": ("shipped", "shipped with AspectNav, checksum verified"),
           "cache": ("cached", "read from the cache in your data home"),
           "computed": ("just computed", "projected just now, cached for next time")}
STAGES = {"early exaggeration": "separating clusters"}  # tsne's progress stages a reader would not know
TABLE_ROWS = 1000  # selected articles listed on the page; the CSV holds them all


def _map_event(event: MapEvent, seed_id: str | None, points: MapPoints, traces, layout=None, key: str = "",
               revision: str = "") -> None:
    """A map's click or selection (app_views/map_chart/events.py): a box or lasso selects the articles inside it in
    both maps (on a density map every article of `layout` inside it, else the map's `points` but those of labels
    hidden in the legend, `traces` the map's in the renderer's order; an empty one clears the selection); a click marks
    the clicked article in both maps, a click on nothing unmarks it; a density map's zoom or pan is kept for map `key`
    while it shows what `revision` says."""
    if isinstance(event, ViewChanged):
        looked = event.looked_at(layout) if layout is not None else None
        st.session_state[LOOKED_AT] = {**st.session_state.get(LOOKED_AT, {}), key: (revision, looked)}
    elif isinstance(event, AreaChosen):
        chosen = ids_of_rows(corpus, event.rows_in(layout)) if layout is not None else \
            event.ids_on_map(points.ids, points.coords, traces)
        st.session_state[SELECTED] = tuple(dict.fromkeys(chosen)) or None
    elif isinstance(event, PointsUnserved):
        log.warning("A map's points did not load from their address (HTTP %s): sending them in the page", event.status)
        st.session_state[INLINE] = True
    elif isinstance(event, PointClicked):
        st.session_state[HIGHLIGHT] = (seed_id, event.article_id) if event.article_id in corpus else None
    else:
        st.session_state[HIGHLIGHT] = None


def _clear_selection() -> None:
    st.session_state[SELECTED] = None


def _clear_filter() -> None:
    st.session_state[ONLY] = None


def _label_filter(aspect: str | None) -> str | None:
    """The label the maps are filtered to, if it is a label of the colouring `aspect` (said when it is not)."""
    wanted = st.session_state.get(ONLY)
    if not wanted or not aspect or wanted[0] != aspect:
        return None
    label = wanted[1]
    if not corpus.label_counts(aspect).get(label):
        st.warning(f"No article has the {escape_markdown(aspect)} label “{escape_markdown(label)}”: all labels shown.")
        st.session_state[ONLY] = None
        return None
    return label


def _selection_list(selected: tuple[str, ...], aspect: str | None) -> None:
    """The articles a box or lasso chose: how many, a table with a link to explore from each, a CSV of them."""
    rows = selection_rows(corpus, selected[:TABLE_ROWS], aspect)
    many = len(selected) > TABLE_ROWS
    st.markdown(f"**Selected: {len(selected):,} article{'s' if len(selected) != 1 else ''}** (ringed in orange in "
                "both maps; drag a box or lasso in either map to choose others)" +
                (f"; the first {len(rows):,} are listed, the CSV holds all" if many else ""))
    everything = _keep(("csv", id(corpus), aspect, hashlib.sha1("\n".join(selected).encode()).hexdigest()),
                       lambda: selection_csv(selection_rows(corpus, selected, aspect))) if many else selection_csv(rows)
    with st.container(horizontal=True, gap="small"):
        st.download_button("Download CSV (ids and titles)", everything, file_name="map-selection.csv",
                           mime="text/csv", icon=":material/download:", key="map_selection_csv")
        st.button("Clear selection", key="map_selection_clear", on_click=_clear_selection,
                  icon=":material/deselect:", type="tertiary")
    hrefs = explore_hrefs(corpus)
    table = [row | {"explore": "./" + hrefs(row["id"])} for row in rows]
    st.dataframe(table, hide_index=True, width="stretch", height=min(400, 38 + 35 * len(table)), key="map_selection",
                 column_config={"id": None, "title": "Title",
                                "explore": st.column_config.LinkColumn("Explore from", display_text="Explore from")})


def _map_from(article_id: str) -> None:
    st.session_state[HIGHLIGHT] = None
    explore_view().set_seed(article_id)


def _show_progress(titles: list[str], articles: int, projector: Projector, started: float,
                   state: dict[int, tuple[float, str]]) -> None:
    """Each map's projection progress, one bar each; called in the script's own thread while worker threads compute.
    The seconds so far say it is alive while a stage reports no fraction (UMAP's first import, its neighbour search)."""
    for side, (fraction, stage) in sorted(state.items()):
        st.progress(fraction, text=f"{projector.label} map of {articles:,} articles in {titles[side]}: "
                                   f"{STAGES.get(stage, stage)} ({time.monotonic() - started:.0f} s), {fraction:.0%}")


def _adopt_map_url(corpus, names: list[str], aspects: list[str], seed_id: str | None) -> list[str]:
    """Spaces, colouring, marked article and regions from a URL the reader loaded or typed (not the one this
    page wrote); returns what could not be used, in words."""
    params = {key: st.query_params[key] for key in MAP_PARAMS if key in st.query_params}
    if params == st.session_state.get(URL_READ):
        return []
    st.session_state[URL_READ] = params
    state = parse_map_query(params)
    problems = list(state.problems)
    for key, name, value, choices in (("left", LEFT, state.left, names), ("right", RIGHT, state.right, names),
                                      ("colour", COLOUR, state.colour, aspects)):
        if value is None:
            continue
        if value in choices:
            st.session_state[name] = value
        else:
            problems.append(f"{key}={value!r} ignored: this corpus has no such "
                            f"{'aspect' if key == 'colour' else 'space'} ({', '.join(choices) or 'none'}).")
    if state.only:
        st.session_state[ONLY] = (state.colour or st.session_state.get(COLOUR), state.only)
    elif ONLY in st.session_state:
        st.session_state[ONLY] = None
    if state.mark:
        try:
            st.session_state[HIGHLIGHT] = (seed_id, corpus.find(state.mark).id)
        except AspectNavError as error:
            problems.append(f"mark={state.mark!r} ignored: {error}")
    st.session_state[REGIONS] = state.regions
    st.session_state[PROJECTION] = state.projector.value
    return problems


def _write_map_url(corpus, state: MapState) -> None:
    query = map_query(state)
    changed = {key: query[key] for key in MAP_PARAMS if key in query and st.query_params.get(key) != query[key]}
    if changed:
        st.query_params.update(changed)  # one message to the browser (each assignment sends one)
    for key in MAP_PARAMS:
        if key not in query and key in st.query_params:
            del st.query_params[key]
    st.session_state[URL_READ] = query


@st.cache_data(max_entries=32, show_spinner=False)
def _regions(corpus_key: str, map_key: str, _points: MapPoints) -> list[Region]:
    """The named regions of a map's projected points, once per corpus content, space and sample."""
    base = [row for row, placed in enumerate(_points.placed) if not placed]
    return map_regions(_points.coords[base], [article_terms(corpus[_points.ids[row]]) for row in base])


@st.cache_resource(max_entries=16, show_spinner=False)
def _label_traces(map_key: str, _points: MapPoints, _colours: dict[str, str], dense: bool = False) -> MapLayer:
    """A map's label traces (figures.label_traces; on a density map, figures.density_traces) and their JSON, once
    per corpus object, space, sample rows, projection, colouring and filter (`map_key`), for every session and seed:
    a seed change sends only what marks the seed anew. Shared and frozen: nothing changes them."""
    return MapLayer.of(map_key, (density_traces if dense else label_traces)(_points, _colours))


@st.cache_resource(show_spinner=False)
def _kept() -> dict:
    """What every session shares of density maps, by key: whole layouts, colour codes, images (the latest few)."""
    return {}


def _keep(key: tuple, make):
    """`make()`, once per `key` for every session; `key[0]` names the kind of entry, and the oldest of more than 12
    of one kind is dropped (views around seeds come and go; a layout or a corpus's colours must stay)."""
    store = _kept()
    if key not in store:
        same = [kept for kept in store if kept[0] == key[0]]
        if len(same) >= 12:
            store.pop(same[0])
        store[key] = make()
    return store[key]


def _density(layout, aspect: str | None, only: str | None, colours: dict[str, str],
             layout_key: str):
    """Every article of one map as an image, coloured by its label (the colour codes shared by both maps), and
    the image of a range of it (the view around the seed: map_figure's `detail`)."""
    codes, order = _keep(("codes", id(corpus), corpus.content_hash, aspect, only), lambda: label_codes(
        point_colours(corpus, range(len(corpus)), aspect, only)[0], _legend_order(aspect, only)))
    palette = [colours.get(label, "#777777") for label in order]
    whole = _keep(("image", layout_key, aspect, only), lambda: density_image(
        layout, codes, palette, padded_range(layout[:, 0]), padded_range(layout[:, 1])))
    return whole, lambda x_range, y_range: _keep(("detail", layout_key, aspect, only, x_range, y_range), lambda:
                                                 density_image(layout, codes, palette, x_range, y_range,
                                                               background="white"))


def _legend_order(aspect: str | None, only: str | None) -> list[str]:
    """The coloured labels of the whole corpus, by rank (the sample's legend may miss a rare one)."""
    ranks = point_colours(corpus, [], aspect, only)[1]
    return sorted(ranks, key=ranks.__getitem__)


def _setting_changed(change: ControlChange) -> None:
    """A reader's change of a setting, kept for the rerun: k in the view (Explore's cards per column are the same k),
    the others under their keys in the session."""
    if change.key == K:
        explore_view().k = change.value
    else:
        st.session_state[change.key] = change.value


def _chosen(key: str, allowed, default):
    """The session's setting under `key` when it is one of `allowed`, else `default` (kept for the next run): a
    setting from another corpus or an older page is not one this page can draw."""
    value = st.session_state.get(key)
    if value is None or value not in allowed:  # None first: `None in range(...)` compares it with every number
        st.session_state[key] = default
    return st.session_state[key]


def _neighbours(engine, plan: MapPlan, sides, seed, titles) -> dict | None:
    """The seed's nearest articles in either space, with their similarity in each, to explore or map from."""
    if not any(plan.neighbours.values()):
        return None
    found = map_neighbours(engine, sides, plan.neighbours, seed, plan.text)
    return list_data(found, seed.title if seed else plan.text, seed is None, view.k, titles, explore_hrefs(corpus))


def _panel_event(event: PanelEvent, on_map) -> None:
    """A map's event goes to `on_map[side]`; "Map from" an article makes it the seed, "Explore from" switches to
    Explore on the next run."""
    if isinstance(event, OnMap):
        if event.side < len(on_map):
            on_map[event.side](event.event)
    elif event.article_id not in corpus:
        return
    elif isinstance(event, MapFrom):
        _map_from(event.article_id)
    else:
        st.session_state[EXPLORE_FROM] = event.article_id


def _seed_note(points: MapPoints, seed, label: str) -> RichLine:
    """How this map placed the seed, when it is not simply one of its t-SNE points; or what it lacks."""
    if points.text_placement is not None:
        return (plain(points.text_placement.describe(f"“{points.text_seed}”", points.coords) + "."),)
    if seed is None:
        return ()
    if points.seed_lacks:
        lacks = " or ".join(points.seed_lacks)
        return (emphasis(seed.title), plain(f" has no {lacks} label: where it lies on the {label} map says nothing "
                                            f"about its {lacks}."))
    if seed.id in points.ids and points.placed[points.ids.index(seed.id)]:
        return (emphasis(seed.title), plain(" is outside the sample: placed at the similarity-weighted mean of its "
                                            "nearest sampled articles."))
    return ()


view = explore_view()
corpus = chosen_corpus()
if (leaving_for := st.session_state.pop(EXPLORE_FROM, None)) in corpus:  # "Explore from" in the neighbour list
    st.switch_page("app_pages/explore.py", query_params=dict(parse_qsl(explore_hrefs(corpus)(leaving_for)[1:])))
engine, engine_problem = load_engine(corpus)
st.title("Maps")
names = map_spaces(engine) if engine is not None else []
if not names:
    st.error(escape_markdown(engine_problem) if engine_problem else "No space to map yet: " + (
        f"build one with {code_span(build_space_command(corpus.name))}." if is_maintainer() else
        "a maintainer has to build this corpus's spaces."))
    st.stop()

seed_picker(corpus, prompt="Find an article on the maps: type a title (typos, accents and case are fine)")
seed = view.seed_article(corpus)
seed_id = seed.id if seed else None
k = view.k
aspects = list(corpus.aspect_names)
for problem in _adopt_map_url(corpus, names, aspects, seed_id):
    st.warning(escape_markdown(problem))

others = [name for name in names if name != "generic"]
label = lambda name: space_label(engine, name)  # noqa: E731
spaces = tuple((name, label(name)) for name in names)
controls: list = []
if len(names) > 1:
    sides = (_chosen(LEFT, names, names[0]), _chosen(RIGHT, names, others[0] if others else names[1]))
    controls += [Choice(LEFT, "Left space", spaces, sides[0]), Choice(RIGHT, "Right space", spaces, sides[1])]
else:  # one space: one map (the same space twice would compare nothing)
    sides = (names[0],)
    st.info(f"Only the {escape_markdown(label(names[0]))} space is built, so there is one map and nothing to compare "
            "it with. " + missing_spaces_hint(corpus, engine, where=TRAIN_WHERE, maintainer=is_maintainer()))
colour_aspect = _chosen(COLOUR, aspects, most_labelled_aspect(corpus)) if aspects else None
size = _chosen(SAMPLE, range(MIN_SAMPLE, MAX_SAMPLE + 1), DEFAULT_SAMPLE)
show_regions = _chosen(REGIONS, (True, False), True)
projector = Projector.parse(_chosen(PROJECTION, [p.value for p in Projector], Projector.TSNE.value))
map_controls(controls + [
    Choice(COLOUR, "Colour by", tuple((a, a) for a in aspects) or (("", "(none)"),), colour_aspect or "",
           disabled=not aspects),
    *([Count(K, "Neighbours (k)", k, 1, MAX_K,  # only with a seed: without one there are no neighbours to mark
             help="How many of the seed's nearest articles each map marks ◇ and the list beside the maps names "
                  "(Explore shows as many per column).")] if seed is not None or view.text else []),
    Count(SAMPLE, "Points at most", size, MIN_SAMPLE, MAX_SAMPLE, step=500,
          help="A corpus with more articles is shown as a random sample."),
    Switch(REGIONS, "Name regions", show_regions),
    Choice(PROJECTION, "Projection", tuple((p.value, p.label) for p in Projector), projector.value,
           help="t-SNE keeps close neighbours together (its maps are shipped); UMAP also keeps more of the large-scale "
                "layout. A map not yet computed takes seconds to a minute."),
], _setting_changed)
only = _label_filter(colour_aspect)
map_params = projector.default_params()

try:
    plan = map_plan(engine, seed, sides, k, size, view.text)
except AspectNavError as error:  # free text this corpus's encoders cannot read
    st.error(escape_markdown(str(error)))
    plan = map_plan(engine, seed, sides, k, size)
sample = plan.sample
dense = sample.corpus_size > FULL_MAP_UP_TO  # every article drawn by density, the sample projected
marks = f": ★ the seed, ◇ its {k} nearest neighbours in that space" if seed or plan.text else ""
both = ", the same in both maps" if len(sides) == 2 else ""
shows = (f"All {sample.corpus_size:,} articles of the corpus, drawn by density (the darker, the more articles): "
         f"a map of a random sample of {len(sample.base):,}, every other article placed by its nearest sampled "
         "articles") if dense else sample.describe()
described = f"{shows}{both}{marks}. Hover for title and labels{' (of the sampled articles)' if dense else ''}; " \
            f"click a point to mark it{' in both maps' if len(sides) == 2 else ''}."
agreement = [map_overlap(engine, seed, sides)] if seed is not None and len(sides) == 2 else []

if only:
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"Only the articles labelled **{escape_markdown(colour_aspect)}: {escape_markdown(only)}** "
                    f"({corpus.label_counts(colour_aspect)[only]:,}) are in colour; the others are faint.")
        st.button("Show every label", key="map_only_clear", on_click=_clear_filter, icon=":material/filter_alt_off:",
                  type="tertiary")

rows_key = hashlib.sha1(sample.rows.tobytes()).hexdigest()[:16]
layer_name = lambda kind: (f"{id(corpus)}/{corpus.content_hash}/{space_key(engine, kind)}/{rows_key}/"  # noqa: E731
                           f"{projector}/{colour_aspect}/{only}")  # a map's labelled points, the same across seeds
marked = st.session_state.get(HIGHLIGHT)
highlight = marked[1] if marked and marked[0] == seed_id and marked[1] in corpus else None
_write_map_url(corpus, MapState(
    left=sides[0] if len(sides) > 1 else None, right=sides[1] if len(sides) > 1 else None, colour=colour_aspect,
    only=only, mark=seed_param(corpus.ids_by_title, highlight, corpus[highlight].title) if highlight else None,
    regions=show_regions, projector=projector))
# One element, always there (the panel below keeps its place, and with it each map's view): the early fetch of the
# maps' points, then a map's progress while one is computed.
early = st.empty()
with early:
    prefetch_layers([layer_name(kind) for kind in sides if not st.session_state.get(INLINE)])

selected = tuple(i for i in st.session_state.get(SELECTED) or () if i in corpus)
listed = bool(seed or plan.text)
weights = [4] * len(sides) + ([3] if listed else [])
titles = [label(kind) for kind in sides]
started = time.monotonic()
waited: list[bool] = []  # whether a map was computed (its progress drawn): the progress then goes when it is done


def _waiting(state: dict[int, tuple[float, str]]) -> None:
    """A map is being computed: each map's progress, above the maps (their panel says what they will show once
    they are drawn; until then it shows the maps before, faded as Streamlit fades what a rerun has not redrawn)."""
    waited.append(True)
    with early.container():
        _show_progress(titles, len(sample.base), projector, started, state)


projected = map_projections(engine, plan, sides, map_params, on_wait=_waiting)
layouts = [None] * len(sides)
for side, kind in enumerate(sides if dense else ()):
    def placing(fraction: float, stage: str, side=side) -> None:
        waited.append(True)
        early.progress(fraction, text=f"Placing all {sample.corpus_size:,} articles on the {titles[side]} map: "
                                      f"{fraction:.0%}")
    layouts[side] = _keep(("layout", space_key(engine, kind), sample.key, str(projector)), lambda: whole_layout(
        space_key(engine, kind), engine.spaces[kind].embeddings_, sample, projected[side].coords[:len(sample.base)],
        map_params, progress=placing))
if waited:
    early.empty()
shown, drawn, on_map = [], [], []
for side, kind in enumerate(sides):
    layout = layouts[side]
    points = map_side(engine, plan, kind, seed, colour_aspect, map_params, projected=projected[side], only=only,
                      layout=layout)
    shown.append(points)
    regions = _regions(corpus.content_hash, f"{space_key(engine, kind)}/{sample.key}/{projector}", points) \
        if show_regions else []
    key = f"map-{side}"  # the map's place in the panel: the reader's zoom on a density map is kept under it
    short, said = SOURCES.get(points.source, (points.source, points.source))
    colours = colour_map(points.ranks)
    under = _label_traces(layer_name(kind), points, colours, layout is not None)
    density, detail, selected_at = None, None, None
    if layout is not None:
        density, detail = _density(layout, colour_aspect, only, colours,
                                   f"{space_key(engine, kind)}/{sample.key}/{projector}")
        selected_at = layout[[corpus.position[i] for i in selected[:SELECTED_DRAWN]]] if selected else None
    # the reader's zoom, pan, tool and hidden labels stay while the map shows the same thing (a click marks, a
    # box selects); another seed, space, colouring or sample starts from the server's view; a changed selection
    # takes its drawn box or lasso away (the chosen articles are ringed instead)
    revision = f"{seed_id or plan.text}/{space_key(engine, kind)}/{sample.key}/{projector}/{colour_aspect}/{only}"
    looked_revision, looked = st.session_state.get(LOOKED_AT, {}).get(key, (None, None))
    figure = map_figure(points, f"{label(kind)} · {points.method}, {short}", colours, highlight, centre=True,
                        regions=regions, selected=selected, width_px=plot_width(weights, side), labelled=(),
                        density=density, selected_at=selected_at, detail=detail,
                        looked_at=looked if looked_revision == revision else None, ui_revision=revision,
                        selection_revision=hashlib.sha1("\n".join(selected).encode()).hexdigest()[:16])
    traces = under.traces + tuple(figure.data)  # the renderer's order: the labelled points, then the marks
    on_map.append(lambda event, points=points, traces=traces, layout=layout, key=key, revision=revision:
                  _map_event(event, seed_id, points, traces, layout, key, revision))
    drawn.append(PanelMap(map_data(figure, dense=layout is not None, under=under,
                                   inline=bool(st.session_state.get(INLINE))),
                          (plain(f"{map_params.describe()}: {said}."),
                           *((plain(" "), *note) if (note := _seed_note(points, seed, kind)) else ()))))

if (seed or plan.text) and zooms_in(shown[0]):  # said up there, where a reader looks first: a map cut at its edges
    two = len(sides) == 2                          # is not the whole corpus
    described += (f" {'Each map is' if two else 'The map is'} centred on ★, closer in: double-click "
                  f"{'a map' if two else 'it'} to see all of it.")
both_maps = "both maps" if len(sides) == 2 else "the map"
notes = [(plain(f"Choose a group: the box or lasso tool (top right of a map), then drag; it is ringed in {both_maps} "
                f"and listed below {'them' if len(sides) == 2 else 'it'}."),)]
if show_regions:
    notes.append((plain("Region names: k-means on each map's layout, each region named by the labels and title words "
                        "most characteristic of its articles (class-based TF-IDF); switch them off above."),))
if colour_aspect and not only:
    notes.append((plain(
        f"Colours: the {TOP_LABELS} most common {colour_aspect} labels of the whole corpus, each always in the same "
        f"colour (across seeds and in both maps); an article the source leaves without one takes the label inferred "
        f"for it (the hover says “inferred”); mid grey: other {colour_aspect} labels; faint light grey: no "
        f"{colour_aspect} label, not even an inferred one ({shown[0].unlabelled_share:.0%} of these points). " +
        ("On a density map a pixel takes the mean colour of its articles and the legend only names the colours; "
         if dense else "Click a legend entry to hide it, double-click it to show only it; ") +
        "on the Corpus page, a click on a label of a chart opens the maps filtered to it."),))
elif colour_aspect:
    notes.append((plain(f"Colours: {colour_aspect} “{only}” in colour, the other points faint."),))
marked_article = MarkedArticle(
    highlight, corpus[highlight].title,
    (plain(f"Marked in {both_maps} (red ring): "), strong(one_line_title(corpus[highlight].title))),
    explore_hrefs(corpus)(highlight)) if highlight is not None else None
maps_panel(panel_data([(plain(described),), *agreement], drawn,
                      _neighbours(engine, plan, sides, seed, titles) if listed else None, marked_article, notes,
                      weights), lambda event: _panel_event(event, on_map))

if selected:
    _selection_list(selected, colour_aspect)
