// The Maps page's point renderer: draws a map figure (the subset of Plotly's figure JSON that app_views/figures.py
// writes: marker traces, layout images, annotations, a title, axis ranges) on a 2-D canvas, with hover, click, pan,
// zoom, box and lasso selection, a legend that hides and isolates labels, a whole-map view, PNG download and full
// screen. Plotly.js drew these maps with three WebGL contexts per graph; software WebGL (a machine without a GPU) made
// a map's first draw cost more than the rest of the page. The component around it is map_chart.js.

const SVG_NS = "http://www.w3.org/2000/svg";
const TYPED = { f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array, i1: Int8Array,
  u4: Uint32Array, u2: Uint16Array, u1: Uint8Array };
const HIT_PX = 7;        // a point under the pointer: within its radius and this many pixels
const CLICK_PX = 4;      // a press that moves less than this is a click, not a drag
const PAD = 0.05;        // the whole map: the points' extent and this share of it on each side
const MAX_LASSO = 400;   // vertices of a lasso sent back (a longer one is thinned): the message stays a few KiB
const MODES = ["pan", "zoom", "select", "lasso"]; // what a drag does; the other tools act at once
const TOOLS = [          // [title, icon (SVG path in a 16x16 box), mode or action]
  ["Pan", "M8 1l2 2H9v4h4V6l2 2-2 2V9H9v4h1l-2 2-2-2h1V9H3v1L1 8l2-2v1h4V3H6z", "pan"],
  ["Zoom", "M6.5 2a4.5 4.5 0 013.6 7.2l3.9 3.9-1 1-3.9-3.9A4.5 4.5 0 116.5 2zm0 1.5a3 3 0 100 6 3 3 0 000-6z", "zoom"],
  ["Box Select", "M2 2h3v1.5H3.5V5H2zm4.5 0h3v1.5h-3zM11 2h3v3h-1.5V3.5H11zM2 6.5h1.5v3H2zm10.5 0H14v3h-1.5zM2 11h1.5v1.5H5V14H2zm4.5 1.5h3V14h-3zm6-1.5H14v3h-3v-1.5h1.5z", "select"],
  ["Lasso Select", "M8 2c3.6 0 6 1.8 6 4s-2.4 4-6 4c-.7 0-1.4-.1-2-.2.3.9-.1 2-1.1 2.7-.5.4-1.1.7-1.4 1.5H2c.3-1.2 1.1-1.9 1.7-2.3.6-.5.8-1 .6-1.6C2.8 9.3 2 7.8 2 6c0-2.2 2.4-4 6-4zm0 1.5C5.2 3.5 3.5 4.8 3.5 6S5.2 8.5 8 8.5s4.5-1.3 4.5-2.5S10.8 3.5 8 3.5z", "lasso"],
  ["Zoom in", "M7 3h2v4h4v2H9v4H7V9H3V7h4z", "in"],
  ["Zoom out", "M3 7h10v2H3z", "out"],
  ["Whole map", "M8 1.5l6.5 6H12.5V14H9.5v-4h-3v4H3.5V7.5H1.5z", "whole"],
  ["Download PNG", "M7 2h2v6h2.5L8 11.5 4.5 8H7zM2 12h2v1.5h8V12h2v3H2z", "png"],
  ["Full screen", "M2 2h4v1.5H3.5V6H2zm8 0h4v4h-1.5V3.5H10zM2 10h1.5v2.5H6V14H2zm10.5 0H14v4h-4v-1.5h2.5z", "fullscreen"],
];

function values(raw) { // a figure array: a list, or Plotly's typed array ({dtype, bdata}: base64 of the bytes)
  if (raw == null) return [];
  if (Array.isArray(raw) || ArrayBuffer.isView(raw)) return raw;
  if (typeof raw === "object" && typeof raw.bdata === "string" && TYPED[raw.dtype]) {
    const text = atob(raw.bdata), bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
    return new TYPED[raw.dtype](bytes.buffer);
  }
  return [];
}

const decoder = document.createElement("textarea"); // a textarea's content is text: character references only
function decoded(text) { decoder.innerHTML = text; return decoder.value; }

