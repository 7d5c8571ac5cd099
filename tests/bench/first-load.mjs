/**
 * First load in Debian's Chromium: the gzipped JavaScript a first visit downloads before its
 * first screen is usable (its first form field visible), what loads after that (idle), and
 * when the first paint came (before any script: the boot shell of index.html). No service
 * worker, no cache: a first visit.
 */
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";

const GOAL_KIB = 120;

export async function firstLoadBench(baseUrl) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    for (const [label, path, ready] of [
      ["member home / (login)", "/", "input"],
      ["admin login", "/admin/login", "input"],
    ]) {
      const context = await browser.newContext({ serviceWorkers: "block", viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const scripts = [];
      const pending = [];
      page.on("requestfinished", (request) => {
        if (request.resourceType() !== "script") return;
        const at = Date.now();
        pending.push(
          request.response().then(async (response) => {
            const body = await response.body();
            scripts.push({ url: request.url(), at, gz: gzipSync(body, { level: 9 }).length });
          }),
        );
      });
      const t0 = Date.now();
      await page.goto(baseUrl + path);
      await page.locator(ready).first().waitFor({ state: "visible", timeout: 60_000 });
      const readyAt = Date.now();
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(2_500);
      await Promise.all(pending);
      const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN);
      const kib = (list) => list.reduce((sum, s) => sum + s.gz, 0) / 1024;
      const before = scripts.filter((s) => s.at <= readyAt);
      const after = scripts.filter((s) => s.at > readyAt);
      console.log(
        `${label.padEnd(24)} JS before usable ${kib(before).toFixed(1)} KiB gzip in ${before.length} files (goal <= ${GOAL_KIB} KiB), ` +
          `${kib(after).toFixed(1)} KiB more in the next 2.5 s; first paint ${fcp.toFixed(0)} ms, usable ${readyAt - t0} ms`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
}
