// A page of a run that is not finished follows it: it asks for the progress of every run it
// shows (each element with data-progress, its URL, and data-state, what the page shows) every
// few seconds, and when one has moved it fetches the page again and puts the new <main> in
// place of its own — no reload, the reader keeps their place. It stops once nothing shown
// is left to follow.
"use strict";
const every = 2000;
async function follow() {
  const watched = document.querySelectorAll("[data-progress]");
  if (watched.length === 0) return;
  try {
    let moved = false;
    for (const el of watched) {
      const r = await fetch(new URL(el.dataset.progress, location.href), { cache: "no-store" });
      if (r.ok && (await r.json()).state !== el.dataset.state) moved = true;
    }
    if (moved) {
      const page = await fetch(location.href, { cache: "no-store" });
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html").querySelector("main");
      if (page.ok && fresh) document.querySelector("main").replaceChildren(...fresh.childNodes);
    }
  } catch (e) {
    // the server is away for a moment: ask again later
  }
  setTimeout(follow, every);
}
setTimeout(follow, every);
