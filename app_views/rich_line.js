// A line of page text kept as runs (app_views/rich_line.py): each run a text node, <em>, <strong> or <code>, so
// corpus text in it stays text. Joined before a component's own script (explore panel, maps panel).

function richLine(runs, className, tag = "div") {
  const line = document.createElement(tag);
  if (className) line.className = className;
  for (const run of runs) {
    const wrap = { em: "em", strong: "strong", code: "code" }[run.style];
    const part = wrap ? document.createElement(wrap) : document.createTextNode(run.text);
    if (wrap) part.textContent = run.text;
    line.appendChild(part);
  }
  return line;
}
