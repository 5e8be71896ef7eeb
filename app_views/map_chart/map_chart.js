// One map of the Maps page: a Plotly graph that stays mounted across reruns. A new figure (another seed, a click's
// mark, a selection's rings) is drawn with Plotly.react into the same graph, so its WebGL scene is kept; an unchanged
// figure is left alone (the reader's zoom stays). Clicks, box and lasso selections and clicks on nothing go back as
// the triggers "click", "area" and "clear" (app_views/map_chart/events.py reads them).

// Plotly draws WebGL at twice the screen's pixels whatever the screen; at the screen's own ratio (2 on a high-density
// screen, where points stay sharp) a standard screen's first draw of two 10,000-point maps is about 0.1 s sooner.
const PIXEL_RATIO = Math.min(2, Math.max(1, window.devicePixelRatio || 1));
// A double-click shows the whole map. Plotly's "reset" (double-click, the modebar's home button) would go back to the
// ranges of the graph's first figure, another seed's view once a new one is drawn into it: left out.
const CONFIG = { displaylogo: false, showTips: false, responsive: true, scrollZoom: false, doubleClick: "autosize",
  modeBarButtonsToRemove: ["resetScale2d"], plotGlPixelRatio: PIXEL_RATIO };
const MAX_LASSO = 400; // vertices of a lasso sent back (a longer one is thinned): the message stays a few KiB
let plotly = null; // Plotly.js, loaded once per page from the app's static folder

function loadPlotly(url) {
  if (!plotly) {
    plotly = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => { plotly = null; reject(new Error(`Plotly.js did not load from ${url}`)); };
      document.head.appendChild(script);
    });
  }
  return plotly;
}

function lassoOf(path) { // "M x,y L x,y ... Z" (a lasso's outline in data coordinates) → [[x, y], ...]
  const vertices = path.replace(/[MZ]/g, "").split("L").map((pair) => pair.split(",").map(Number))
    .filter((pair) => pair.length === 2 && pair.every(Number.isFinite));
  const step = Math.ceil(vertices.length / MAX_LASSO);
  return step > 1 ? vertices.filter((_, index) => index % step === 0) : vertices;
}

// The shapes chosen (boxes as [x0, x1, y0, y1], lassos as vertices) and the traces hidden in the legend.
function area(graph, event) {
  const boxes = [], lassos = [];
  for (const shape of (event && event.selections) || []) {
    if (shape.type === "rect") boxes.push([shape.x0, shape.x1, shape.y0, shape.y1].map(Number));
    else if (shape.type === "path" && shape.path) lassos.push(lassoOf(shape.path));
  }
  if (!boxes.length && !lassos.length && event && event.range) boxes.push([...event.range.x, ...event.range.y]);
  if (!boxes.length && !lassos.length && event && event.lassoPoints)
    lassos.push(event.lassoPoints.x.map((x, i) => [x, event.lassoPoints.y[i]]));
  const hidden = graph._fullData.filter((trace) => trace.visible === "legendonly").map((trace) => trace.index);
  return { boxes, lassos, hidden };
}

function listen(graph) {
  const send = (trigger, value) => graph.__anSend && graph.__anSend(trigger, value);
  graph.on("plotly_click", (event) => {
    const id = event && event.points && event.points.length ? event.points[0].customdata : null;
    if (typeof id === "string" && id) send("click", id);
  });
  graph.on("plotly_selected", (event) => {
    const chosen = area(graph, event);
    if (chosen.boxes.length || chosen.lassos.length) send("area", chosen);
  });
  graph.on("plotly_deselect", () => send("clear", true));
  // a density map's zoom or pan (not a tool switch, not a redraw): the server draws the image of the new view anew
  let pending = null, sent = "";
  graph.on("plotly_relayout", (change) => {
    if (!graph.__anDense || !change) return;
    const keys = Object.keys(change);
    if (!keys.some((key) => /^[xy]axis\.(range|autorange)/.test(key))) return;
    clearTimeout(pending);
    pending = setTimeout(() => {
      const { xaxis, yaxis } = graph._fullLayout;
      const view = change["xaxis.autorange"] || change["yaxis.autorange"] ? { whole: true }
        : { x: xaxis.range.map(Number), y: yaxis.range.map(Number) };
      const said = JSON.stringify(view);
      if (said !== sent) { sent = said; send("view", view); }
    }, 250);
  });
}

function brightness(colour) { // "rgb(r, g, b)" or "rgba(r, g, b, a)" → 0 (black) .. 1 (white); null when transparent
  const parts = (colour.match(/[\d.]+/g) || []).map(Number);
  if (parts.length < 3 || (parts.length > 3 && parts[3] === 0)) return null;
  return (0.299 * parts[0] + 0.587 * parts[1] + 0.114 * parts[2]) / 255;
}

// Marks drawn for a white plot, and what they are on a dark one: the neighbours' black diamonds turn light, the faint
// light grey of articles without a label turns a faint dark grey (it must stay the least visible).
const ON_DARK = { "#111": "#e6e6e6", "#d9d9d9": "#4a4a4a" };

// The page's typeface; on a dark theme its background and text colour, the plot a shade lighter than the page and the
// marks above recoloured. A density map keeps a white plot: its images are drawn on white.
function themed(figure, element) {
  const { layout } = figure;
  const style = getComputedStyle(element);
  layout.font = { family: style.fontFamily, ...(layout.font || {}) };
  let background = null;
  for (let node = element; node && node.nodeType === 1 && background === null; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (brightness(colour) !== null) background = colour;
  }
  if (background === null || brightness(background) >= 0.5) return;
  layout.paper_bgcolor = background;
  layout.font.color = layout.font.color || style.color;
  layout.modebar = { bgcolor: "rgba(0,0,0,0)", color: style.color, activecolor: "#ffffff", ...(layout.modebar || {}) };
  if ((layout.images || []).length) return;
  layout.plot_bgcolor = "rgba(255,255,255,0.05)";
  for (const trace of figure.data) {
    const marker = trace.marker || {};
    if (typeof marker.color === "string" && ON_DARK[marker.color.toLowerCase()]) {
      marker.color = ON_DARK[marker.color.toLowerCase()];
    }
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let graph = parentElement.querySelector(":scope > .an-map");
  if (!graph) {
    graph = document.createElement("div");
    graph.className = "an-map";
    parentElement.appendChild(graph);
  }
  graph.style.height = `${data.height}px`; // the space is kept while Plotly.js loads
  graph.__anSend = setTriggerValue;
  graph.__anDense = Boolean(data.dense);
  if (graph.__anSpec === data.spec) return;
  graph.__anSpec = data.spec;
  loadPlotly(data.plotly).then((Plotly) => {
    if (graph.__anSpec !== data.spec) return; // a newer figure came meanwhile
    const figure = JSON.parse(data.spec);
    themed(figure, parentElement);
    return Plotly.react(graph, figure.data, figure.layout, CONFIG).then(() => {
      if (!graph.__anListening) listen(graph);
      graph.__anListening = true;
    });
  }).catch((error) => {
    graph.textContent = `The map could not be drawn: ${error.message}`;
  });
}
