// The Play page's counters, set on the picture: − takes one of your counters into your
// hand, + puts the one in your hand into a sector, offered only where the line-up it makes
// is one the rules allow here; the number fields stay, for typing. Your counters move on
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
