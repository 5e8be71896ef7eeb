// One map of the Maps page (drawn into its place in the maps panel, app_views/maps_panel), kept across reruns: a new
// figure (another seed, a click's mark, a selection's rings) is drawn by the same MapView (map_view.js, which comes
// before this script), so the reader's zoom, tool and hidden labels stay while the figure's uirevision does; an
// unchanged figure is left alone. The labelled points come apart from the figure ("under", the same for every seed)
// and are parsed again only when their key changes. Clicks, box and lasso selections, clicks on nothing and a density
// map's new view go back as the triggers "click", "area", "clear" and "view" (app_views/map_chart/events.py reads
// them).

function brightness(colour) { // "rgb(r, g, b)" or "rgba(r, g, b, a)" → 0 (black) .. 1 (white); null when transparent
  const parts = (colour.match(/[\d.]+/g) || []).map(Number);
  if (parts.length < 3 || (parts.length > 3 && parts[3] === 0)) return null;
  return (0.299 * parts[0] + 0.587 * parts[1] + 0.114 * parts[2]) / 255;
}

// Marks drawn for a white plot, and what they are on a dark one: the neighbours' black diamonds turn light, the faint
// light grey of articles without a label turns a faint dark grey (it must stay the least visible).
const ON_DARK = { "#111": "#e6e6e6", "#d9d9d9": "#4a4a4a" };

// The page's typeface, text colour and background (found up the page): read once for all the maps of a page (each
// read makes the browser work out the page's styles).
function pageTheme(element) {
  const style = getComputedStyle(element);
  let background = null;
  for (let node = element; node && node.nodeType === 1 && background === null; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (brightness(colour) !== null) background = colour;
  }
  return { font: style.fontFamily, ink: style.color, background };
}

// A figure's colours on that page: on a dark theme the plot a shade lighter than the page and the marks above
// recoloured (`recolour`). A density map keeps a white plot: its images are drawn on white.
function themed(figure, page) {
  const theme = { font: page.font, ink: page.ink, paper: page.background || "#ffffff",
    plot: figure.layout.plot_bgcolor || "#ffffff", recolour: {} };
  if (page.background === null || brightness(page.background) >= 0.5 || (figure.layout.images || []).length) {
    return theme;
  }
  return { ...theme, plot: "rgba(255,255,255,0.05)", recolour: ON_DARK };
}

// A layer the server serves (app_server/map_layers.py): its address is its content's digest, so the browser's cache
// keeps it across reruns and visits. The page may have started the fetch already (app_views/map_chart/prefetch.py).
function fetchLayer(address) {
  const url = new URL(address, window.location.href).href, early = window.__anMapLayers;
  const started = early && early.get(url);
  if (started) early.delete(url);
  return (started || fetch(url)).then((answer) => {
    if (!answer.ok) {
      throw Object.assign(new Error(`its points did not load (HTTP ${answer.status})`), { status: answer.status });
    }
    return answer.json();
  }, (error) => { throw Object.assign(error, { status: 0 }); });
}

// Draw the map `data` (app_views/map_chart.map_data) into `parentElement` on a page of `page` colours (pageTheme);
// `setTriggerValue(trigger, value)` sends what the reader does on it.
function drawMap(parentElement, data, setTriggerValue, page) {
  let root = parentElement.querySelector(":scope > .an-map");
  if (!root) {
    root = document.createElement("div");
    parentElement.appendChild(root);
    root.__anView = new MapView(root, (trigger, value) => root.__anSend(trigger, value));
  }
  const view = root.__anView;
  root.style.height = `${data.height}px`;
  root.__anSend = setTriggerValue;
  view.onView = data.dense ? (shown) => {
    const said = JSON.stringify(shown);
    if (said !== root.__anSentView) { root.__anSentView = said; setTriggerValue("view", shown); }
  } : null;
  if (root.__anSpec === data.spec && root.__anUnderKey === data.underKey) return;
  root.__anSpec = data.spec;
  if (root.__anUnderKey !== data.underKey) {
    root.__anUnderKey = data.underKey;
    root.__anUnder = data.underUrl ? fetchLayer(data.underUrl)
      : new Promise((resolve) => resolve(JSON.parse(data.under || "[]")));
  }
  const [spec, wanted] = [data.spec, data.underKey];
  root.__anUnder.then((under) => {
    if (root.__anSpec !== spec || root.__anUnderKey !== wanted) return; // a newer figure came meanwhile
    const figure = JSON.parse(spec);
    figure.data = [...under, ...(figure.data || [])];
    view.show(figure, themed(figure, page));
  }).catch((error) => {
    if (root.__anUnderKey !== wanted) return;
    root.__anUnderKey = null; // the next run asks again
    if (data.underUrl && !root.__anAskedInline) { // the page sends the points themselves instead
      root.__anAskedInline = true;
      view.fail("Loading the map's points another way…");
      setTriggerValue("unserved", error.status || 0);
      return;
    }
    view.fail(`The map could not be drawn: ${error.message}. Reload the page.`);
  });
}