// The server's labels are escaped HTML with <b>, <i> and <br> (app_views/markdown.py): those become elements, all
// else text; nothing here is parsed as markup, so a title can never be a tag.
const TAG = /<(\/?)(b|i|br)\s*\/?>/gi;
function richText(target, html) {
  target.textContent = "";
  const stack = [target];
  let last = 0;
  const text = (part) => { if (part) stack[stack.length - 1].appendChild(document.createTextNode(decoded(part))); };
  for (const match of String(html ?? "").matchAll(TAG)) {
    text(html.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[2].toLowerCase();
    if (name === "br") stack[stack.length - 1].appendChild(document.createElement("br"));
    else if (!match[1]) stack.push(stack[stack.length - 1].appendChild(document.createElement(name)));
    else if (stack.length > 1 && stack[stack.length - 1].localName === name) stack.pop();
  }
  text(String(html ?? "").slice(last));
  return target;
}

function plainText(html) { return richText(document.createElement("span"), html).textContent; }

function traceOf(raw, index, recolour) { // a figure's trace as drawn; `recolour`: colour → its stand-in on this theme
  const marker = raw.marker || {};
  const colour = typeof marker.color === "string" ? marker.color : "#636efa";
  return { index, name: raw.name || "", showlegend: raw.showlegend !== false, visible: raw.visible ?? true,
    x: values(raw.x), y: values(raw.y), customdata: values(raw.customdata), hovertext: values(raw.hovertext),
    hover: raw.hoverinfo !== "skip", color: recolour[colour.toLowerCase()] || colour,
    size: Number(marker.size ?? 6), opacity: Number(marker.opacity ?? 1), symbol: marker.symbol || "circle",
    lineWidth: Number((marker.line || {}).width ?? 0), lineColor: (marker.line || {}).color };
}

function element(tag, className, parent) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (parent) parent.appendChild(made);
  return made;
}

function svgElement(tag, parent) {
  const made = document.createElementNS(SVG_NS, tag);
  parent.appendChild(made);
  return made;
}

function markerPath(ctx, symbol, x, y, r) { // one marker's outline, added to the current path
  if (symbol.startsWith("diamond")) {
    ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y); ctx.closePath();
  } else if (symbol.startsWith("star")) {
    for (let k = 0; k < 10; k += 1) {
      const angle = -Math.PI / 2 + (k * Math.PI) / 5, radius = k % 2 ? r * 0.45 : r;
      const px = x + radius * Math.cos(angle), py = y + radius * Math.sin(angle);
      if (k) ctx.lineTo(px, py); else ctx.moveTo(px, py);
    }
    ctx.closePath();
  } else {
    ctx.moveTo(x + r, y); ctx.arc(x, y, r, 0, 2 * Math.PI);
  }
}

// Two views the server asked for, alike up to rounding (a click's rerun works its view out again in other floats).
function sameView(a, b) {
  if (!a || !b) return a === b;
  const close = (p, q) => Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) <= 1e-6 * Math.abs(q[1] - q[0]);
  return close(a.x, b.x) && close(a.y, b.y);
}

class MapView {
  constructor(root, send) {
    this.root = root;
    this.send = send;              // (trigger, value) → the page
    this.mode = "pan";
    this.shapes = [];              // the reader's selection: {box: [x0, x1, y0, y1]} or {lasso: [[x, y], ...]}
    this.images = new Map();       // source → HTMLImageElement, loaded once
    this.state = { ready: false };
    root.classList.add("an-map");
    root.anMap = this.state;
    const header = element("div", "an-map-header", root);
    this.title = element("div", "an-map-title", header);
    this.tools = element("div", "an-map-tools", header);
    this.tools.setAttribute("role", "toolbar");
    this.tools.setAttribute("aria-label", "Map tools");
    for (const [title, icon, action] of TOOLS) {
      const button = element("button", "an-map-tool", this.tools);
      button.type = "button";
      button.dataset.title = title;
      button.dataset.action = action;
      button.title = title;
      button.setAttribute("aria-label", title);
      const svg = svgElement("svg", button);
      svg.setAttribute("viewBox", "0 0 16 16");
      svg.setAttribute("aria-hidden", "true");
      svgElement("path", svg).setAttribute("d", icon);
      button.addEventListener("click", () => this.tool(action));
    }
    this.plot = element("div", "an-map-plot", root);
    this.plot.tabIndex = 0;
    this.plot.setAttribute("role", "application"); // keys pan and zoom it: its own keyboard, said by its label
    this.plot.setAttribute("aria-roledescription", "map");
    this.canvas = element("canvas", "an-map-canvas", this.plot);
    this.overlay = svgElement("svg", this.plot);
    this.overlay.setAttribute("class", "an-map-overlay");
    this.notes = element("div", "an-map-notes", this.plot);
    this.hoverBox = element("div", "an-map-hover", this.plot);
    this.hoverBox.hidden = true;
    this.legend = element("div", "an-map-legend", root);
    this.listen();
    // The plot's size as the browser last laid it out: a ResizeObserver reports it after each layout that changed
    // it (and once at first), and the map is drawn again. Reading the element's size instead, right after a page
    // changed, makes the browser lay the whole page out there and then, once per map.
    new ResizeObserver((entries) => {
      const { width, height } = entries[entries.length - 1].contentRect;
      this.box = { w: width, h: height };
      this.draw();
    }).observe(this.plot);
  }

