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
import { memberSession } from "./lighthouse.mjs";

const GOALS = { reload: 100, verdict: 50 };
const RUNS = Number(process.env.MEMBER_FEEL_RUNS ?? 15);

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

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

/**
 * A heavy device: the demo member's database filled (in a page of the app's origin, through the
 * offline module's own writes, bundled from tests/bench/heavy-device-entry.ts) with HEAVY.banks
 * banks of HEAVY.perBank questions, HEAVY.marked wrong-book entries and review cards and
 * HEAVY.ops queued ops (practice answers to the demo bank's questions). Then, offline with the
 * service worker on, each page reloaded RUNS times, ms from navigation until it is usable (its
 * content in the page, no spinner in <main>); back online, the ms until HEAVY.replay queued ops
 * have all been sent (the outbox empty, counted from the `online` event); and a 5,000-question
 * bank parsed and saved in the page as a download is, with the longest task meanwhile.
 */
const HEAVY = { banks: 20, perBank: 2_000, marked: 10_000, ops: 5_000, replay: 1_000, download: 5_000 };
const HEAVY_GOALS = { page: 200, replay: 300, longestTask: 50 };

/** The heavy-device entry, bundled as one script (as run.mjs bundles dexie-entry.ts). */
async function heavyDeviceScript() {
  const { build } = await import("vite");
  const path = await import("node:path");
  const { root } = await import("./server.mjs");
  const out = await build({
    configFile: false,
    logLevel: "silent",
    // The sync engine's imports read NODE_ENV as the app's build sets it.
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    build: { write: false, minify: true, lib: { entry: path.join(root, "tests/bench/heavy-device-entry.ts"), formats: ["iife"], name: "HeavyDevice" } },
  });
  return (Array.isArray(out) ? out[0] : out).output[0].code;
}

/**
 * In every document of the page: the time (ms since its navigation started) the selector kept in
 * sessionStorage (`__usable`) was in <main> with no spinner left there.
 */
