// The replay's live pitch: scrubbed by keyboard on the timeline and by an event's link, and
// at each step shown every drawn counter and the ball checked against that step's PNG
// (frame/N.png, frame's raster of the same shapes): the PNG's pixel at each disc's centre,
// once it has finished moving, is the disc's colour.
export async function checkPitch(page) {
  const out = { steps: [] };
  const last = await page.locator("#events li").count() - 1;
  const timeline = page.getByLabel("timeline");
  await timeline.focus();
  await page.keyboard.press("Home");
  for (const k of [0, 1, Math.floor(last / 2), last]) {
    while (Number(await timeline.inputValue()) < k) await page.keyboard.press("ArrowRight");
    out.steps.push(await page.evaluate(discsAgainstPNG, k));
  }
  // The link moves the page on hashchange, a task after the click: wait for the step to
  // change (a link that goes nowhere leaves it, and the test says where it stayed), then
  // read the step, the timeline and the list at once.
  const before = await page.locator("#step").textContent();
  await page.locator("#events li").nth(2).getByRole("link").click();
  await page.waitForFunction(b => document.getElementById("step").textContent !== b, before, { timeout: 5000 }).catch(() => {});
  out.linked = await page.evaluate(() => [document.getElementById("step").textContent, document.getElementById("timeline").value,
    String([...document.querySelectorAll("#events li")].findIndex(li => li.classList.contains("now")))]);
  return out;
}

// discsAgainstPNG runs in the page at step k.
async function discsAgainstPNG(k) {
  const shown = Number(document.getElementById("step").textContent);
  // until every slide has ended (one replaced by the next is cancelled, not finished)
  do await new Promise(r => setTimeout(r, 50)); while (document.getAnimations().some(a => a.playState === "running"));
  const img = new Image();
  img.src = "frame/" + k + ".png";
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width;
  canvas.height = img.height;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0);
  const hex = v => v.toString(16).padStart(2, "0");
  const seen = { k, shown, checked: 0, home: 0, away: 0, ball: 0, wrong: [] };
  for (const g of document.querySelectorAll("#pitch g[data-id]")) {
    if (g.style.visibility === "hidden") continue;
    const m = new DOMMatrix(getComputedStyle(g).transform);
    const [r, gr, b] = ctx.getImageData(Math.round(m.e), Math.round(m.f), 1, 1).data;
    const fill = g.lastChild.getAttribute("fill");
    if ("#" + hex(r) + hex(gr) + hex(b) !== fill) seen.wrong.push(`${g.dataset.id} at ${m.e},${m.f}: PNG #${hex(r)}${hex(gr)}${hex(b)}, SVG ${fill}`);
    seen.checked++;
    seen[g.dataset.id.split("-")[0]]++;
  }
  return seen;
}