  // A new figure. While its uirevision is the one before (the same seed, space and colouring: a click marked, a box
  // selected) the reader's view, tool and hidden labels stay, unless the figure asks for another view than the one
  // before it did; a new selectionrevision takes the drawn selection away (its articles are ringed instead).
  show(figure, theme) {
    const layout = figure.layout || {};
    const same = layout.uirevision !== undefined && layout.uirevision === (this.layout || {}).uirevision;
    const hidden = new Set(same ? this.traces.filter((t) => t.visible === "legendonly").map((t) => t.name) : []);
    this.traces = (figure.data || []).map((raw, index) => traceOf(raw, index, theme.recolour || {}));
    for (const trace of this.traces) if (hidden.has(trace.name) && trace.showlegend) trace.visible = "legendonly";
    if (!same || layout.selectionrevision !== this.layout.selectionrevision) this.shapes = [];
    if (!same) {
      this.mode = ["zoom", "select", "lasso"].includes(layout.dragmode) ? layout.dragmode : "pan";
    }
    this.layout = layout;
    this.theme = theme;
    this.whole = this.extent();
    const [x, y] = [(layout.xaxis || {}).range, (layout.yaxis || {}).range];
    const asked = x && y ? { x: x.map(Number), y: y.map(Number) } : null;
    if (!same || !this.view || !sameView(asked, this.asked)) {
      this.view = asked ? { x: [...asked.x], y: [...asked.y] } : { x: [...this.whole.x], y: [...this.whole.y] };
    }
    this.asked = asked;
    this.root.style.setProperty("--an-map-paper", theme.paper);
    this.root.style.setProperty("--an-map-ink", theme.ink);
    this.root.style.setProperty("--an-map-font", theme.font);
    richText(this.title, (layout.title || {}).text || "");
    this.plot.setAttribute("aria-label", `${plainText((layout.title || {}).text || "map")}: arrow keys pan, + and - `
      + "zoom, 0 shows the whole map; hover or click a point for its article");
    this.drawLegend();
    this.markTools();
    this.hideHover();
    if (this.box) this.draw(); // else the plot has not been laid out yet: the observer's first report draws it
  }

  fail(message) { // the map is kept (a later figure may draw), its plot says what went wrong
    this.hideHover();
    this.notes.textContent = "";
    const said = element("div", "an-map-failed", this.notes);
    said.textContent = message;
  }

  extent() { // the whole map: every trace's points (a hidden label's too: hiding one does not move the map), images
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const trace of this.traces) {
      for (let i = 0; i < trace.x.length; i += 1) {
        const x = trace.x[i], y = trace.y[i];
        if (x == null || y == null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
        if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      }
    }
    for (const image of this.layout.images || []) {
      x0 = Math.min(x0, image.x); x1 = Math.max(x1, image.x + image.sizex);
      y0 = Math.min(y0, image.y - image.sizey); y1 = Math.max(y1, image.y);
    }
    if (!Number.isFinite(x0)) return { x: [-1, 1], y: [-1, 1] };
    const px = (x1 - x0) * PAD || 1, py = (y1 - y0) * PAD || 1;
    return { x: [x0 - px, x1 + px], y: [y0 - py, y1 + py] };
  }

