import { afterEach, describe, expect, it, vi } from "vitest";
import { afterMainContent } from "../../src/client/app/layouts/afterMainContent.ts";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A browser that reports largest paints: the observers made, to hand them entries. */
function fakeLargestPaints() {
  const observers: { callback: (list: { getEntries(): unknown[] }) => void; disconnected: boolean }[] = [];
  class FakeObserver {
    static supportedEntryTypes = ["largest-contentful-paint"];
    private readonly own: (typeof observers)[number];
    constructor(callback: (list: { getEntries(): unknown[] }) => void) {
      this.own = { callback, disconnected: false };
      observers.push(this.own);
    }
    observe() {}
    disconnect() {
      this.own.disconnected = true;
    }
  }
  vi.stubGlobal("PerformanceObserver", FakeObserver);
  const paint = (element: Element) => observers.forEach((o) => o.disconnected || o.callback({ getEntries: () => [{ entryType: "largest-contentful-paint", element }] }));
  return { observers, paint };
}

/** Whether `promise` has settled by now. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await wait(0);
  return done;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("afterMainContent", () => {
  it("waits for a largest paint inside <main>, not one of the boot shell outside it", async () => {
    const { observers, paint } = fakeLargestPaints();
    document.body.innerHTML = `<div id="boot"><p>shell</p></div><main><ul><li><img alt=""></li></ul></main>`;
    const ready = afterMainContent(10_000);
    paint(document.querySelector("#boot p")!);
    expect(await settled(ready)).toBe(false);
    paint(document.querySelector("main img")!);
    expect(await settled(ready)).toBe(true);
    expect(observers.every((o) => o.disconnected)).toBe(true);
  });

  it("gives up waiting after latestMs (a screen whose largest element is still the boot shell's)", async () => {
    fakeLargestPaints();
    const ready = afterMainContent(50);
    expect(await settled(ready)).toBe(false);
    await wait(80);
    expect(await settled(ready)).toBe(true);
  });

  it("resolves at once on a page a service worker controls, and where largest paints are not reported", async () => {
    fakeLargestPaints();
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator), { serviceWorker: { controller: {} } }));
    expect(await settled(afterMainContent(10_000))).toBe(true);
    vi.unstubAllGlobals();
    vi.stubGlobal("PerformanceObserver", undefined);
    expect(await settled(afterMainContent(10_000))).toBe(true);
  });
});
