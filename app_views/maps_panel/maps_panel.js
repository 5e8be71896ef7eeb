// The Maps page's maps as one element (app_views/maps_panel): the lines that say what they show, the marked
// article's row, the maps side by side, each with its caption (drawMap, map_chart.js), the seed's nearest articles
// beside them (drawNeighbourList, neighbour_list.js) and the notes under them. Built once and kept across reruns: a
// rerun rewrites the text that changed and hands each map its figure, so a map keeps its view, tool and hidden labels.
// A map's triggers go back as {map: its index, value}; "Map from" and "Explore from" as the list sends them.

function setLines(box, lines, className) { // rich lines (rich_line.js), rewritten only when they changed
  const said = JSON.stringify(lines);
  if (box.__anSaid === said) return;
  box.__anSaid = said;
  box.textContent = "";
  for (const line of lines) box.appendChild(richLine(line, className, "p"));
  box.hidden = !lines.length;
}

function markedRow(box, marked, send) { // the article a click marked: what it is, and where to go from it
  const said = JSON.stringify(marked);
  if (box.__anSaid === said) return;
  box.__anSaid = said;
  box.textContent = "";
  box.hidden = !marked;
  if (!marked) return;
  box.dataset.id = marked.id;
  if (marked.full) box.title = marked.full;  // a cut title whole, on hover
  box.appendChild(richLine(marked.said, "an-mp-marked-said", "span"));
  const map = el("button", "an-mp-action an-mp-map-from");
  map.type = "button";
  map.append(icon("map"), el("span", "", `Map from ${marked.title}`));
  map.addEventListener("click", () => send("map_from", marked.id));
  const explore = el("a", "an-mp-action an-mp-explore");
  explore.href = `./${marked.explore}`;
  explore.append(icon("explore"), el("span", "", `Explore from ${marked.title}`));
  explore.addEventListener("click", (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab
    event.preventDefault();
    send("explore_from", marked.id);
  });
  box.append(map, explore);
}

function mapSlots(grid, count) { // one place per map, kept while the page shows as many maps
  let slots = [...grid.querySelectorAll(":scope > .an-mp-map")];
  if (slots.length !== count) {
    slots.forEach((slot) => slot.remove());
    slots = [];
    for (let index = 0; index < count; index += 1) {
      const slot = el("div", "an-mp-map");
      slot.append(el("div", "an-mp-plot"), el("div", "an-mp-captions"));
      grid.insertBefore(slot, grid.querySelector(":scope > .an-mp-list"));
      slots.push(slot);
    }
  }
  return slots;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let panel = parentElement.querySelector(":scope > .an-mp");
  if (!panel) {
    panel = el("div", "an-mp");
    panel.append(el("div", "an-mp-intro"), el("div", "an-mp-marked"), el("div", "an-mp-grid"),
      el("div", "an-mp-notes"));
    panel.querySelector(".an-mp-grid").appendChild(el("div", "an-mp-list"));
    parentElement.appendChild(panel);
  }
  setLines(panel.querySelector(".an-mp-intro"), data.intro, "an-mp-caption");
  markedRow(panel.querySelector(".an-mp-marked"), data.marked, setTriggerValue);
  const grid = panel.querySelector(".an-mp-grid");
  grid.style.gridTemplateColumns = data.weights.map((weight) => `minmax(0, ${weight}fr)`).join(" ");
  const page = pageTheme(parentElement);
  mapSlots(grid, data.maps.length).forEach((slot, index) => {
    const map = data.maps[index];
    drawMap(slot.querySelector(".an-mp-plot"), map, (trigger, value) => setTriggerValue(trigger, { map: index, value }),
      page);
    setLines(slot.querySelector(".an-mp-captions"), [map.caption], "an-mp-caption");
  });
  const list = grid.querySelector(":scope > .an-mp-list");
  list.hidden = !data.neighbours;
  if (data.neighbours) drawNeighbourList(list, data.neighbours, setTriggerValue);
  setLines(panel.querySelector(".an-mp-notes"), data.notes, "an-mp-caption");
}
