// Drives the web app in headless Chromium (Debian's, through playwright-core): loads a
// leaderboard, replays a match to its end, plays a whole match by clicking, and opens a
// policy heatmap, taking a screenshot of each. Run by web/browser_test.go:
//   node e2e.mjs BASE_URL SHOT_DIR   (env: CHROMIUM, PLAYWRIGHT_DIR)
// It prints one JSON object of what it saw; the Go test checks it.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.env.PLAYWRIGHT_DIR, "package.json"));
const { chromium } = require("playwright-core");
const [base, shots] = process.argv.slice(2);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const out = {};
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  page.setDefaultTimeout(20000);
  const shot = name => page.screenshot({ path: path.join(shots, name + ".png"), fullPage: true });

  await page.goto(base + "/");
  await page.getByRole("link", { name: "league" }).click();
  out.leaderboardAgents = await page.getByRole("table", { name: "ratings" }).locator("tbody tr").count();
  out.exploitability = await page.getByRole("columnheader", { name: "exploitability" }).count();
  await shot("leaderboard");

  await page.getByRole("link", { name: "Every match, to replay" }).click();
  await page.getByRole("link", { name: "replay match 1", exact: true }).click();
  await page.getByLabel("speed").selectOption({ label: "fast" });
  await page.getByRole("button", { name: "Play" }).click();
  const last = await page.locator("#events li").count() - 1;
  await page.waitForFunction(n => document.getElementById("step").textContent === String(n), last, { timeout: 60000 });
  await page.waitForFunction(() => document.getElementById("pitch").complete);
  out.replayScore = await page.getByLabel("score", { exact: true }).textContent();
  const stored = page.locator("#stored");
  out.storedScore = (await stored.getAttribute("data-home")) + "-" + (await stored.getAttribute("data-away"));
  await page.getByRole("button", { name: "Start" }).click();
  out.replayStart = await page.getByLabel("score", { exact: true }).textContent();
  await page.getByRole("button", { name: "Next goal" }).click();
  out.afterNextGoal = await page.getByLabel("score", { exact: true }).textContent();
  await shot("replay");

  await page.getByRole("link", { name: "Play", exact: true }).click();
  await page.getByRole("combobox", { name: "opponent" }).fill("random");
  await page.getByLabel("seed").fill("7");
  await page.getByLabel("throws per half", { exact: true }).fill("5");
  await page.getByRole("button", { name: "Start the match" }).click();
  await shot("play-kickoff");
  out.clicks = 0;
  while (await page.locator("#final").count() === 0 && out.clicks < 40) {
    await page.getByRole("group", { name: "choices" }).getByRole("link").first().click();
    await page.waitForLoadState();
    out.clicks++;
    if (out.clicks === 2) await shot("play-break");
  }
  out.final = await page.locator("#final").textContent();
  out.playURL = page.url();
  await shot("play-final");

  await page.getByRole("link", { name: "Policies" }).click();
  await page.getByRole("link", { name: "policy.parquet" }).click();
  out.heatCells = await page.getByRole("table", { name: "heatmap" }).locator("td[style]").count();
  await shot("policy");
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
