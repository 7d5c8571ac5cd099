#!/usr/bin/env node
// Retakes the back office's screenshots under docs/screenshots/admin: its main screens in
// Simplified Chinese, in English, in dark mode and on a phone (390 × 844), on the built app with
// a fresh demo database in Debian's Chromium, as the demo super admin. They are documentation
// (looked at when the back office changes), not part of the app: nothing here reaches the
// manifest or the build.
//
//   npm run screenshots:admin        (builds first when a source changed)
//
// Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH) and a CJK font (Debian: fonts-noto-cjk).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { startServer } from "./screenshotServer.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const outDir = path.join(root, "docs", "screenshots", "admin");

/** The screens: a path under /admin and, for a list, whether its add dialog is shot too. */
const SCREENS = [
  { name: "dashboard", path: "dashboard" },
  { name: "questions", path: "exam/question", add: true },
  { name: "papers", path: "exam/paper" },
  { name: "rooms", path: "exam/room" },
  { name: "courses", path: "course/course" },
  { name: "members", path: "user/user" },
  { name: "config", path: "routine/config" },
  { name: "admin-log", path: "auth/adminLog" },
];

const VARIANTS = [
  { name: "zh-cn", lang: "zh-cn", dark: false, viewport: { width: 1280, height: 800 }, add: "添加" },
  { name: "en", lang: "en", dark: false, viewport: { width: 1280, height: 800 }, add: "Add" },
  { name: "dark", lang: "zh-cn", dark: true, viewport: { width: 1280, height: 800 }, add: "添加" },
  { name: "phone", lang: "zh-cn", dark: false, viewport: { width: 390, height: 844 }, add: "添加" },
];

/** Waits until the screen has its data: no request in flight and no loading row or spinner. */
async function settled(page) {
  await page.waitForLoadState("networkidle");
  await page.locator('[aria-busy="true"]').first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
  // Charts and transitions finish drawing.
  await page.waitForTimeout(600);
}

const server = await startServer(root);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--font-render-hinting=none"],
});
try {
  fs.mkdirSync(outDir, { recursive: true });
  for (const variant of VARIANTS) {
    const context = await browser.newContext({ viewport: variant.viewport, baseURL: server.url, locale: variant.lang === "en" ? "en-US" : "zh-CN" });
    await context.addInitScript(({ lang, dark }) => {
      if (localStorage.getItem("storeConfig")) return;
      localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: lang }, layout: { isDark: dark } }, version: 0 }));
    }, variant);
    const page = await context.newPage();
    await page.goto("/admin/login");
    await page.locator('input[autocomplete="username"]').fill("admin");
    await page.locator('input[type="password"]').fill("admin123456");
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/admin\/(?!login|loading)/);
    for (const screen of SCREENS) {
      await page.goto(`/admin/${screen.path}`);
      await settled(page);
      const file = `${screen.name}-${variant.name}.png`;
      await page.screenshot({ path: path.join(outDir, file) });
      console.log(file);
      if (screen.add) {
        await page.getByRole("button", { name: variant.add, exact: true }).first().click();
        await page.getByRole("dialog").waitFor();
        await settled(page);
        const dialogFile = `${screen.name}-add-${variant.name}.png`;
        await page.screenshot({ path: path.join(outDir, dialogFile) });
        console.log(dialogFile);
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