function watchForUsable() {
  const selector = sessionStorage.getItem("__usable");
  if (!selector) return;
  const usable = () => {
    const main = document.querySelector("main");
    return !!main && !!main.querySelector(selector) && !main.querySelector(".animate-spin");
  };
  const observer = new MutationObserver(() => {
    if (usable()) {
      window.__usableAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

export async function heavyDeviceBench(baseUrl) {
  const code = await heavyDeviceScript();
  const session = await memberSession(baseUrl);
  const { state } = JSON.parse(session);
  const bank = await (await fetch(`${baseUrl}/api/exam/bank?id=2`, { headers: { "ba-user-token": state.token } })).json();
  const real = bank.data.questions.map((q) => q.id);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const results = {};
  try {
    const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: "allow", viewport: { width: 390, height: 844 }, locale: "zh-CN" });
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
    await page.goto("/api/health");
    await page.evaluate((value) => localStorage.setItem("userInfo", value), session);
    await page.addScriptTag({ content: code });
    const seeded = await page.evaluate((s) => globalThis.heavyDevice.seed(s), { memberId: state.id, real, ...HEAVY });
    console.log(
      `heavy device seeded in ${fmt(seeded.ms)} ms: ${fmt(seeded.questions)} questions, ${fmt(seeded.wrong)} wrong-book entries, ${fmt(seeded.cards)} review cards, ${fmt(seeded.outbox)} queued ops`,
    );
    // MEMBER_FEEL_READS=1: each read the heavy pages make, timed alone in the page.
    if (process.env.MEMBER_FEEL_READS) console.log("heavy reads (ms):", JSON.stringify(await page.evaluate(({ memberId }) => globalThis.heavyDevice.reads(memberId, 2), { memberId: state.id })));
    const heavyBank = 1001;
    const pages = [
      ["catalog", "/exam/myTest", 'a[href^="/exam/myPractice?bank="]'],
      ["practice", `/exam/myPractice?bank=${heavyBank}`, 'input[type="radio"], input[type="checkbox"]'],
      ["wrong book", "/exam/examTab/errorTopic?id=2", "li"],
      ["review due list", "/exam/examTab/review?id=2", "li"],
    ];
    // Online once: the worker installed and controlling, each page's server data in its cache.
    // The queued ops stay queued: the sync engine's requests are refused while the pages load.
    await context.route("**/api/exam/sync*", (route) => route.abort());
    await context.addInitScript(watchForUsable);
    await page.goto(pages[0][1]);
    await page.evaluate(() => navigator.serviceWorker.ready);
    for (const [, url] of pages) {
      await page.goto(url);
      await page.waitForTimeout(1_000);
    }
    if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) throw new Error("the service worker does not control the page");
    await context.setOffline(true);
    for (const [name, url, selector] of pages) {
      const times = [];
      for (let i = 0; i < RUNS; i++) {
        await page.evaluate((sel) => sessionStorage.setItem("__usable", sel), selector);
        // MEMBER_FEEL_PROFILE=<dir>: the first load of each page as a Chromium CPU profile there.
        const cdp = process.env.MEMBER_FEEL_PROFILE && i === 0 ? await context.newCDPSession(page) : null;
        if (cdp) {
          await cdp.send("Profiler.enable");
          await cdp.send("Profiler.start");
        }
        await page.goto(url);
        await page.waitForFunction(() => window.__usableAt !== undefined, null, { timeout: 30_000 }).catch(async (error) => {
          if (process.env.MEMBER_FEEL_SHOTS) await page.screenshot({ path: `${process.env.MEMBER_FEEL_SHOTS}/${name}.png` });
          throw new Error(`${name} (${url}) not usable after 30 s: ${error.message}`);
        });
        times.push(await page.evaluate(() => window.__usableAt));
        if (cdp) {
          const { profile } = await cdp.send("Profiler.stop");
          const fs = await import("node:fs");
          fs.writeFileSync(`${process.env.MEMBER_FEEL_PROFILE}/${name.replaceAll(" ", "-")}.cpuprofile`, JSON.stringify(profile));
          await cdp.detach();
        }
      }
      results[name] = times;
      console.log(`heavy: ${`${name} usable (offline):`.padEnd(34)} median ${fmt(median(times))} ms, slowest ${fmt(Math.max(...times))} ms (${RUNS} loads)   [goal: ≤ ${HEAVY_GOALS.page} ms]`);
    }

    // Replay: HEAVY.replay answers queued, then the network comes back (MEMBER_FEEL_REPLAYS times,
    // offline again and the page reloaded in between). The sync requests are noted, so a replay
    // that does not empty the outbox prints what the engine sent and what it got.
    const syncRequests = [];
    const noteSync = (request, outcome) => {
      if (/\/api\/exam\/(sync|state|review\/state)/.test(request.url())) syncRequests.push({ at: Date.now(), what: `${request.method()} ${new URL(request.url()).pathname} ${outcome}` });
    };
    page.on("request", (request) => noteSync(request, "sent"));
    page.on("requestfinished", async (request) => noteSync(request, `answered ${(await request.response().catch(() => null))?.status() ?? "?"}`));
    page.on("requestfailed", (request) => noteSync(request, `failed: ${request.failure()?.errorText}`));
    await context.unroute("**/api/exam/sync*");
    const replays = [];
    for (let run = 0; run < Number(process.env.MEMBER_FEEL_REPLAYS ?? 1); run++) {
      if (run > 0) await context.setOffline(true);
      await page.evaluate(() => sessionStorage.setItem("__usable", 'a[href^="/exam/myPractice?bank="]'));
      await page.goto("/exam/myTest");
      await page.waitForFunction(() => window.__usableAt !== undefined, null, { timeout: 30_000 });
      await page.addScriptTag({ content: code });
      await page.evaluate(({ memberId, real: ids, n }) => globalThis.heavyDevice.requeue(memberId, ids, n), { memberId: state.id, real, n: HEAVY.replay });
      await page.evaluate(() => window.addEventListener("online", () => (window.__onlineAt = performance.now()), { once: true }));
      const emptied = page.evaluate((memberId) => globalThis.heavyDevice.outboxEmptyAt(memberId, 60_000), state.id);
      const since = Date.now();
      await context.setOffline(false);
      const emptyAt = await emptied;
      const onlineAt = await page.evaluate(() => window.__onlineAt);
      const ms = emptyAt === null ? null : emptyAt - onlineAt;
      replays.push(ms);
      console.log(`heavy: replay ${fmt(HEAVY.replay)} queued ops (online → outbox empty): ${ms === null ? "not empty after 60 s" : `${fmt(ms)} ms`}   [goal: ≤ ${HEAVY_GOALS.replay} ms]`);
      if (ms === null) for (const { at, what } of syncRequests.filter((r) => r.at >= since - 5_000)) console.log(`  ${fmt(at - since)} ms: ${what}`);
    }
    results.replay = replays.length === 1 ? replays[0] : replays;

    // MEMBER_FEEL_PROFILE=<dir>: the save (and whatever else the page runs meanwhile) as a profile too.
    const saveCdp = process.env.MEMBER_FEEL_PROFILE ? await context.newCDPSession(page) : null;
    if (saveCdp) {
      await saveCdp.send("Profiler.enable");
      await saveCdp.send("Profiler.start");
    }
    const saved = await page.evaluate(({ memberId, n }) => globalThis.heavyDevice.download(memberId, n), { memberId: state.id, n: HEAVY.download });
    if (saveCdp) {
      const { profile } = await saveCdp.send("Profiler.stop");
      const fs = await import("node:fs");
      fs.writeFileSync(`${process.env.MEMBER_FEEL_PROFILE}/bank-save.cpuprofile`, JSON.stringify(profile));
      await saveCdp.detach();
    }
    results.download = saved;
    console.log(
      `heavy: a ${fmt(HEAVY.download)}-question bank (${fmt(saved.kib)} KiB) parsed and saved: ${fmt(saved.ms)} ms (parse ${fmt(saved.parseMs)} ms), longest task ${fmt(saved.longestTask)} ms, while saving ${fmt(saved.longestSaveTask)} ms (${saved.longTasks} long tasks)   [goal: longest task ≤ ${HEAVY_GOALS.longestTask} ms]`,
    );
    await context.close();
    return results;
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
    await heavyDeviceBench(process.argv[2].replace(/\/$/, ""));
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "member-feel-bench-"));
    const server = await startServer(["dist/server/main.js"], dataDir);
    try {
      if (process.env.MEMBER_FEEL_HEAVY !== "only") await memberFeelBench(server.url);
      if (process.env.MEMBER_FEEL_HEAVY !== "0") await heavyDeviceBench(server.url);
    } finally {
      await stop(server.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