  size() { return this.frame ? [this.frame.w, this.frame.h] : [this.plot.clientWidth, this.plot.clientHeight]; }

  // The plot's size and the view's scale, read once per draw: a point's pixel is then two multiplications (reading
  // the element's size for each of 10,000 points was a tenth of a map's draw).
  measure() {
    const { w, h } = this.box || { w: this.plot.clientWidth, h: this.plot.clientHeight }, { view } = this;
    this.frame = { w, h, x0: view.x[0], y0: view.y[0],
      sx: w / (view.x[1] - view.x[0]), sy: h / (view.y[1] - view.y[0]) };
    return this.frame;
  }

  toPixel(x, y) {
    const f = this.frame || this.measure();
    return [(x - f.x0) * f.sx, f.h - (y - f.y0) * f.sy];
  }

  toData(px, py) {
    const f = this.frame || this.measure();
    return [f.x0 + px / f.sx, f.y0 + (f.h - py) / f.sy];
  }

  shown(trace) { return trace.visible === true; }

  draw() {
    if (!this.traces) return;
    const { w, h } = this.measure();
    if (!w || !h) return;
    const ratio = Math.min(2, Math.max(1, window.devicePixelRatio || 1));
    if (this.canvas.width !== Math.round(w * ratio) || this.canvas.height !== Math.round(h * ratio)) {
      this.canvas.width = Math.round(w * ratio);
      this.canvas.height = Math.round(h * ratio);
    }
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = this.theme.plot;
    ctx.fillRect(0, 0, w, h);
    let loading = 0;
    for (const image of this.layout.images || []) loading += this.drawImage(ctx, image) ? 0 : 1;
    for (const trace of this.traces) if (this.shown(trace)) this.drawTrace(ctx, trace, w, h);
    this.drawNotes();
    this.drawShapes();
    Object.assign(this.state, { ready: loading === 0, traces: this.traces, xRange: [...this.view.x],
      yRange: [...this.view.y], layout: this.layout, paper: this.theme.paper, plotColour: this.theme.plot,
      toPixel: (x, y) => this.toPixel(x, y) });
  }

  drawImage(ctx, image) { // true once drawn; a loading image draws the map again when it arrives
    let picture = this.images.get(image.source);
    if (!picture) {
      picture = new Image();
      picture.onload = () => this.draw();
      picture.src = image.source;
      this.images.set(image.source, picture);
      if (this.images.size > 8) this.images.delete(this.images.keys().next().value);
    }
    if (!picture.complete || !picture.naturalWidth) return false;
    const [left, top] = this.toPixel(image.x, image.y), [right, bottom] = this.toPixel(image.x + image.sizex,
      image.y - image.sizey);
    ctx.globalAlpha = Number(image.opacity ?? 1);
    ctx.drawImage(picture, left, top, right - left, bottom - top);
    ctx.globalAlpha = 1;
    return true;
  }

