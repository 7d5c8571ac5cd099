import { defineConfig } from "@playwright/test";

/** Browser tests: Debian's Chromium (never a downloaded browser) against the built server. */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  globalSetup: "./global-setup.ts",
  fullyParallel: false,
  // One file at a time by default: with two on 2 cores the on-device face detector and first
  // paints missed their time limits. E2E_WORKERS=2 runs two, each worker with its own server
  // (server.ts), on a machine with the cores for it.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  // The long flows (offline practice, two servers) take a minute on a busy 2-core machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  outputDir: "../../test-results",
  use: {
    browserName: "chromium",
    // No service worker unless a spec asks for one: registering it and precaching the app shell
    // cost every new browser context 1.7-2.7 CPU-s. The specs about the worker (offline, install,
    // push, updates) opt in with `test.use({ serviceWorkers: "allow" })`, which contexts they make
    // themselves with browser.newContext() follow too. With "block", Playwright's stub of
    // navigator.serviceWorker.register() resolves without registering anything.
    serviceWorkers: "block",
    // A failed test keeps its trace (every action with the page's DOM before and after), without
    // the trace's screencast: its frames kept Chromium's compositor drawing all through every test,
    // about half of Chromium's CPU time on these 2 cores (navigation.spec.ts: 83 → 48 CPU-s).
    // The failure's own screenshot below still shows the page as it ended.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
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
