// AspectNav's Explore columns as one element: every column and card is drawn here from plain data, with
// textContent only (corpus text never becomes markup). A title is a real link (it has the article's Explore
// address, so a middle click opens a tab); a plain click makes the article the seed through one trigger.
let chosenColumn = null; // the column a narrow screen shows, kept across reruns of this page

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function scrollToTop() {
  // Streamlit scrolls its main pane, not the window; both are reset so the new seed's card is in view.
  for (const pane of document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"], section.main')) {
    pane.scrollTo({ top: 0 });
  }
  window.scrollTo({ top: 0 });
}

function card(data, column, setTriggerValue) {
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
    setTriggerValue("pick", data.id);
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
  }
  if (data.shared.length || data.missing.length) {
    const chips = el("div", "an-chips");
    for (const label of data.shared) {
      chips.appendChild(el("span", "an-chip an-shared" + (label.inferred ? " an-inferred" : ""), label.text));
    }
    for (const text of data.missing) chips.appendChild(el("span", "an-chip an-missing", text));
    box.appendChild(chips);
  }
  const foot = el("div", "an-foot");
  foot.appendChild(el("span", "an-also", data.also_in.length ? `also in: ${data.also_in.join(", ")}` : ""));
  if (data.url) {
    const read = el("a", "an-read", data.read_label);
    read.href = data.url;
    read.target = "_blank";
    read.rel = "noopener noreferrer";
    foot.appendChild(read);
  }
  box.appendChild(foot);
  return box;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let root = parentElement.querySelector(":scope > .an-grid");
  if (!root) {
    root = el("div", "an-grid");
    parentElement.appendChild(root);
  }
  root.dataset.seed = data.seed || "";
  const columns = data.columns || [];
  if (!columns.some((column) => column.key === chosenColumn)) chosenColumn = data.first || (columns[0] || {}).key;

  const chooser = el("label", "an-chooser", "Column: ");
  const select = el("select");
  select.setAttribute("aria-label", "Column to show");
  for (const column of data.chooser_order || columns.map((c) => c.key)) {
    const found = columns.find((c) => c.key === column);
    if (!found) continue;
    const option = el("option", "", found.heading);
    option.value = found.key;
    option.selected = found.key === chosenColumn;
    select.appendChild(option);
  }
  chooser.appendChild(select);

  const grid = el("div", "an-columns");
  grid.style.setProperty("--per-row", String(data.per_row || 4));
  for (const column of columns) {
    const box = el("div", "an-col" + (column.key === chosenColumn ? " an-active" : ""));
    box.dataset.column = column.key;
    box.appendChild(el("div", "an-heading", column.heading));
    if (column.description) box.appendChild(el("div", "an-desc", column.description));
    if (column.note) box.appendChild(el("div", "an-note", column.note));
    for (const item of column.cards) box.appendChild(card(item, column, setTriggerValue));
    grid.appendChild(box);
  }
  select.addEventListener("change", () => {
    chosenColumn = select.value;
    for (const box of grid.children) box.classList.toggle("an-active", box.dataset.column === chosenColumn);
  });
  root.replaceChildren(chooser, grid);
}
