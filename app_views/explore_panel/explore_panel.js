// AspectNav's explore panel as one element: the trail, the seed's card, the mix and every column and card, drawn
// from plain data with textContent only (corpus text never becomes markup). What the reader does goes back as one
// of four triggers: "pick" (a card's title), "nav" (back, forward or a crumb's index), "mix" (pills, links share or
// one weight) and "layout" (cards per column or columns per row). A card's title is a real link (the article's Explore address), so a middle click opens a tab.

// Kept across reruns of the page (this module stays loaded): the column a narrow screen shows, and whether the
// reader opened the weights.
let chosenColumn = null;
let weightsOpen = false;
// The control a change was sent from (its data-focus key): the redraw that change brings puts focus back on it, so a
// keyboard reader stepping a slider with the arrow keys keeps stepping it.
let focusAfterRedraw = null;

function keyed(node, key) {
  node.dataset.focus = key;
  return node;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function button(className, text, onClick, enabled = true) {
  const node = el("button", className, text);
  node.type = "button";
  node.disabled = !enabled;
  node.addEventListener("click", onClick);
  return node;
}

function readLink(data) {
  // The article on its own site, in a new tab (the server sends only http(s) addresses).
  const read = el("a", "an-read", data.read_label);
  read.href = data.url;
  read.target = "_blank";
  read.rel = "noopener noreferrer";
  return read;
}

function scrollToTop() {
  // Streamlit scrolls its main pane, not the window. Only a pane that is scrolled is moved: scrolling one that is
  // already at the top still costs a layout of the whole page, for nothing.
  for (const pane of document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"], section.main')) {
    if (pane.scrollTop > 0) pane.scrollTo({ top: 0 });
  }
  if (window.scrollY > 0) window.scrollTo({ top: 0 });
}

// --- the trail ------------------------------------------------------------------------------------------------

function trail(data, send) {
  const bar = el("nav", "an-trail");
  bar.setAttribute("aria-label", "Seeds visited");
  bar.appendChild(keyed(button("an-step", "← Back", () => send("nav", "back"), data.back), "back"));
  bar.appendChild(keyed(button("an-step", "Forward →", () => send("nav", "forward"), data.forward), "forward"));
  data.crumbs.forEach((crumb, index) => {
    bar.appendChild(el("span", "an-sep", "›"));
    const node = button(`an-crumb an-${crumb.place}`, crumb.title, () => send("nav", index));
    if (crumb.place === "here") node.setAttribute("aria-current", "page");
    const notes = [crumb.full, crumb.place === "ahead" ? "Visited after this seed: forward goes there again" : null];
    if (notes.some(Boolean)) node.title = notes.filter(Boolean).join("\n");  // a cut title whole, on hover
    bar.appendChild(node);
  });
  return bar;
}

function chip(className, label) {
  // A label; an inferred one is marked and says what that means when pointed at (or focused).
  const node = el("span", className + (label.inferred ? " an-inferred" : ""), label.text);
  if (label.help) {
    node.title = label.help;
    node.tabIndex = 0;
  }
  return node;
}

// --- the seed's card ------------------------------------------------------------------------------------------

function seedCard(data) {
  const box = el("section", "an-seed");
  box.dataset.kind = data.kind;
  box.appendChild(el("h3", "an-seed-title", data.title));
  if (data.description) box.appendChild(el("div", "an-seed-desc", data.description));
  if (data.kind === "article") {
    const chips = el("div", "an-chips");
    for (const label of data.labels) chips.appendChild(chip("an-chip an-label", label));
    if (!data.labels.length) chips.appendChild(el("em", "an-none", "no aspect labels"));
    box.appendChild(chips);
  }
  if (data.legend) box.appendChild(el("div", "an-legend", data.legend));
  if (data.text) box.appendChild(el("p", "an-seed-text", data.text));
  if (data.url) box.appendChild(readLink(data));
  return box;
}

// --- the mix --------------------------------------------------------------------------------------------------

function labelled(text, help) {
  const label = el("div", "an-label-line", text);
  if (help) {
    const info = el("span", "an-help", "?");
    info.title = help;
    info.setAttribute("aria-label", help);
    info.tabIndex = 0;
    label.appendChild(info);
  }
  return label;
}

function range(label, value, max, step, onChange, className, ariaLabel = "", key = "") {
  const row = el("label", className);
  const input = keyed(el("input"), key);
  if (label) row.appendChild(el("span", "an-range-label", label));
  else input.setAttribute("aria-label", ariaLabel);
  Object.assign(input, { type: "range", min: "0", max: String(max), step: String(step) });
  input.value = String(value);
  const shown = el("output", "an-range-value", Number(value).toFixed(2));
  input.addEventListener("input", () => { shown.textContent = Number(input.value).toFixed(2); });
  input.addEventListener("change", () => {
    focusAfterRedraw = key || null;
    onChange(Number(input.value));
  });
  row.append(input, shown);
  return row;
}

function mix(data, send) {
  const box = el("div", "an-mix");
  const top = el("div", "an-mix-top");
  const spaces = el("div", "an-mix-spaces");
  spaces.appendChild(labelled(data.label, data.help));
  const pills = el("div", "an-pills");
  pills.setAttribute("role", "group");
  pills.setAttribute("aria-label", data.label);
  for (const space of data.spaces) {
    const pill = keyed(button("an-pill", space.name, () => {
      pill.setAttribute("aria-pressed", String(pill.getAttribute("aria-pressed") !== "true"));
      const chosen = [...pills.children].filter((p) => p.getAttribute("aria-pressed") === "true").map((p) => p.dataset.name);
      focusAfterRedraw = pill.dataset.focus;
      send("mix", { spaces: chosen });
    }), `pill:${space.name}`);
    pill.dataset.name = space.name;
    pill.setAttribute("aria-pressed", String(space.on));
    pills.appendChild(pill);
  }
  spaces.appendChild(pills);
  top.appendChild(spaces);
  if (data.links) {
    const links = el("div", "an-mix-links");
    links.appendChild(labelled(data.links.label, data.links.help));
    links.appendChild(range("", data.links.share, 1, data.step, (share) => send("mix", { links: share }), "an-range an-links",
      data.links.label, "links"));
    top.appendChild(links);
  }
  box.appendChild(top);
  const weights = el("details", "an-weights");
  weights.open = weightsOpen;
  weights.addEventListener("toggle", () => { weightsOpen = weights.open; });
  weights.appendChild(el("summary", "", data.weights_label));
  for (const weight of data.weights) {
    weights.appendChild(range(weight.label, weight.value, data.max_weight, data.step,
      (value) => send("mix", { weight: weight.name, value }), "an-range an-weight", "", `weight:${weight.name}`));
  }
  if (data.elsewhere.length) {
    weights.appendChild(el("div", "an-note", `Kept for other corpora (no such space here): ${data.elsewhere.join(", ")}.`));
  }
  box.appendChild(weights);
  return box;
}

// --- the columns ----------------------------------------------------------------------------------------------

function card(data, column, send) {
  const box = el("div", "an-card");
  box.dataset.column = column.key;
  box.dataset.id = data.id;
  const title = el("a", "an-title", data.title);
  title.href = data.href;
  title.title = "Explore from this article";
  title.addEventListener("click", (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab
    event.preventDefault();
    scrollToTop();
    send("pick", data.id);
  });
  box.appendChild(title);
  if (data.snippet) box.appendChild(el("div", "an-snippet", data.snippet));
  if (data.score !== null && data.score !== undefined) {
    const bar = el("div", "an-bar");
    const track = el("div", "an-bar-track");
    const fill = el("div", "an-bar-fill");
    fill.style.width = `${Math.round(Math.min(Math.max(data.bar, 0), 1) * 100)}%`;
    track.appendChild(fill);
    bar.appendChild(track);
    bar.appendChild(el("span", "an-bar-text", `${column.score_name} ${data.score.toFixed(2)}`));
    box.appendChild(bar);
  } else if (data.rank_text) {
    box.appendChild(el("div", "an-rank", data.rank_text));
  }
  if (data.shared.length || data.missing.length) {
    const chips = el("div", "an-chips");
    for (const label of data.shared) {
      chips.appendChild(chip("an-chip an-shared", label));
    }
    for (const text of data.missing) chips.appendChild(el("span", "an-chip an-missing", text));
    box.appendChild(chips);
  }
  const foot = el("div", "an-foot");
  foot.appendChild(el("span", "an-also", data.also_in.length ? `also in: ${data.also_in.join(", ")}` : ""));
  if (data.url) foot.appendChild(readLink(data));
  box.appendChild(foot);
  return box;
}

function numberChoice(label, [fewest, most], chosen, className, onChange) {
  const box = el("label", className, label);
  const select = keyed(el("select"), className);
  for (let n = fewest; n <= most; n++) {
    const option = el("option", "", String(n));
    option.value = String(n);
    option.selected = n === chosen;
    select.appendChild(option);
  }
  select.addEventListener("change", () => {
    focusAfterRedraw = select.dataset.focus;
    onChange(Number(select.value));
  });
  box.appendChild(select);
  return box;
}

function grid(data, send) {
  const root = el("div", "an-grid");
  root.dataset.seed = data.seed || "";
  const columns = data.columns || [];
  if (!columns.some((column) => column.key === chosenColumn)) chosenColumn = data.first || (columns[0] || {}).key;

  const chooser = el("label", "an-chooser", "Column: ");
  const select = el("select");
  select.setAttribute("aria-label", "Column to show");
  for (const key of data.chooser_order || columns.map((c) => c.key)) {
    const found = columns.find((c) => c.key === key);
    if (!found) continue;
    const option = el("option", "", found.heading);
    option.value = found.key;
    option.selected = found.key === chosenColumn;
    select.appendChild(option);
  }
  chooser.appendChild(select);

  const boxes = el("div", "an-columns");
  boxes.style.setProperty("--per-row", String(data.per_row || 4));
  // Cards per column (the server ranks again) and columns per row (laid out at once here, a CSS variable, then
  // kept in the reader's view by the server).
  const cardsPer = numberChoice("Cards per column ", data.k_range || [1, 50], data.k, "an-k", (k) => send("layout", { k }));
  const perRow = numberChoice("Columns per row ", data.per_row_range || [2, 10], data.per_row, "an-per-row", (n) => {
    boxes.style.setProperty("--per-row", String(n));
    send("layout", { per_row: n });
  });
  // Wikipedia's Read more: a baseline column the reader adds (the server draws it, the URL keeps it).
  const readMore = el("label", "an-read-more");
  readMore.title = "Add the column a Wikipedia reader gets under an article today (its \"Read more\": a text search), " +
    "to compare with";
  const readMoreBox = keyed(el("input"), "an-read-more");
  readMoreBox.type = "checkbox";
  readMoreBox.checked = Boolean(data.read_more);
  readMoreBox.addEventListener("change", () => {
    focusAfterRedraw = readMoreBox.dataset.focus;
    send("layout", { read_more: readMoreBox.checked });
  });
  readMore.append(readMoreBox, document.createTextNode(` ${data.read_more_label || "Read more"}`));
  const bar = el("div", "an-grid-bar");
  bar.append(chooser, readMore, cardsPer, perRow);
  for (const column of columns) {
    const box = el("div", "an-col" + (column.key === chosenColumn ? " an-active" : ""));
    box.dataset.column = column.key;
    box.appendChild(el("div", "an-heading", column.heading));
    if (column.description) box.appendChild(el("div", "an-desc", column.description));
    if (column.note) box.appendChild(el("div", "an-note", column.note));
    for (const item of column.cards) box.appendChild(card(item, column, send));
    boxes.appendChild(box);
  }
  select.addEventListener("change", () => {
    chosenColumn = select.value;
    for (const box of boxes.children) box.classList.toggle("an-active", box.dataset.column === chosenColumn);
  });
  root.append(bar, boxes);
  return root;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let root = parentElement.querySelector(":scope > .an-panel");
  if (!root) {
    root = el("div", "an-panel");
    parentElement.appendChild(root);
  }
  root.dataset.seed = data.seed || "";
  // The control that had focus (or that the last change came from) gets it back after the redraw, found by its key.
  const active = document.activeElement;
  const focusKey = focusAfterRedraw || (root.contains(active) && active.dataset.focus) || null;
  focusAfterRedraw = null;
  const parts = [trail(data.trail, setTriggerValue), seedCard(data.seed_card)];
  for (const note of data.notes || []) parts.push(richLine(note, "an-caption"));
  if (data.mix) parts.push(mix(data.mix, setTriggerValue));
  parts.push(grid(data.grid, setTriggerValue));
  root.replaceChildren(...parts);
  if (focusKey) {
    const again = [...root.querySelectorAll("[data-focus]")].find((node) => node.dataset.focus === focusKey);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}
