// The seed's nearest articles beside the maps (app_views/neighbour_list, drawn by the maps panel): heading, caption,
// then per article its title, its similarity in each space and two actions. "Explore from" is a link (a new tab opens
// Explore there); a plain click and "Map from" go back to the page as the triggers "explore_from" and "map_from" with
// the article's id. Every text is set with textContent: corpus text stays text.

function el(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

const ICONS = { // 16x16 paths: a compass (explore), scattered points (map)
  explore: "M8 1a7 7 0 110 14A7 7 0 018 1zm0 1.5a5.5 5.5 0 100 11 5.5 5.5 0 000-11zM11 5l-1.8 4.2L5 11l1.8-4.2z",
  map: "M3 10.5a1.5 1.5 0 110 3 1.5 1.5 0 010-3zm5-4a1.5 1.5 0 110 3 1.5 1.5 0 010-3zm4.5-4a1.5 1.5 0 110 3 1.5 1.5 0 010-3zm0 7a1.5 1.5 0 110 3 1.5 1.5 0 010-3z",
};

function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.appendChild(path);
  return svg;
}

function item(data, send) {
  const row = el("li", "an-nl-item");
  row.dataset.id = data.id;
  const title = row.appendChild(el("div", "an-nl-title", data.title));
  if (data.full) title.title = data.full;  // a cut title whole, on hover
  const scores = el("div", "an-nl-scores");
  data.scores.forEach((score, index) => {
    if (index) scores.appendChild(document.createTextNode(" | "));
    scores.appendChild(el(score.near ? "strong" : "span", "", score.text));
  });
  row.appendChild(scores);
  const actions = el("div", "an-nl-actions");
  const explore = el("a", "an-nl-action an-nl-explore");
  explore.href = `./${data.explore}`;
  explore.append(icon("explore"), el("span", "", "Explore from"));
  explore.setAttribute("aria-label", `Explore from ${data.title}`);
  explore.addEventListener("click", (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab
    event.preventDefault();
    send("explore_from", data.id);
  });
  const map = el("button", "an-nl-action an-nl-map");
  map.type = "button";
  map.append(icon("map"), el("span", "", "Map from"));
  map.setAttribute("aria-label", `Map from ${data.title}`);
  map.addEventListener("click", () => send("map_from", data.id));
  actions.append(explore, map);
  row.appendChild(actions);
  return row;
}

// Draw the list `data` (neighbour_list.list_data) into `parentElement` (left alone when `data` is what it shows).
function drawNeighbourList(parentElement, data, setTriggerValue) {
  const said = JSON.stringify(data);
  let box = parentElement.querySelector(":scope > .an-nl");
  if (box && box.__anSaid === said) return;
  if (!box) { box = el("section", "an-nl"); parentElement.appendChild(box); }
  box.__anSaid = said;
  box.textContent = "";
  const heading = el("div", "an-nl-heading", "Nearest to ★ ");
  heading.appendChild(el(data.freeText ? "span" : "em", "", data.freeText ? `“${data.seed}”` : data.seed));
  box.append(heading, el("div", "an-nl-caption", data.caption));
  const list = el("ol", "an-nl-items");
  for (const entry of data.items) list.appendChild(item(entry, setTriggerValue));
  box.appendChild(list);
}
