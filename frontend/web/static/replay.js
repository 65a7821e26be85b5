// The replay page's controls: the steps come as JSON in #steps and the pictures in #scene
// (the page runs no inline script, so its Content-Security-Policy can forbid them).
"use strict";
const steps = JSON.parse(document.getElementById("steps").textContent);
const draw = drawPitch(document.getElementById("pitch"), JSON.parse(document.getElementById("scene").textContent));
let k = 0, timer = null;
const $ = id => document.getElementById(id);
const items = document.querySelectorAll("#events li");
function show(i) {
  k = Math.max(0, Math.min(steps.length - 1, i));
  draw(k);
  $("pitch").setAttribute("aria-label", "the pitch at step " + k + ": " + steps[k].Line);
  $("step").textContent = k;
  $("timeline").value = k;
  $("score").textContent = steps[k].Home + "-" + steps[k].Away;
  items.forEach((li, j) => li.classList.toggle("now", j === k));
  follow(items[k]);
  if (k === steps.length - 1) pause();
}
// follow scrolls the event list (not the page) to keep the current step in view.
function follow(li) {
  const list = $("events");
  if (!li) return;
  if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = li.offsetTop - list.clientHeight / 2;
  }
}
function pause() { if (timer) { clearInterval(timer); timer = null; } }
function play() { pause(); if (k === steps.length - 1) show(0); timer = setInterval(() => show(k + 1), +$("speed").value); }
$("first").onclick = () => { pause(); show(0); };
$("prev").onclick = () => { pause(); show(k - 1); };
$("next").onclick = () => { pause(); show(k + 1); };
$("last").onclick = () => { pause(); show(steps.length - 1); };
$("play").onclick = play;
$("pause").onclick = pause;
$("goal").onclick = () => { pause(); let j = k + 1; while (j < steps.length - 1 && !steps[j].Goal) j++; show(j); };
$("timeline").oninput = () => { pause(); show(+$("timeline").value); };
// An event's link names its step (#step-N): the list and the address both go there.
function fromHash() { const m = /^#step-(\d+)$/.exec(location.hash); if (m) { pause(); show(+m[1]); } }
window.addEventListener("hashchange", fromHash);
document.addEventListener("keydown", e => {
  if (e.target === $("timeline")) return; // the slider's own arrows
  if (e.key === "ArrowRight") $("next").click();
  if (e.key === "ArrowLeft") $("prev").click();
});
show(0);
fromHash();
