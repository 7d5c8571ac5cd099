#!/usr/bin/env node
// Retakes the app's screenshots under public/screenshots (README, the web app manifest, the
// start page's gallery): the built app on a fresh demo database in Debian's Chromium, in
// Simplified Chinese, as the demo member. Each full image gets a small WebP thumbnail for the
// start page (the full image loads only when opened).
//
//   npm run screenshots        (builds first when a source changed)
//
// Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH) and a CJK font (Debian: fonts-noto-cjk).
/* global Image, document, window -- used inside page.evaluate(), which runs in the browser */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { startServer } from "./screenshotServer.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const outDir = path.join(root, "public", "screenshots");

/** What is shot: the practice screen (a question answered) on a computer and on a phone. */
const SHOTS = [
  { name: "desktop-zh-cn", viewport: { width: 1280, height: 800 }, thumbHeight: 320 },
  { name: "phone-zh-cn", viewport: { width: 390, height: 844 }, thumbHeight: 320 },
];

/** The demo member's session, stored the way the app stores it after a login. */
async function memberSession(browser, url) {
  const context = await browser.newContext();
  const res = await context.request.post(`${url}/api/user/checkIn`, {
    data: { tab: "login", username: "member", password: "member123456", keep: false },
  });
  const body = await res.json();
  await context.close();
  if (body.code !== 1) throw new Error(`demo login failed: ${body.msg}`);
  return body.data.userInfo;
}

/** A WebP thumbnail of a PNG, drawn by the browser itself. */
async function thumbnail(page, png, height) {
  const dataUrl = `data:image/png;base64,${png.toString("base64")}`;
  const webp = await page.evaluate(
    async ({ dataUrl, height }) => {
      const img = new Image();
      img.src = dataUrl;
      await img.decode();
      const width = Math.round((img.naturalWidth * height) / img.naturalHeight);
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext("2d");
      ctx.imageSmoothingQuality = "high";
      ctx.drawImage(img, 0, 0, width, height);
      return { data: canvas.toDataURL("image/webp", 0.8), width, height };
    },
    { dataUrl, height },
  );
  return { ...webp, buffer: Buffer.from(webp.data.split(",")[1], "base64") };
}

const server = await startServer(root);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--font-render-hinting=none"],
});
try {
  const userInfo = await memberSession(browser, server.url);
  fs.mkdirSync(outDir, { recursive: true });
  for (const shot of SHOTS) {
    const context = await browser.newContext({ viewport: shot.viewport, locale: "zh-CN", colorScheme: "light" });
    await context.addInitScript((userInfo) => {
      if (localStorage.getItem("userInfo")) return;
      localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: "zh-cn" } }, version: 0 }));
      localStorage.setItem("userInfo", JSON.stringify({ state: userInfo, version: 0 }));
    }, userInfo);
    const page = await context.newPage();
    // Sequential practice of the first bank: choose an answer, so the grading shows.
    await page.goto(`${server.url}/exam/myTest`);
    await page.getByRole("link", { name: "练习" }).first().click();
    await page.waitForURL(/\/exam\/myPractice\?bank=/);
    const options = page.getByRole("radio");
    await options.first().waitFor();
    await options.nth(1).check();
    await page.locator('form button[type="submit"]').click();
    await page.locator("form svg.text-red-600, form svg.text-emerald-600").first().waitFor();
    await page.waitForTimeout(800);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    const png = await page.screenshot({ type: "png" });
    fs.writeFileSync(path.join(outDir, `${shot.name}.png`), png);
    const thumb = await thumbnail(page, png, shot.thumbHeight);
    fs.writeFileSync(path.join(outDir, `${shot.name}-thumb.webp`), thumb.buffer);
    console.log(`${shot.name}.png ${shot.viewport.width}x${shot.viewport.height} (${Math.round(png.length / 1024)} KB), thumbnail ${thumb.width}x${thumb.height} (${Math.round(thumb.buffer.length / 1024)} KB)`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
