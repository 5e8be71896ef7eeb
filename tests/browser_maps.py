"""What the browser tests read of the Maps page's maps (app_views/map_chart/map_view.js): each `.an-map` element
carries the renderer's state (`anMap`: its traces as drawn, its view, its layout, `toPixel`), its plot
(`.an-map-plot`), tools (`.an-map-tool[data-title=...]`), legend (`.an-map-legend-item`) and labels
(`.an-map-note`, `.an-map-region`) are plain DOM; selenium drives the plot with real pointer input.
"""
from __future__ import annotations

MAPS = ".an-map"
MARKS = ("★ seed", "◇ neighbours", "clicked", "selected")

# Each map as a reader sees it: trace name → colour, the legend below the plot, every label's text, the view.
READ_MAPS = """
const marks = ['★ seed', '◇ neighbours', 'clicked', 'selected'];
return Array.from(document.querySelectorAll('.an-map')).filter(m => m.anMap && m.anMap.traces).map(m => {
    const s = m.anMap, plot = m.querySelector('.an-map-plot').getBoundingClientRect();
    const legend = m.querySelector('.an-map-legend');
    const seed = s.traces.find(t => t.name === '★ seed');
    return {
        colours: Object.fromEntries(s.traces.map(t => [t.name.replace(/ \\(\\d+\\)$/, ''), t.color])),
        names: s.traces.map(t => t.name),
        offLegend: s.traces.filter(t => !t.showlegend).map(t => t.name),
        legendBottom: !!legend && !legend.hidden && legend.getBoundingClientRect().top >= plot.bottom - 1,
        annotations: [...m.querySelectorAll('.an-map-note')].map(n => n.textContent),
        regions: [...m.querySelectorAll('.an-map-region')].map(n => n.textContent),
        title: m.querySelector('.an-map-title').textContent,
        seed: seed ? {x: Array.from(seed.x), y: Array.from(seed.y)} : {x: [], y: []},
        xRange: s.xRange, yRange: s.yRange, ready: s.ready,
        points: s.traces.filter(t => !marks.includes(t.name)).reduce((n, t) => n + t.x.length, 0),
        selected: (t => t ? Array.from(t.customdata) : null)(s.traces.find(t => t.name === 'selected')),
    };
});
"""


def drawn_maps(driver) -> int:
    """How many maps are drawn (every point and image on the canvas)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.an-map')].filter(m => m.anMap && m.anMap.ready).length;")


def point_offset(driver, plot_index: int, trace_name: str | None = None, point: int = 0) -> tuple[int, int, str]:
    """Where point `point` of the trace `trace_name` (None: the first legend entry's) of map `plot_index` is, as
    selenium's offset from the centre of that map's plot, and its article id."""
    return tuple(driver.execute_script("""
        const [index, name, at] = arguments;
        const m = document.querySelectorAll('.an-map')[index], s = m.anMap;
        const trace = s.traces.find(t => name === null ? t.showlegend : t.name === name);
        const plot = m.querySelector('.an-map-plot');
        const [x, y] = s.toPixel(trace.x[at], trace.y[at]);
        return [Math.round(x - plot.clientWidth / 2), Math.round(y - plot.clientHeight / 2),
                trace.customdata.length ? trace.customdata[at] : ''];
    """, plot_index, trace_name, point))


def plot_of(driver, plot_index: int):
    """The plot area of map `plot_index`, where a drag pans, zooms or selects."""
    return driver.find_elements("css selector", f"{MAPS} .an-map-plot")[plot_index]


def choose_tool(driver, plot_index: int, title: str) -> None:
    """Press a map's tool button (`title`: "Pan", "Zoom", "Box Select", "Lasso Select", "Whole map", ...)."""
    driver.find_elements("css selector", MAPS)[plot_index].find_element(
        "css selector", f'.an-map-tool[data-title="{title}"]').click()


def clear_of_the_seed(driver, plot_index: int, trace_name: str) -> int:
    """The first point of `trace_name` on map `plot_index` in view and drawn at least 12 px from the seed's ★ (a
    neighbour drawn under the star is the star's to click), else the first point."""
    return driver.execute_script("""
        const [index, name] = arguments, s = document.querySelectorAll('.an-map')[index].anMap;
        const trace = s.traces.find(t => t.name === name), seed = s.traces.find(t => t.name === '★ seed');
        const stars = seed ? Array.from(seed.x, (x, i) => s.toPixel(x, seed.y[i])) : [];
        const plot = document.querySelectorAll('.an-map')[index].querySelector('.an-map-plot');
        for (let i = 0; i < trace.x.length; i += 1) {
          const [x, y] = s.toPixel(trace.x[i], trace.y[i]);
          const shown = x >= 10 && y >= 10 && x <= plot.clientWidth - 10 && y <= plot.clientHeight - 10;
          if (shown && stars.every(([sx, sy]) => Math.hypot(x - sx, y - sy) >= 12)) return i;
        }
        return 0;
    """, plot_index, trace_name)


def click_point(driver, plot_index: int, trace_name: str) -> str:
    """Click a point of the trace called `trace_name` in a map (the first clear of the seed's ★); returns its
    article id."""
    from selenium.webdriver.common.action_chains import ActionChains

    dx, dy, article_id = point_offset(driver, plot_index, trace_name, clear_of_the_seed(driver, plot_index, trace_name))
    ActionChains(driver).move_to_element_with_offset(plot_of(driver, plot_index), dx, dy).click().perform()
    return article_id


def hover_point(driver, plot_index: int, trace_name: str | None = None) -> str:
    """Move the pointer over the first point of `trace_name` (None: the first legend entry's); the hover label's
    text."""
    from selenium.webdriver.common.action_chains import ActionChains

    from tests.browser import wait

    dx, dy, _ = point_offset(driver, plot_index, trace_name)
    ActionChains(driver).move_to_element_with_offset(plot_of(driver, plot_index), dx, dy).perform()
    hover = driver.find_elements("css selector", MAPS)[plot_index].find_element("css selector", ".an-map-hover")
    return wait(driver, lambda d: hover.is_displayed() and hover.text, timeout=20,
                message=f"hover label of {trace_name or 'the first legend entry'}")