  drawTrace(ctx, trace, w, h) {
    if (trace.opacity <= 0 || trace.size <= 0) return;
    const r = trace.size / 2, open = trace.symbol.endsWith("-open"), { sx, sy, x0, y0 } = this.frame;
    ctx.beginPath();
    for (let i = 0; i < trace.x.length; i += 1) {
      if (trace.x[i] == null || trace.y[i] == null) continue;
      const px = (trace.x[i] - x0) * sx, py = h - (trace.y[i] - y0) * sy;
      if (px < -r || py < -r || px > w + r || py > h + r || !Number.isFinite(px + py)) continue;
      markerPath(ctx, trace.symbol, px, py, r);
    }
    ctx.globalAlpha = trace.opacity;
    if (open) {
      ctx.lineWidth = trace.lineWidth || 1;
      ctx.strokeStyle = trace.color;
      ctx.stroke();
    } else {
      ctx.fillStyle = trace.color;
      ctx.fill();
      if (trace.lineWidth > 0) {
        ctx.lineWidth = trace.lineWidth;
        ctx.strokeStyle = trace.lineColor || "#444";
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
  }

  // Annotations: a region's name on its place, a pointer's text in a box beside its point with an arrow to it. An
  // annotation whose point is out of view is not shown.
  drawNotes() {
    const notes = this.layout.annotations || [];
    const [w, h] = this.size();
    while (this.notes.children.length > notes.length) this.notes.lastChild.remove();
    while (this.notes.children.length < notes.length) element("div", "an-map-note", this.notes);
    for (const old of this.overlay.querySelectorAll(".an-map-arrow")) old.remove();
    notes.forEach((note, index) => {
      const box = this.notes.children[index];
      const [px, py] = this.toPixel(Number(note.x), Number(note.y));
      box.hidden = !(px >= 0 && px <= w && py >= 0 && py <= h);
      box.className = ["an-map-note", note.name === "region" ? "an-map-region" : "",
        note.showarrow ? "an-map-pointer" : ""].filter(Boolean).join(" ");
      if (box.__anText !== note.text) { richText(box, note.text); box.__anText = note.text; }
      const font = note.font || {};
      box.style.fontSize = `${font.size || 12}px`;
      box.style.color = font.color || "";
      box.style.background = note.bgcolor || "";
      box.style.border = note.borderwidth ? `${note.borderwidth}px solid ${note.bordercolor || "#444"}` : "";
      box.style.padding = `${note.borderpad ?? 1}px`;
      const at = note.showarrow ? [px + Number(note.ax ?? -10), py + Number(note.ay ?? -30)] : [px, py];
      box.style.left = `${at[0]}px`;
      box.style.top = `${at[1]}px`;
      if (note.showarrow && !box.hidden) this.drawArrow(note, [px, py], at);
    });
  }

  drawArrow(note, head, tail) {
    const [dx, dy] = [head[0] - tail[0], head[1] - tail[1]], length = Math.hypot(dx, dy);
    const standoff = Number(note.standoff ?? 0), end = Math.max(0, length - standoff);
    if (!length) return;
    const ux = dx / length, uy = dy / length, tip = [tail[0] + ux * end, tail[1] + uy * end];
    const drawn = note.arrowcolor || "#444", width = Number(note.arrowwidth ?? 1);
    const colour = (this.theme.recolour || {})[drawn.toLowerCase()] || drawn; // a black arrow turns light on a dark plot
    const line = svgElement("line", this.overlay);
    line.setAttribute("class", "an-map-arrow");
    for (const [name, value] of [["x1", tail[0]], ["y1", tail[1]], ["x2", tip[0] - ux * 3 * width],
      ["y2", tip[1] - uy * 3 * width], ["stroke", colour], ["stroke-width", width]]) line.setAttribute(name, value);
    const head3 = svgElement("path", this.overlay);
    head3.setAttribute("class", "an-map-arrow");
    const size = 4 + 2 * width, side = [-uy * size * 0.5, ux * size * 0.5];
    head3.setAttribute("d", `M${tip[0]},${tip[1]} L${tip[0] - ux * size + side[0]},${tip[1] - uy * size + side[1]} `
      + `L${tip[0] - ux * size - side[0]},${tip[1] - uy * size - side[1]}Z`);
    head3.setAttribute("fill", colour);
  }

  drawShapes(extra) { // the selection's outlines (dashed), and the box or lasso being dragged
    for (const old of this.overlay.querySelectorAll(".an-map-shape")) old.remove();
    for (const shape of extra ? [...this.shapes, extra] : this.shapes) {
      const path = svgElement("path", this.overlay);
      path.setAttribute("class", "an-map-shape");
      const corners = shape.box ? [[shape.box[0], shape.box[2]], [shape.box[1], shape.box[2]],
        [shape.box[1], shape.box[3]], [shape.box[0], shape.box[3]]] : shape.lasso;
      path.setAttribute("d", corners.map(([x, y], i) => `${i ? "L" : "M"}${this.toPixel(x, y).join(",")}`).join("")
        + "Z");
    }
  }

  drawLegend() {
    this.legend.textContent = "";
    const clickable = (this.layout.legend || {}).itemclick !== false;
    for (const trace of this.traces.filter((t) => t.showlegend)) {
      const item = element("button", "an-map-legend-item", this.legend);
      item.type = "button";
      item.dataset.index = trace.index;
      item.disabled = !clickable;
      item.setAttribute("aria-pressed", String(trace.visible === true));
      if (clickable) item.title = "Click to hide or show this label; double-click to show it alone";
      element("span", "an-map-swatch", item).style.background = trace.color;
      richText(element("span", "an-map-legend-text", item), trace.name);
      item.addEventListener("click", (event) => this.legendClick(trace, event.detail));
    }
    this.legend.hidden = !this.legend.children.length;
  }

  legendClick(trace, clicks) {
    const listed = this.traces.filter((t) => t.showlegend);
    if (clicks >= 2) { // show this one alone; when it already is, show them all
      const alone = listed.every((t) => (t === trace) === (t.visible === true));
      for (const t of listed) t.visible = alone || t === trace ? true : "legendonly";
    } else if (clicks <= 1) {
      trace.visible = trace.visible === true ? "legendonly" : true;
    }
    for (const item of this.legend.children) {
      const t = this.traces[Number(item.dataset.index)];
      item.setAttribute("aria-pressed", String(t.visible === true));
    }
    this.hideHover();
    this.draw();
  }

  markTools() {
    for (const button of this.tools.children) {
      const { action } = button.dataset;
      if (MODES.includes(action)) button.setAttribute("aria-pressed", String(action === this.mode));
    }
    this.plot.dataset.mode = this.mode;
  }

  tool(action) {
    if (MODES.includes(action)) {
      this.mode = action;
      this.markTools();
    } else if (action === "in" || action === "out") {
      this.zoomBy(action === "in" ? 0.5 : 2);
    } else if (action === "whole") {
      this.showWhole();
    } else if (action === "png") {
      this.download();
    } else if (action === "fullscreen") {
      if (document.fullscreenElement === this.root) document.exitFullscreen();
      else if (this.root.requestFullscreen) this.root.requestFullscreen().catch(() => {});
    }
  }

  setView(view, byReader = true) {
    this.view = view;
    this.draw();
    if (byReader) this.viewChanged(false);
  }

  showWhole() { this.view = { x: [...this.whole.x], y: [...this.whole.y] }; this.draw(); this.viewChanged(true); }

  zoomBy(factor, centre) {
    const [cx, cy] = centre || [(this.view.x[0] + this.view.x[1]) / 2, (this.view.y[0] + this.view.y[1]) / 2];
    const around = (range, c) => [c - (c - range[0]) * factor, c + (range[1] - c) * factor];
    this.setView({ x: around(this.view.x, cx), y: around(this.view.y, cy) });
  }

  // a density map's image is drawn anew for what the reader looks at (map_chart.js sends the view, once it rests)
  viewChanged(whole) {
    if (!this.onView) return;
    clearTimeout(this.pendingView);
    const shown = whole ? { whole: true } : { x: [...this.view.x], y: [...this.view.y] };
    this.pendingView = setTimeout(() => this.onView(shown), 250);
  }

  hit(px, py) { // the point under (px, py): the topmost marker drawn over it (what the reader sees there: a neighbour
    // drawn under the seed's star is the star's), else the nearest within reach
    let best = null, bestDistance = Infinity, covered = null;
    for (let t = this.traces.length - 1; t >= 0 && !covered; t -= 1) {
      const trace = this.traces[t];
      if (!this.shown(trace) || !trace.hover || !trace.hovertext.length && !trace.customdata.length) continue;
      const radius = Math.max(trace.size / 2, 3), reach = radius + HIT_PX, { h, sx, sy, x0, y0 } = this.frame;
      let coveredDistance = Infinity;
      for (let i = 0; i < trace.x.length; i += 1) {
        if (trace.x[i] == null || trace.y[i] == null) continue;
        const x = (trace.x[i] - x0) * sx, y = h - (trace.y[i] - y0) * sy;
        if (Math.abs(x - px) > reach || Math.abs(y - py) > reach) continue;
        const distance = Math.hypot(x - px, y - py);
        if (distance <= radius && distance < coveredDistance) { covered = { trace, i, x, y }; coveredDistance = distance; }
        if (distance <= reach && distance < bestDistance) { best = { trace, i, x, y }; bestDistance = distance; }
      }
    }
    return covered || best;
  }

  showHover(found) {
    if (!found || !found.trace.hovertext.length) { this.hideHover(); return; }
    const box = this.hoverBox;
    richText(box, found.trace.hovertext[found.i]);
    box.style.borderColor = found.trace.color;
    box.hidden = false;
    const [w, h] = this.size();
    const left = found.x + 14 + box.offsetWidth > w ? found.x - 14 - box.offsetWidth : found.x + 14;
    box.style.left = `${Math.max(0, left)}px`;
    box.style.top = `${Math.min(Math.max(0, found.y - box.offsetHeight / 2), Math.max(0, h - box.offsetHeight))}px`;
  }

  hideHover() { this.hoverBox.hidden = true; }

  marked() { return this.traces.some((trace) => trace.name === "clicked" || trace.name === "selected"); }

  listen() {
    const plot = this.plot;
    let press = null, frame = 0;
    const at = (event) => {
      const box = plot.getBoundingClientRect();
      return [event.clientX - box.left, event.clientY - box.top];
    };
    plot.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 || !this.traces) return;
      plot.setPointerCapture(event.pointerId);
      const [px, py] = at(event);
      press = { px, py, view: { x: [...this.view.x], y: [...this.view.y] }, moved: false, path: [[px, py]],
        add: event.shiftKey };
      this.hideHover();
    });
    plot.addEventListener("pointermove", (event) => {
      const [px, py] = at(event);
      if (!press) {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => {
          const found = this.traces ? this.hit(px, py) : null;
          plot.classList.toggle("an-map-over-point", Boolean(found));
          this.showHover(found);
        });
        return;
      }
      if (!press.moved && Math.hypot(px - press.px, py - press.py) < CLICK_PX) return;
      press.moved = true;
      press.path.push([px, py]);
      if (this.mode === "pan") {
        const [w, h] = this.size(), { view } = press;
        const dx = ((px - press.px) / w) * (view.x[1] - view.x[0]);
        const dy = ((py - press.py) / h) * (view.y[1] - view.y[0]);
        this.view = { x: [view.x[0] - dx, view.x[1] - dx], y: [view.y[0] + dy, view.y[1] + dy] };
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => this.draw());
      } else {
        this.drawShapes(this.dragged(press, [px, py]));
      }
    });
    const release = (event, cancelled) => {
      if (!press) return;
      const done = press;
      press = null;
      const [px, py] = at(event);
      if (cancelled) { this.drawShapes(); return; }
      if (!done.moved) { this.click(px, py); return; }
      if (this.mode === "pan") { this.draw(); this.viewChanged(false); return; }
      const shape = this.dragged(done, [px, py]);
      if (this.mode === "zoom") {
        this.drawShapes();
        const [x0, x1, y0, y1] = shape.box;
        const wide = Math.abs(px - done.px) >= 6, tall = Math.abs(py - done.py) >= 6;
        if (!wide && !tall) return;
        this.setView({ x: wide ? [x0, x1] : [...this.view.x], y: tall ? [y0, y1] : [...this.view.y] });
        return;
      }
      if (shape.lasso && shape.lasso.length < 3) { this.drawShapes(); return; }
      this.shapes = done.add ? [...this.shapes, shape].slice(-16) : [shape];
      this.drawShapes();
      this.sendArea();
    };
    plot.addEventListener("pointerup", (event) => release(event, false));
    plot.addEventListener("pointercancel", (event) => release(event, true));
    plot.addEventListener("pointerleave", () => {
      if (press) return;
      cancelAnimationFrame(frame); // a hover asked for just before leaving is not drawn after it
      this.hideHover();
      plot.classList.remove("an-map-over-point");
    });
    plot.addEventListener("dblclick", () => this.showWhole());
    plot.addEventListener("keydown", (event) => this.key(event));
  }

  dragged(press, [px, py]) { // the box or lasso of a drag, in data coordinates
    if (this.mode === "lasso") {
      const step = Math.ceil(press.path.length / MAX_LASSO);
      return { lasso: press.path.filter((_, i) => i % step === 0).map(([x, y]) => this.toData(x, y)) };
    }
    const [x0, y0] = this.toData(press.px, press.py), [x1, y1] = this.toData(px, py);
    return { box: [Math.min(x0, x1), Math.max(x0, x1), Math.min(y0, y1), Math.max(y0, y1)] };
  }

  click(px, py) {
    const found = this.hit(px, py);
    const id = found ? found.trace.customdata[found.i] : null;
    if (typeof id === "string" && id) { this.send("click", id); return; }
    if (!found && (this.mode === "select" || this.mode === "lasso") && (this.shapes.length || this.marked())) {
      this.shapes = [];
      this.drawShapes();
      this.send("clear", true);
    }
  }

  sendArea() {
    const boxes = this.shapes.filter((s) => s.box).map((s) => s.box);
    const lassos = this.shapes.filter((s) => s.lasso).map((s) => s.lasso);
    const hidden = this.traces.filter((t) => t.visible === "legendonly").map((t) => t.index);
    this.send("area", { boxes, lassos, hidden });
  }

  key(event) { // arrows pan a tenth of the view, + and - zoom, 0 the whole map
    const { view } = this, stepX = (view.x[1] - view.x[0]) / 10, stepY = (view.y[1] - view.y[0]) / 10;
    const moves = { ArrowLeft: [-stepX, 0], ArrowRight: [stepX, 0], ArrowUp: [0, stepY], ArrowDown: [0, -stepY] };
    if (moves[event.key]) {
      const [dx, dy] = moves[event.key];
      this.setView({ x: [view.x[0] + dx, view.x[1] + dx], y: [view.y[0] + dy, view.y[1] + dy] });
    } else if (event.key === "+" || event.key === "=") this.zoomBy(0.5);
    else if (event.key === "-") this.zoomBy(2);
    else if (event.key === "0") this.showWhole();
    else return;
    event.preventDefault();
  }

  // The map as a PNG: its title, the plot and its labels, on the map's own background.
  download() {
    const [w, h] = this.size(), ratio = this.canvas.width / w, top = 32;
    const out = document.createElement("canvas");
    out.width = Math.round(w * ratio);
    out.height = Math.round((h + top) * ratio);
    const ctx = out.getContext("2d");
    ctx.scale(ratio, ratio);
    ctx.fillStyle = this.theme.paper === "transparent" ? "#ffffff" : this.theme.paper;
    ctx.fillRect(0, 0, w, h + top);
    ctx.fillStyle = this.theme.ink;
    ctx.font = `600 15px ${this.theme.font}`;
    ctx.fillText(this.title.textContent, 4, 21);
    ctx.drawImage(this.canvas, 0, top, w, h);
    ctx.translate(0, top);
    for (const item of this.overlay.querySelectorAll(".an-map-arrow")) {
      const path = new Path2D(item.localName === "line" ? `M${item.getAttribute("x1")},${item.getAttribute("y1")}`
        + `L${item.getAttribute("x2")},${item.getAttribute("y2")}` : item.getAttribute("d"));
      ctx.strokeStyle = ctx.fillStyle = item.getAttribute("stroke") || item.getAttribute("fill");
      ctx.lineWidth = Number(item.getAttribute("stroke-width") || 1);
      if (item.localName === "line") ctx.stroke(path); else ctx.fill(path);
    }
    const plotBox = this.plot.getBoundingClientRect();
    for (const note of this.notes.children) {
      if (note.hidden) continue;
      const box = note.getBoundingClientRect(), style = getComputedStyle(note);
      const x = box.left - plotBox.left, y = box.top - plotBox.top;
      if (style.backgroundColor) { ctx.fillStyle = style.backgroundColor; ctx.fillRect(x, y, box.width, box.height); }
      if (note.style.border) {
        ctx.strokeStyle = style.borderTopColor;
        ctx.lineWidth = 1;
        ctx.strokeRect(x, y, box.width, box.height);
      }
      ctx.fillStyle = style.color;
      ctx.font = `${style.fontSize} ${style.fontFamily}`;
      ctx.textBaseline = "middle";
      ctx.fillText(note.textContent, x + parseFloat(style.paddingLeft), y + box.height / 2);
    }
    const link = document.createElement("a");
    link.download = `${this.title.textContent.replace(/[^\p{L}\p{N} ._-]+/gu, "").trim() || "map"}.png`;
    link.href = out.toDataURL("image/png");
    link.click();
  }
}
