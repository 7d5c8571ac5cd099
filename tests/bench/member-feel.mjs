/**
 * What a member feels on the practice page, in Debian's Chromium at a phone's width with the
 * service worker on (as an installed app runs):
 * - offline reload → question visible: the demo member opens the maths bank online (the worker
 *   caches the shell, the page keeps the bank on the device), the network goes, and the page is
 *   reloaded RUNS times; each time, the moment the question's first choice is in the page,
 *   measured in the page from its navigation start (a MutationObserver from an init script);
 * - submit → verdict: a choice is checked and "submit answer" clicked in the page; the time until
 *   the verdict (回答正确 / 回答错误) is in the page and the next frame has been drawn.
 * Prints the median and the slowest of each beside the goal.
 */
/* global document, window, MutationObserver, requestAnimationFrame -- the functions given to page.evaluate run in the page */
import { chromium } from "@playwright/test";

const GOALS = { reload: 100, verdict: 50 };
const RUNS = Number(process.env.MEMBER_FEEL_RUNS ?? 15);

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** The demo member's session as the app's `userInfo` store keeps it (zustand persist), from a real login. */
async function memberSession(baseUrl) {
  const res = await fetch(`${baseUrl}/api/user/checkIn`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tab: "login", username: "member", password: "member123456" }),
  });
  const body = await res.json();
  if (body.code !== 1) throw new Error(`member login failed: ${body.msg}`);
  return JSON.stringify({ state: body.data.userInfo, version: 0 });
}

/** In every document of the page: the time (ms since its navigation started) a question's first choice appeared. */
function watchForQuestion() {
  const seen = () => document.querySelector('input[type="radio"], input[type="checkbox"]');
  const observer = new MutationObserver(() => {
    if (seen()) {
      window.__questionAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** In the page: checks a choice of the question on screen, clicks "submit answer", and answers the ms until the verdict is drawn. */
function submitAndTimeVerdict() {
  const verdictShown = () => /回答正确|回答错误/.test(document.querySelector("main")?.textContent ?? "");
  const choice = document.querySelector('input[type="radio"], input[type="checkbox"]');
  const submit = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "提交答案");
  if (!choice || !submit) throw new Error("no question with a submit button on screen");
  choice.click();
  return new Promise((resolve) => {
    const started = performance.now();
    const drawn = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
    const observer = new MutationObserver(() => {
      if (!verdictShown()) return;
      observer.disconnect();
      drawn();
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    submit.click();
  });
}

export async function memberFeelBench(baseUrl) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: "allow", viewport: { width: 390, height: 844 }, locale: "zh-CN" });
    const page = await context.newPage();
    await page.goto("/api/health");
    await page.evaluate((value) => localStorage.setItem("userInfo", value), await memberSession(baseUrl));
    await context.addInitScript(watchForQuestion);
    await page.goto("/exam/myPractice?bank=2");
    await page.waitForFunction(() => window.__questionAt !== undefined, null, { timeout: 60_000 });
    // The worker installed and controlling, the bank on the device ("已保存到本设备" on its overview).
    await page.evaluate(() => navigator.serviceWorker.ready);
    if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) await page.reload();
    await page.waitForTimeout(1_500);

    await context.setOffline(true);
    const reloads = [];
    for (let i = 0; i < RUNS; i++) {
      await page.reload();
      await page.waitForFunction(() => window.__questionAt !== undefined, null, { timeout: 30_000 });
      reloads.push(await page.evaluate(() => window.__questionAt));
    }
    console.log(
      `offline reload → question visible:  median ${fmt(median(reloads))} ms, slowest ${fmt(Math.max(...reloads))} ms (${RUNS} reloads)   [goal: ≤ ${GOALS.reload} ms]`,
    );

    const verdicts = [];
    for (let i = 0; i < RUNS; i++) {
      verdicts.push(await page.evaluate(submitAndTimeVerdict));
      await page.getByRole("button", { name: "下一题" }).click();
      await page.waitForFunction(() => !/回答正确|回答错误/.test(document.querySelector("main")?.textContent ?? ""));
    }
    console.log(`submit → verdict (offline):         median ${fmt(median(verdicts))} ms, slowest ${fmt(Math.max(...verdicts))} ms (${RUNS} answers)   [goal: ≤ ${GOALS.verdict} ms]`);
    await context.close();
    return { reloads, verdicts };
  } finally {
    await browser.close();
  }
}

// `node tests/bench/member-feel.mjs [URL]`: only this bench (a server of your own, or one started here).
if (import.meta.url === `file://${process.argv[1]}`) {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const { startServer, stop } = await import("./server.mjs");
  if (process.argv[2]) {
    await memberFeelBench(process.argv[2].replace(/\/$/, ""));
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "member-feel-bench-"));
    const server = await startServer(["dist/server/main.js"], dataDir);
    try {
      await memberFeelBench(server.url);
    } finally {
      await stop(server.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
