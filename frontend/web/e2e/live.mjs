// A run followed while it plays: the runs page shows its progress; its leaderboard shows the
// shards done and the standings so far; then e2e.mjs's caller finishes the run (told so by
// the gate file), and the same page — not reloaded — turns into the finished run's.
import { writeFileSync } from "node:fs";

export async function checkLiveRun(page, base, gate, shot) {
  const out = {};
  await page.goto(base + "/");
  out.runsRow = (await page.locator('[data-progress="/run/0/live/progress.json"]').textContent()).replace(/\s+/g, " ").trim();
  await shot("runs");
  await page.getByRole("link", { name: "live", exact: true }).click();
  out.before = await page.locator("#shards-done").textContent();
  out.playedBefore = await played(page);
  await shot("live-playing");
  await page.evaluate(() => { window.notReloaded = true; });
  writeFileSync(gate, "finish the run");
  await page.getByRole("link", { name: "Every match, to replay" }).waitFor({ timeout: 60000 });
  out.notReloaded = await page.evaluate(() => window.notReloaded === true);
  out.playedAfter = await played(page);
  out.progressLeft = await page.locator("#progress").count();
  return out;
}

// played sums the league table's P column: twice the matches counted.
async function played(page) {
  const cells = await page.getByRole("table", { name: "table" }).locator("tbody tr td:nth-child(3)").allTextContents();
  return cells.reduce((sum, c) => sum + Number(c), 0);
}
