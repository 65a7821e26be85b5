// Drives the web app in headless Chromium (Debian's, through playwright-core): follows a run
// as it finishes (live.mjs), loads a leaderboard, replays a match to its end, plays a whole match by clicking and another by
// keyboard alone, opens a policy heatmap and a match's analysis, then loads every page at a
// phone's width (390 px: does the page scroll sideways?) and checks each with axe-core
// (WCAG 2.1 A and AA), taking a screenshot of each, desktop and phone. Run by
// frontend/web/browser_test.go:
//   node e2e.mjs BASE_URL SHOT_DIR GATE_FILE   (env: CHROMIUM, PLAYWRIGHT_DIR, AXE_DIR)
// It prints one JSON object of what it saw; the Go test checks it.
import { createRequire } from "node:module";
import path from "node:path";
import { checkPitch } from "./pitch.mjs";
import { checkLiveRun } from "./live.mjs";
import { checkHand } from "./board.mjs";

const require = createRequire(path.join(process.env.PLAYWRIGHT_DIR, "package.json"));
const { chromium } = require("playwright-core");
const axeSource = (await import("node:fs")).readFileSync(path.join(process.env.AXE_DIR, "axe.min.js"), "utf8");
const [base, shots, gate] = process.argv.slice(2);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const out = {};
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  page.setDefaultTimeout(20000);
  const shot = name => page.screenshot({ path: path.join(shots, name + ".png"), fullPage: true });

  out.live = await checkLiveRun(page, base, gate, shot);
  await shot("live-finished");

  await page.goto(base + "/");
  await page.getByRole("link", { name: "league" }).click();
  await page.getByRole("table", { name: "ratings" }).locator("tbody tr").first().waitFor(); // count() does not wait
  out.leaderboardAgents = await page.getByRole("table", { name: "ratings" }).locator("tbody tr").count();
  out.exploitability = await page.getByRole("columnheader", { name: "exploitability" }).count();
  await shot("leaderboard");

  await page.getByRole("link", { name: "Every match, to replay" }).click();
  await page.getByRole("link", { name: "replay match 1", exact: true }).click();
  await page.getByLabel("speed").selectOption({ label: "fast" });
  await page.getByRole("button", { name: "Play" }).click();
  const last = await page.locator("#events li").count() - 1;
  await page.waitForFunction(n => document.getElementById("step").textContent === String(n), last, { timeout: 60000 });
  out.replayScore = await page.getByLabel("score", { exact: true }).textContent();
  const stored = page.locator("#stored");
  out.storedScore = (await stored.getAttribute("data-home")) + "-" + (await stored.getAttribute("data-away"));
  await page.getByRole("button", { name: "Start" }).click();
  out.replayStart = await page.getByLabel("score", { exact: true }).textContent();
  await page.getByRole("button", { name: "Next goal" }).click();
  out.afterNextGoal = await page.getByLabel("score", { exact: true }).textContent();
  await shot("replay");
  out.pitch = await checkPitch(page);

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
  // count() does not wait: the click's navigation may not have landed yet (it counted the
  // Policies page's cells, 0, once under load). A cell of the heatmap first, then the count.
  await page.getByRole("table", { name: "heatmap" }).locator("td[style]").first().waitFor();
  out.heatCells = await page.getByRole("table", { name: "heatmap" }).locator("td[style]").count();
  // A cell by touch (a click) and the next by the arrow key: the info line says each.
  const cells = page.getByRole("table", { name: "heatmap" }).locator("td[data-text]");
  // The cells are in the page before heat.js (at its end) has run; a click then picks
  // nothing (CI saw "Pick a cell." once). heat.js puts the first cell in the tab order.
  await cells.and(page.locator('[tabindex="0"]')).first().waitFor();
  await cells.first().click();
  out.heatPicked = [await cells.first().getAttribute("title"), await page.locator("#cell-info").textContent()];
  await page.keyboard.press("ArrowRight");
  out.heatPicked.push(await page.evaluate(() => document.activeElement.getAttribute("title")), await page.locator("#cell-info").textContent());
  await shot("policy");
  await page.getByRole("link", { name: "write every cell's value in it" }).click();
  out.heatValues = await cells.evaluateAll(tds => tds.slice(0, 20).map(td => [td.textContent.replace("•", ""), td.title]));
  await shot("policy-values");

  // A match read against the solved game: the page's data, and one row as shown.
  await page.goto(base + "/run/0/short/matches/");
  await page.getByRole("link", { name: "analysis of match 1", exact: true }).click();
  out.analysis = JSON.parse(await page.locator("#analysis").textContent());
  const row = page.getByRole("table", { name: "decisions" }).locator("tbody tr").first();
  out.firstRowLoss = Number(await row.getAttribute("data-loss"));
  out.curvePoints = (await page.locator("svg polyline").getAttribute("points")).split(" ").length;
  await shot("analysis");

  // The explorer by its form: a break typed in; its value, for the Go test to check.
  await page.goto(base + "/explore/");
  const br = page.getByRole("form", { name: "a break" });
  await br.getByLabel("throws left", { exact: true }).fill("4");
  await br.getByLabel("home goals − away goals").fill("0");
  await br.getByLabel("home line-up").fill("2-2-2-2-2");
  await br.getByLabel("away moves left").fill("2");
  await br.getByRole("button", { name: "Show the break" }).click();
  await page.getByRole("table", { name: "home's choices" }).locator("tbody tr").first().waitFor(); // count() does not wait
  out.explored = { url: page.url(), value: Number(await page.locator("#value").getAttribute("data-v")),
    rows: await page.getByRole("table", { name: "home's choices" }).locator("tbody tr").count() };
  await shot("explore");

  // A whole match played by setting the counters: a line-up typed in at the kick-off, then
  // the form as it comes (the line-up kept) at every break.
  await page.goto(base + "/play/?vs=heuristic&seed=4&throws-per-half=4&moves=1");
  const counters = page.getByRole("form", { name: "your counters" });
  for (const [k, n] of ["1", "2", "3", "3", "1"].entries()) await counters.getByLabel(new RegExp("^sector " + (k + 1))).fill(n);
  await shot("play-counters");
  out.counterSubmits = 0;
  while (await page.locator("#final").count() === 0 && out.counterSubmits < 40) {
    if (out.counterSubmits === 1 && await page.locator("#final").count() === 0) {
      out.hand = await checkHand(page); // the first break: a counter moved on the picture
      await shot("play-hand");
    }
    await page.getByRole("button", { name: "Play these counters" }).click();
    await page.waitForLoadState();
    out.counterSubmits++;
  }
  out.countersFinal = await page.locator("#final").textContent();
  out.countersKickOff = await page.locator("#events li").first().textContent();

  // A whole match played with the keyboard alone: Tab to a choice, Enter.
  await page.goto(base + "/play/?vs=random&seed=3&throws-per-half=4&moves=2");
  out.keys = 0;
  while (await page.locator("#final").count() === 0 && out.keys < 400) {
    await page.keyboard.press("Tab");
    out.keys++;
    if (await page.evaluate(() => !!document.activeElement.closest("[aria-label=choices]"))) {
      await page.keyboard.press("Enter");
      await page.waitForLoadState();
    }
  }
  out.keyboardFinal = await page.locator("#final").textContent();
  await page.getByRole("link", { name: "Your match against the solved game" }).click();
  const played = JSON.parse(await page.locator("#analysis").textContent());
  out.playedDecisions = played.decisions.length;
  out.playedYou = played.agents[0].agent;
  await shot("analysis-played");

  // Every page at a phone's width, and axe-core on each (serious and critical violations).
  const pages = { runs: "/", leaderboard: "/run/0/league/", "interrupted-run": "/run/0/paused/", matches: "/run/0/league/matches/", replay: "/run/0/league/match/1/",
    analysis: "/run/0/short/match/1/analysis/", play: "/play/", "play-match": "/play/?vs=random&seed=7&throws-per-half=5",
    "played-analysis": "/play/analysis/?vs=random&seed=3&throws-per-half=4&moves=2&choices=14",
    policies: "/policies/", policy: null, "policy-values": null,
    explore: "/explore/?period=second+half&throws-left=3&diff=0&home=1-1-4-2-2&home-moves=1&away=1-2-3-2-2&away-moves=1&throws-per-half=4&moves=2" };
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
  const p = await phone.newPage();
  p.setDefaultTimeout(20000);
  await p.goto(base + "/policies/");
  pages.policy = new URL(await p.getByRole("link", { name: "policy.parquet" }).getAttribute("href"), base + "/policies/").pathname;
  pages["policy-values"] = pages.policy + "?numbers=on";
  out.wide = [];
  out.axe = [];
  for (const [name, url] of Object.entries(pages)) {
    await p.goto(base + url);
    await p.screenshot({ path: path.join(shots, name + "-phone.png"), fullPage: true });
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) out.wide.push(name + ": " + width + " px");
    if (name.endsWith("analysis")) { // its tables fit too, as cards, with nothing to scroll sideways (issue 56)
      const scrolled = await p.evaluate(() => [...document.querySelectorAll(".wide")].filter((e) => e.scrollWidth > e.clientWidth + 1).length);
      if (scrolled > 0) out.wide.push(name + ": " + scrolled + " tables scroll sideways");
    }
    await p.evaluate(axeSource);
    const found = await p.evaluate(() => axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }));
    for (const v of found.violations) {
      if (v.impact === "serious" || v.impact === "critical") out.axe.push(name + ": " + v.id + " (" + v.nodes.length + ")");
    }
  }
  out.pagesChecked = Object.keys(pages).length;
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
