import { defineConfig } from "@playwright/test";

const ALONE = ["**/face.spec.ts", "**/a11y.spec.ts"];

/** Browser tests: Debian's Chromium (never a downloaded browser) against the built server. */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  globalSetup: "./global-setup.ts",
  fullyParallel: false,
  // Two files at a time, each worker with its own server (server.ts); E2E_WORKERS=1 runs one.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  projects: [
    { name: "shared", testIgnore: ALONE },
    // Files that time what the browser does on the CPU (the on-device face detector's time limit,
    // first paints under axe) run after the others, one at a time: sharing 2 cores with another
    // file made them miss their limits.
    { name: "alone", testMatch: ALONE, dependencies: ["shared"], workers: 1 },
  ],
  retries: 0,
  // The long flows (offline practice, two servers) take a minute on a busy 2-core machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  outputDir: "../../test-results",
  use: {
    browserName: "chromium",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
