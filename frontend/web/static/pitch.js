// Kingoal's live pitch: draws frame's shapes (the PNG's geometry, sent once as JSON by the
// server: the pitch, then what changed at each step) as SVG, and moves the counters and the
// ball from one step to the next. drawPitch(svg, scene) returns show(k); show.put(shapes,
// side) then replaces that side's counters in the picture shown ("home" or "away");
// drawPitch.make(tag, attributes) makes an SVG element. Nothing else is global.
"use strict";
const drawPitch = (() => {
const svgNS = "http://www.w3.org/2000/svg";

function drawPitch(svg, scene) {
  // Every step's shapes by name, from the changes.
  const states = [];
  let now = new Map();
  for (const step of scene.steps) {
    now = new Map(now);
    for (const id of step.gone || []) now.delete(id);
    for (const sh of step.changed || []) now.set(sh.id, sh);
    states.push(now);
  }
  const shapeElement = sh => makeShape(sh, scene.ink);
  for (const sh of scene.pitch) svg.appendChild(shapeElement(sh));
  const drawn = new Map();
  let current = new Map();
  function place(state) {
    for (const [id, sh] of state) {
      let el = drawn.get(id);
      if (!el || el.dataset.kind !== sh.k) {
        if (el) el.remove();
        el = shapeElement(sh);
        drawn.set(id, el);
        svg.appendChild(el);
      }
      update(el, sh);
    }
    for (const [id, el] of drawn) el.style.visibility = state.has(id) ? "" : "hidden";
    current = state;
  }
  const show = k => place(states[k]);
  show.put = (shapes, side) => {
    const state = new Map([...current].filter(([id]) => !id.startsWith(side + "-")));
    for (const sh of shapes) state.set(sh.id, sh);
    place(state);
  };
  return show;
}

function make(tag, attrs) {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// makeShape makes the element of a shape (ink: a disc's outline); a disc is a group at
// (0, 0) moved by a CSS transform, so that it slides to its next place.
function makeShape(sh, ink) {
  let el;
  if (sh.k === "disc") {
    el = make("g", { class: "mover" });
    el.appendChild(make("circle", { r: sh.r + (sh.o || 0), fill: ink }));
    el.appendChild(make("circle", { r: sh.r }));
  } else if (sh.k === "text") {
    el = make("text", { "font-family": "DejaVu Sans Mono, ui-monospace, monospace", lengthAdjust: "spacingAndGlyphs" });
    el.style.whiteSpace = "pre"; // the score's spaces count, as in the PNG
  } else {
    el = make("rect", {});
  }
  el.dataset.kind = sh.k;
  if (sh.id) el.dataset.id = sh.id;
  update(el, sh);
  return el;
}

function update(el, sh) {
  if (sh.k === "disc") {
    el.style.transform = `translate(${sh.x}px, ${sh.y}px)`;
    el.lastChild.setAttribute("fill", sh.f);
    el.dataset.x = sh.x;
    el.dataset.y = sh.y;
    el.dataset.fill = sh.f;
  } else if (sh.k === "text") {
    el.setAttribute("x", sh.x);
    el.setAttribute("y", sh.y);
    el.setAttribute("fill", sh.f);
    el.setAttribute("font-size", 12 * sh.s);
    if (sh.w) el.setAttribute("textLength", sh.w); else el.removeAttribute("textLength");
    el.textContent = sh.t || "";
  } else {
    for (const [k, v] of [["x", sh.x], ["y", sh.y], ["width", sh.w], ["height", sh.h], ["fill", sh.f]]) el.setAttribute(k, v);
  }
}

drawPitch.make = make;
return drawPitch;
})();
