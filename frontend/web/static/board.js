// The Play page's counters, set on the picture: − (or a click on your half of a sector on
// the pitch) takes one of your counters into your hand, + (or a click) puts the one in your
// hand into a sector, offered only where the line-up it makes is one the rules allow here
// (those sectors lit on the pitch); the number fields stay, for typing. Your counters move on
// the pitch as you set them, and the hint is drawn there: dashed rings for the hinted
// line-up and, at the kick-off, the equilibrium mix's counters a sector on average.
"use strict";
const board = JSON.parse(document.getElementById("board").textContent);
const svg = document.getElementById("pitch");
const show = drawPitch(svg, board.scene);
show(0);
const form = document.querySelector("form[aria-label='your counters']");
const inputs = [1, 2, 3, 4, 5].map(k => form.elements["sector" + k]);
const status = document.getElementById("set-status");
const submit = form.querySelector("button[type=submit]");
const counts = () => inputs.map(i => Number(i.value));
const legal = c => Object.hasOwn(board.legal, c.join("-"));
const moved = (c, from, to) => c.map((n, k) => n - (k === from) + (k === to));

// ring and label draw the hint on the picture.
const make = drawPitch.make;
const hint = make("g", { "aria-hidden": "true" });
board.hint?.forEach((n, k) => {
  for (let j = 0; j < n; j++) {
    const [x, y] = board.slots[k][j];
    hint.appendChild(make("circle", { cx: x, cy: y, r: board.r + 3, fill: "none", stroke: "#ffffff", "stroke-width": 1.5, "stroke-dasharray": "3 2" }));
  }
});
board.mean?.forEach((m, k) => {
  const t = make("text", { x: board.slots[k][1][0], y: board.slots[k][3][1] + 34, fill: "#ffffff", "font-size": 12, "text-anchor": "middle", "font-family": "DejaVu Sans Mono, ui-monospace, monospace" });
  t.textContent = "avg " + m.toFixed(1);
  hint.appendChild(t);
});
svg.appendChild(hint);

// The sectors where a click puts the counter in hand, lit while one is.
const lit = board.areas.map(([x0, y0, x1, y1]) => {
  const r = make("rect", { x: x0 + 2, y: y0 + 2, width: x1 - x0 - 4, height: y1 - y0 - 4, fill: "#ffffff", "fill-opacity": 0.22, stroke: "#ffffff", "aria-hidden": "true" });
  r.style.pointerEvents = "none";
  svg.appendChild(r);
  return r;
});
svg.style.cursor = "pointer";
svg.addEventListener("click", e => {
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const k = board.areas.findIndex(([x0, y0, x1, y1]) => p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1);
  if (k < 0) return;
  const { minus, plus } = buttons[k];
  if (!plus.disabled) plus.click();
  else if (!minus.disabled) minus.click();
});

const buttons = inputs.map((input, k) => {
  const minus = button("−", `take a counter from sector ${k + 1} into your hand`, () => { input.value = counts()[k] - 1; refresh(); });
  const plus = button("+", `put the counter in your hand into sector ${k + 1}`, () => { input.value = counts()[k] + 1; refresh(); });
  input.before(minus, " ");
  input.after(" ", plus);
  input.addEventListener("input", refresh);
  return { minus, plus };
});

function button(text, label, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.className = "step";
  b.onclick = onclick;
  return b;
}

function refresh() {
  const c = counts();
  const hand = 10 - c.reduce((a, b) => a + b, 0);
  buttons.forEach(({ minus, plus }, k) => {
    if (hand === 0 && legal(c)) {
      minus.disabled = ![0, 1, 2, 3, 4].some(to => to !== k && legal(moved(c, k, to)));
      plus.disabled = true;
    } else if (hand === 1 && [0, 1, 2, 3, 4].some(to => legal(moved(c, -1, to)))) {
      minus.disabled = true;
      plus.disabled = !legal(moved(c, -1, k));
    } else { // typed into a line-up off the legal ones: plain steps within a sector's bounds
      minus.disabled = !(c[k] > 1);
      plus.disabled = !(c[k] < 5);
    }
  });
  lit.forEach((r, k) => { r.style.visibility = hand === 1 && !buttons[k].plus.disabled ? "" : "hidden"; });
  const ok = hand === 0 && legal(c);
  submit.disabled = !ok;
  if (ok) {
    const cost = board.legal[c.join("-")];
    status.textContent = c.join("-") + (cost > 0 ? `: ${cost} move${cost === 1 ? "" : "s"}` : "");
  } else if (hand === 1) {
    status.textContent = "One counter in your hand: put it in a sector with +.";
  } else if (hand !== 0) {
    status.textContent = `${10 - hand} counters set: you have 10.`;
  } else {
    status.textContent = c.join("-") + " is not a line-up you may play here.";
  }
  const own = [];
  let i = 0;
  for (const k of board.order) {
    for (let j = 0; j < Math.min(Math.max(c[k - 1] || 0, 0), 5); j++) {
      const [x, y] = board.slots[k - 1][j];
      own.push({ k: "disc", id: `${board.side}-${i++}`, x, y, r: board.r, o: 1, f: board.fill });
    }
  }
  show.put(own, board.side);
}
refresh();
