// The Maps page's settings as one element: a choice is the browser's <select>, a count an <input type=number>, a
// switch a checkbox drawn as a switch. Drawn once and kept across reruns (the page's rerun only sets their values),
// so the control a reader changed keeps its focus. A change goes back as the trigger "change" with {key, value}
// (app_views/map_controls/events.py checks it against what the page drew). Labels and help are text, never markup.

let made = 0; // elements made on this page: each gets ids of its own

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function helpMark(text, id) { // a "?" that says `text` on hover and on focus (and to a screen reader, by id)
  const mark = el("span", "an-mc-help", "?");
  mark.tabIndex = 0;
  mark.setAttribute("role", "note");
  mark.setAttribute("aria-label", "Help");
  mark.setAttribute("aria-describedby", id);
  const tip = el("span", "an-mc-tip", text);
  tip.id = id;
  tip.setAttribute("role", "tooltip");
  mark.appendChild(tip);
  return mark;
}

function field(control, id, send) {
  const box = el("div", `an-mc-field an-mc-${control.kind}`);
  box.dataset.key = control.key;
  const head = el("div", "an-mc-head");
  const label = el("label", "an-mc-label", control.kind === "switch" ? "" : control.label);
  label.htmlFor = id;
  head.appendChild(label);
  let input;
  if (control.kind === "choice") {
    input = el("select", "an-mc-select");
    for (const [value, text] of control.options) {
      const option = el("option", "", text);
      option.value = value;
      input.appendChild(option);
    }
    input.addEventListener("change", () => send(control.key, input.value));
  } else if (control.kind === "count") {
    input = el("input", "an-mc-number");
    Object.assign(input, { type: "number", min: String(control.low), max: String(control.high),
      step: String(control.step), inputMode: "numeric" });
    input.addEventListener("change", () => { // typed or stepped: a whole number within the range
      const typed = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(typed)) { input.value = String(input.dataset.sent); return; }
      const value = Math.min(control.high, Math.max(control.low, Math.round(typed)));
      input.value = String(value);
      if (value !== Number(input.dataset.sent)) send(control.key, value);
    });
  } else {
    input = el("input", "an-mc-check");
    input.type = "checkbox";
    input.setAttribute("role", "switch");
    input.addEventListener("change", () => send(control.key, input.checked));
  }
  input.id = id;
  input.dataset.key = control.key;
  if (control.kind === "switch") {
    const row = el("label", "an-mc-switch-row");
    row.htmlFor = id;
    row.append(input, el("span", "an-mc-track"), el("span", "an-mc-switch-label", control.label));
    box.append(head, row);
  } else {
    box.append(head, input);
  }
  if (control.help) {
    const tipId = `${id}-help`;
    head.appendChild(helpMark(control.help, tipId));
    input.setAttribute("aria-describedby", tipId);
  }
  return box;
}

function update(box, control) { // the page's value; a count the reader is typing in is left as typed
  const input = box.querySelector("[data-key]:is(select, input)");
  input.disabled = Boolean(control.disabled);
  if (control.kind === "switch") input.checked = Boolean(control.value);
  else if (control.kind === "count") {
    if (document.activeElement !== input || Number(input.dataset.sent) !== control.value) {
      input.value = String(control.value);
    }
    input.dataset.sent = String(control.value);
  } else input.value = control.value;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let root = parentElement.querySelector(":scope > .an-mc");
  if (!root) {
    root = el("div", "an-mc");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", "Map settings");
    root.__anId = `an-mc-${(made += 1)}`;
    parentElement.appendChild(root);
  }
  root.__anSend = (key, value) => setTriggerValue("change", { key, value });
  const controls = data.controls || [];
  const shape = JSON.stringify(controls.map(({ value, disabled, ...rest }) => rest));
  if (root.__anShape !== shape) { // other controls or options (another corpus): drawn again
    root.__anShape = shape;
    root.replaceChildren(...controls.map((control) => field(control, `${root.__anId}-${control.key}`,
      (key, value) => root.__anSend(key, value))));
  }
  controls.forEach((control, index) => update(root.children[index], control));
}
