// The policy heatmap by touch and keyboard: a cell clicked, touched or focused writes its
// state and numbers under the map's title; one cell at a time is in the tab order and the
// arrow keys move between cells (a grid's usual keys), so the map is one tab stop.
"use strict";
(() => {
  const info = document.getElementById("cell-info");
  const rows = [...document.querySelectorAll("table.heat tbody tr")].map(tr => [...tr.querySelectorAll("td")]);
  let at = null;
  function pick(td) {
    if (!td || !td.dataset.text) return;
    if (at) { at.tabIndex = -1; at.classList.remove("picked"); }
    at = td;
    td.tabIndex = 0;
    td.classList.add("picked");
    info.textContent = td.dataset.text;
  }
  rows.flat().forEach(td => {
    if (!td.dataset.text) return;
    td.tabIndex = -1;
    td.addEventListener("click", () => { pick(td); td.focus(); });
    td.addEventListener("focus", () => pick(td));
  });
  const first = rows.flat().find(td => td.dataset.text);
  if (first) first.tabIndex = 0;
  const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  document.querySelector("table.heat")?.addEventListener("keydown", e => {
    const step = steps[e.key];
    if (!step || !at) return;
    let i = rows.findIndex(r => r.includes(at)), j = rows[i].indexOf(at);
    do { i += step[0]; j += step[1]; } while (rows[i]?.[j] && !rows[i][j].dataset.text);
    if (rows[i]?.[j]) { e.preventDefault(); rows[i][j].focus(); }
  });
})();
