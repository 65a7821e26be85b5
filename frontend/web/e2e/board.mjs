// The counters set on the Play page's picture, at a break: one taken into the hand with −,
// then + offered only where the line-up it makes is legal (the page's own list), placed with
// +, then moved back by clicks on the pitch; what the browser saw, for the Go test to check
// against the rules and frame's geometry.
export async function checkHand(page) {
  const board = JSON.parse(await page.locator("#board").textContent());
  const form = page.getByRole("form", { name: "your counters" });
  const counts = async () => Promise.all([1, 2, 3, 4, 5].map(async k => Number(await form.locator(`input[name=sector${k}]`).inputValue())));
  const out = { side: board.side, legal: Object.keys(board.legal), before: await counts() };
  const enabled = async what => {
    const on = [];
    for (let k = 1; k <= 5; k++) if (await form.getByRole("button", { name: what(k) }).isEnabled()) on.push(k);
    return on;
  };
  const take = k => `take a counter from sector ${k} into your hand`;
  const put = k => `put the counter in your hand into sector ${k}`;
  out.takeOffered = await enabled(take);
  out.from = out.takeOffered[out.takeOffered.length - 1];
  await form.getByRole("button", { name: take(out.from) }).click();
  out.submitInHand = await form.getByRole("button", { name: "Play these counters" }).isEnabled();
  out.putOffered = await enabled(put);
  out.to = out.putOffered.find(k => k !== out.from);
  await form.getByRole("button", { name: put(out.to) }).click();
  out.after = await counts();
  out.status = await page.locator("#set-status").textContent();
  await page.waitForFunction(() => document.getAnimations().length === 0);
  out.discs = await page.evaluate(side => [...document.querySelectorAll(`#pitch g[data-id^="${side}-"]`)]
    .filter(g => g.style.visibility !== "hidden").map(g => { const m = new DOMMatrix(getComputedStyle(g).transform); return [m.e, m.f]; }), board.side);
  // The same move undone on the picture: a click on the sector the counter went to takes
  // it, the sectors it may go to light up, a click on the one it came from puts it back.
  const clickSector = async k => {
    const [x, y] = await page.evaluate(([area]) => {
      const svg = document.getElementById("pitch");
      svg.scrollIntoView({ block: "center" });
      const p = new DOMPoint((area[0] + area[2]) / 2, area[3] - 8).matrixTransform(svg.getScreenCTM());
      return [p.x, p.y];
    }, [board.areas[k - 1]]);
    await page.mouse.click(x, y);
  };
  await clickSector(out.to);
  out.litInHand = await page.evaluate(() => [...document.querySelectorAll("#pitch rect[fill-opacity]")].filter(r => r.style.visibility !== "hidden").length);
  await clickSector(out.from);
  out.back = await counts();
  return out;
}
